"""The front door, through the real entry points: version, help, the rules command, and a
bad option answered with one sentence, exit status 2 and no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import shutbox_cli

from helpers.command import SHUTBOX, environment

ENV = environment()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, env=ENV, timeout=60)


@pytest.mark.parametrize("command", [[SHUTBOX], [sys.executable, "-m", "shutbox_cli"]], ids=["script", "module"])
def test_version(command: list[str]) -> None:
    result = run(*command, "--version")
    assert result.returncode == 0
    assert result.stdout == f"shutbox {shutbox_cli.__version__}\n"
    assert result.stderr == ""


@pytest.mark.slow
def test_help_lists_the_commands_and_fits_80_columns() -> None:
    result = run(SHUTBOX, "--help")
    assert result.returncode == 0
    assert "Shut the Box" in result.stdout
    assert "rules" in result.stdout and "--version" in result.stdout
    assert all(len(line) <= 80 for line in result.stdout.splitlines())


@pytest.mark.slow
def test_rules_describes_the_defaults() -> None:
    result = run(SHUTBOX, "rules")
    assert result.returncode == 0
    assert "tiles 1 to 9" in result.stdout
    assert "once every tile from 7 up is shut" in result.stdout
    assert "Shutting the box wins the game at once" in result.stdout


@pytest.mark.slow
def test_rules_for_twelve_tiles_names_the_low_sum_one_die_rule() -> None:
    result = run(SHUTBOX, "rules", "--tiles", "12")
    assert result.returncode == 0
    assert "tiles 1 to 12" in result.stdout and "78" in result.stdout
    assert "one die once the open tiles add up to 6 or less" in result.stdout


@pytest.mark.slow
def test_rules_in_multi_round_play_turn_instant_win_off() -> None:
    result = run(SHUTBOX, "rules", "--rounds", "3")
    assert result.returncode == 0
    assert "3 rounds" in result.stdout
    assert "Shutting the box scores 0 and play goes on." in result.stdout


@pytest.mark.slow
def test_conflicting_rules_exit_2_with_one_sentence() -> None:
    result = run(SHUTBOX, "rules", "--rounds", "3", "--drop-out", "20")
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("shutbox: error: ") and lines[0].endswith(".")
    assert "--rounds" in lines[0] and "--drop-out" in lines[0]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "named"),
    [(["--tiles", "13"], "--tiles"), (["--shut-rule", "all"], "--shut-rule"), (["--bogus"], "--bogus")],
)
def test_bad_options_exit_2_without_a_traceback(args: list[str], named: str) -> None:
    result = run(SHUTBOX, "rules", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert named in result.stderr


@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full, a device whose writes fail")
def test_output_that_cannot_be_written_is_one_sentence_and_exit_1() -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [SHUTBOX, "rules", "--tiles", "12"], stdout=full, stderr=subprocess.PIPE, text=True, env=ENV, timeout=60
        )
    assert result.returncode == 1
    assert result.stderr == "shutbox: error: cannot write the output: No space left on device.\n"


@pytest.mark.slow
def test_a_reader_that_closes_the_pipe_gets_no_traceback() -> None:
    shutbox = subprocess.Popen([SHUTBOX, "strategies"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    assert shutbox.stdout is not None and shutbox.stderr is not None
    shutbox.stdout.close()  # like `| head -0`: the reader is gone before anything is written
    assert shutbox.wait(timeout=60) == 141  # as SIGPIPE ends `seq` or `cat` in a pipe: not a failed run
    assert shutbox.stderr.read() == b""


def test_a_bound_is_said_in_our_words_not_a_validation_librarys() -> None:
    result = run(SHUTBOX, "analyze", "random", "--seed", "-1")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "shutbox: error: --seed must be at least 0 (see `shutbox analyze --help`).\n"


@pytest.mark.slow
def test_a_command_ends_through_the_interpreter_under_a_profiler(tmp_path: Path) -> None:
    """A command skips the interpreter's tidying up as it ends, except where a profiler watches:
    cProfile writes its figures then."""
    figures = tmp_path / "figures"
    result = run(sys.executable, "-m", "cProfile", "-o", str(figures), "-m", "shutbox_cli", "rules")
    assert result.returncode == 0 and result.stdout.startswith("Box: tiles 1 to 9"), result.stderr
    assert figures.stat().st_size > 0
