"""Shell completion through the real entry point, as bash asks for it: commands, options, the
values of choice options and strategy names; and the scripts `shutbox completion` prints."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from strategies.loading import BUILTINS

SHUTBOX = str(Path(sys.executable).parent / "shutbox")


def complete(*words: str) -> list[str]:
    """What bash gets for the last of `words` (an empty one: a fresh word)."""
    env = {
        **os.environ,
        "_SHUTBOX_COMPLETE": "complete_bash",
        "COMP_WORDS": " ".join(("shutbox", *words)),
        "COMP_CWORD": str(len(words)),
    }
    done = subprocess.run([SHUTBOX], capture_output=True, text=True, env=env, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    return done.stdout.split()


def test_command_names() -> None:
    assert complete("t") == ["tournament"]
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
    done = subprocess.run([SHUTBOX, "completion", shell], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and mark in done.stdout and "_SHUTBOX_COMPLETE" in done.stdout
