"""`-q` means one thing on every command that has it: no progress on stderr, and the results in one
line on stdout (a report written as ever)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from helpers.command import shutbox

FIELD = ["-s", "optimal", "-s", "tips", "-n", "200", "--seed", "4"]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["tournament", *FIELD], "winner: optimal, win rate 5"),
        (["match", "optimal", "tips", "-n", "200", "--seed", "4"], "optimal vs tips: score 5"),
        (["tune", "below", "-p", "threshold=12..14", "-s", "optimal"], "best: threshold=13, win-rate 49.980% (exact)"),
    ],
)
def test_quiet_is_one_line_of_results_and_no_progress(args: list[str], line: str, tmp_path: Path) -> None:
    report = tmp_path / "report.toml"
    done = shutbox(*args, "-q", "-o", str(report), columns=None)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 1 and done.stdout.startswith(line), done.stdout
    assert done.stderr == f"Report written to {report}.\n"
    assert tomllib.loads(report.read_text())["kind"] in ("tournament", "tune")


def test_without_quiet_a_tune_tells_its_trials_and_shows_its_table() -> None:
    done = shutbox("tune", "below", "-p", "threshold=12..14", "-s", "optimal", columns=None)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("trial ") == 3 and done.stdout.count("\n") > 3
