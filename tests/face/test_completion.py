"""Shell completion through the command's entry point (in this process; the console script
completes the same), as bash asks for it: commands, options, the values of choice options and
strategy names; and the scripts `shutbox completion` prints."""

from __future__ import annotations

import os
import subprocess

import pytest

from strategies.runner import BUILTINS

from helpers.command import SHUTBOX, shutbox


def asking(*words: str) -> dict[str, str]:
    """The environment in which bash asks for the completions of the last of `words` (an empty one:
    a fresh word)."""
    return {
        "_SHUTBOX_COMPLETE": "complete_bash",
        "COMP_WORDS": " ".join(("shutbox", *words)),
        "COMP_CWORD": str(len(words)),
    }


def complete(*words: str) -> list[str]:
    """What bash gets for the last of `words`, from the command run in this process."""
    done = shutbox(env=asking(*words))
    assert (done.returncode, done.stderr) == (0, "")
    return done.stdout.split()


@pytest.mark.slow
def test_the_console_script_completes_as_the_command_run_here() -> None:
    words = ("tournament", "-s", "")
    done = subprocess.run([SHUTBOX], capture_output=True, text=True, env={**os.environ, **asking(*words)}, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.split() == complete(*words)


def test_command_names() -> None:
    assert complete("t") == ["tournament", "tune"]
    assert {"analyze", "play", "tournament", "completion", "rules"} <= set(complete(""))


def test_option_names() -> None:
    assert complete("tournament", "--du") == ["--duplicate"]
    assert complete("tournament", "--no-d") == ["--no-duplicate"]
    assert "--one-die-mode" in complete("play", "--one-die")


def test_values_of_choice_options() -> None:
    assert complete("tournament", "--one-die", "") == ["high-tiles", "low-sum", "off"]
    assert complete("rules", "--scoring", "d") == ["digits"]


def test_strategy_names() -> None:
    assert complete("tournament", "-s", "gr") == ["greedy-high"]
    assert set(BUILTINS) <= set(complete("analyze", ""))
    assert complete("play", "--computer", "max") == ["max-shut"]


@pytest.mark.parametrize(
    ("shell", "mark"), [("bash", "complete -o default -F"), ("zsh", "compdef"), ("fish", "complete")]
)
def test_completion_prints_the_script_for_each_shell(shell: str, mark: str) -> None:
    done = shutbox("completion", shell)
    assert done.returncode == 0 and mark in done.stdout and "_SHUTBOX_COMPLETE" in done.stdout
