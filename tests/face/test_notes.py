"""Results on stdout, notes for people on stderr: the report file written, a seed drawn that no
table shows; and `compare` refuses a report of a newer schema, as `tournament` does."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from helpers.command import shutbox

FIELD = ["-s", "optimal", "-s", "tips", "-n", "20", "-j", "1"]


def run(*args: str) -> tuple[int, str, str]:
    """The command in this process, without a terminal: status, stdout, stderr."""
    done = shutbox(*args, columns=None)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.slow
def test_the_report_written_is_a_note_on_stderr_after_a_table_or_a_quiet_line(tmp_path: Path) -> None:
    report = tmp_path / "r.toml"
    status, out, err = run("tournament", *FIELD, "--seed", "1", "-o", str(report))
    assert status == 0 and out.startswith("Tournament: 2 strategies") and "written" not in out
    assert err.endswith(f"Report written to {report}.\n")
    status, out, err = run("tournament", *FIELD, "--seed", "1", "-q", "-o", str(report))
    assert status == 0 and out == "winner: tips, win rate 52.5% (95% CI 32.0–72.1%); 20 games; seed 1\n"
    assert err.endswith(f"Report written to {report}.\n")


@pytest.mark.slow
def test_analyze_says_where_it_wrote_its_report(tmp_path: Path) -> None:
    for extra in ([], ["--against", "tips"]):
        report = tmp_path / "a.toml"
        status, out, err = run("analyze", "greedy-high", *extra, "-o", str(report))
        assert status == 0 and report.is_file() and "written" not in out
        assert err == f"Report written to {report}.\n"


def test_a_drawn_seed_is_said_on_stderr_when_no_table_shows_it() -> None:
    status, out, err = run("tournament", *FIELD, "--format", "json")
    seed = json.loads(out)["config"]["seed"]
    assert status == 0 and err == f"Seed {seed} was drawn; repeat with --seed {seed}.\n"
    status, out, err = run("analyze", "random", "--turns", "50", "--format", "toml")
    seed = tomllib.loads(out)["seed"]
    assert status == 0 and err == f"Seed {seed} was drawn; repeat with --seed {seed}.\n"
    status, out, err = run("analyze", "random", "--turns", "50", "--seed", "3", "--format", "json")
    assert status == 0 and err == ""


def test_a_table_that_shows_the_drawn_seed_needs_no_note() -> None:
    status, out, err = run("tournament", *FIELD)
    assert status == 0 and re.search(r"seed (\d+) \(drawn; repeat with --seed \1\)", out) and "Seed" not in err


REPORT = """schema = {schema}
kind = "tournament"
shutbox_version = "1.0.0"

[[ranking]]
name = "optimal"
games = 100
win_rate = 0.5
"""


def test_compare_refuses_a_report_of_a_newer_schema_in_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "old.toml").write_text(REPORT.format(schema=1))
    (tmp_path / "new.toml").write_text(REPORT.format(schema=2))
    status, out, err = run("compare", str(tmp_path / "old.toml"), str(tmp_path / "new.toml"))
    assert (status, out) == (2, "")
    assert (
        err
        == f"shutbox: error: '{tmp_path / 'new.toml'}' has report schema 2; this shutbox reads schema 1 and earlier.\n"
    )
    status, out, err = run("compare", str(tmp_path / "old.toml"), str(tmp_path / "old.toml"))
    assert status == 0 and out.startswith("optimal win_rate 0.5 -> 0.5")
