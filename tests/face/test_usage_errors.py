"""Every command-line mistake typer catches is one of our sentences: the option or argument, what it
accepts, what was given; exit 2, nothing on stdout, no validation library's words (the command run in
this process as its console script runs it; the real one says the same)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from helpers.command import shutbox

SHUTBOX = str(Path(sys.executable).parent / "shutbox")


@pytest.mark.parametrize(
    ("args", "sentence"),
    [
        (["tournament", "--games", "abc"], "--games must be a whole number, not 'abc'"),
        (["tournament", "--timeout", "soon"], "--timeout must be a number, not 'soon'"),
        (["tournament", "--one-die", "nope"], "--one-die must be one of high-tiles, low-sum or off, not 'nope'"),
        (["tournament", "-s"], "-s needs a value"),
        (["play", "--seed", "-1"], "--seed must be at least 0"),
        (["analyze"], "missing argument SPEC"),
        (["replay", "-s", "optimal"], "missing option --game"),
        (["tournament", "--tiels", "3"], "no option --tiels; did you mean --ties, --tiles or --timeout?"),
        (["tournament", "--duplicate=yes"], "--duplicate takes no value"),
        (["rules", "extra"], "unexpected argument 'extra'"),
        (["bogus"], "no command 'bogus'; the commands are analyze, best"),
        (["completion", "tcsh"], "SHELL must be one of bash, zsh or fish, not 'tcsh'"),
    ],
)
def test_a_usage_error_is_one_of_our_sentences(args: list[str], sentence: str) -> None:
    done = shutbox(*args)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"shutbox: error: {sentence}")
    assert done.stderr.count("\n") == 1 and done.stderr.endswith(".\n")
    assert "Input should" not in done.stderr and "Invalid value" not in done.stderr


def test_the_console_script_says_the_same_sentence() -> None:
    args = ["tournament", "--tiels", "3"]
    done = subprocess.run([SHUTBOX, *args], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", shutbox(*args).stderr)
