"""`--on-failure` through the real commands: a run that goes on after a strategy's failure names
each forfeit on stderr and exits 5, its report and its summary naming them too; by default the run
stops at the failure (exit 1, no report); a value that cannot be is one sentence and exit 2."""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import pytest

from helpers.command import shutbox
from helpers.paths import HOSTILE

RAISES = f"raises-rarely={HOSTILE}/forfeits.py:RaisesRarely"
FIELD = ("-s", "greedy-high", "-s", "tips", "-s", RAISES, "-n", "6000", "--seed", "5")


@pytest.mark.slow  # a tournament of a user's strategy, in a process of its own
def test_a_forfeit_is_named_on_stderr_in_the_report_and_its_summary_and_exits_5(tmp_path: Path) -> None:
    report = tmp_path / "run.toml"
    done = shutbox("tournament", *FIELD, "--on-failure", "forfeit", "-o", str(report))
    assert done.returncode == 5, done.stderr
    assert " ".join(done.stdout.split()).startswith(  # the heading, wrapped at 80 columns
        "Tournament: 3 strategies, 2 players per table, duplicate deals; 3 matchups × 6,000 games = 18,000 games "
        "(6,000 forfeited, not played); seed 5. "
    )
    forfeits = [line for line in done.stderr.splitlines() if "forfeits" in line]
    assert len(forfeits) == 3
    assert forfeits[0].startswith(
        "shutbox: strategy 'raises-rarely' forfeits 2,000 games of greedy-high vs raises-rarely (not played): it "
        "failed in work unit 3, in matchup greedy-high vs raises-rarely, game "
    )
    assert "(watch it with `shutbox replay -s greedy-high -s raises-rarely=" in forfeits[0]
    assert forfeits[0].endswith("ZeroDivisionError: a full box against a score of 1.")
    written = tomllib.loads(report.read_text())
    assert written["config"]["on_failure"] == "forfeit"
    assert [entry["unit"] for entry in written["forfeit"]] == [3, 4, 6]
    assert written["totals"] == {"games": 12000, "matchups": 3, "games_per_matchup": 6000, "forfeited": 6000}
    summary = shutbox("summary", str(report))
    assert summary.returncode == 0, summary.stderr
    assert "### Forfeits" in summary.stdout
    assert "| raises-rarely | 2,000 games of tips vs raises-rarely | 4 | in matchup tips vs raises-rarely" in (
        summary.stdout
    )
    assert "--on-failure forfeit" in summary.stdout  # the run repeated as it ran
    watch = re.search(r"\(watch it with `(shutbox replay [^`]+)`\)", forfeits[0])
    assert watch is not None
    assert f"(watch it with `{watch[1]}`)" in written["forfeit"][0]["why"]  # the line stderr wrote
    assert f"(watch it with `{watch[1]}`)" in summary.stdout


@pytest.mark.slow  # a tournament of a user's strategy, in a process of its own
def test_a_disqualification_says_every_game_is_lost_and_its_replay_runs_at_a_shell(tmp_path: Path) -> None:
    report = tmp_path / "run.toml"
    done = shutbox("tournament", *FIELD, "--on-failure", "disqualify", "-o", str(report), "-q")
    assert done.returncode == 5, done.stderr
    (entry,) = tomllib.loads(report.read_text())["forfeit"]
    summary = shutbox("summary", str(report))
    assert (
        "| raises-rarely | disqualified: every game it played left out; 2,000 games of greedy-high vs "
        "raises-rarely not played | 3 | in matchup greedy-high vs raises-rarely, game "
    ) in summary.stdout
    watch = re.search(r"\(watch it with `(shutbox replay [^`]+)`\)", entry["why"])
    assert watch is not None, entry["why"]
    replayed = shutbox(*shlex.split(watch[1])[1:], "--format", "json")
    assert replayed.returncode == 1  # the game the strategy failed in, failing again
    assert "ZeroDivisionError: a full box against a score of 1" in replayed.stderr


@pytest.mark.slow  # a tournament of a user's strategy, in a process of its own
def test_a_strategy_that_forfeits_every_game_is_shown_forfeited_not_ranked(tmp_path: Path) -> None:
    always = f"{HOSTILE}/raises.py:RaisesFirst"
    report = tmp_path / "run.toml"
    done = shutbox(
        "tournament",
        "-s",
        always,
        "-s",
        "tips",
        "-s",
        "random",
        "-n",
        "400",
        "--seed",
        "1",
        "--on-failure",
        "forfeit",
        "-o",
        str(report),
        columns=200,
    )
    assert done.returncode == 5, done.stderr
    lines = done.stdout.split("Head to head")[0].splitlines()  # the ranking
    (row,) = [line for line in lines if line.startswith("3 ")]
    assert row.split()[1:] == [always, "forfeited", *["–"] * 6]  # CI, wins, score, shut, rating, LOS
    (random_row,) = [line for line in lines if line.startswith("2 ")]
    assert random_row.split()[-1] == "–"  # no likelihood of superiority over a strategy that played nothing
    text = " ".join(done.stdout.split())
    assert "each strategy played 400 games but the forfeited one, which played none;" in text
    assert "Within noise" not in text
    summary = shutbox("summary", str(report))
    assert f"| 3 | {always} | forfeited | - | - | - | 0 |" in summary.stdout


@pytest.mark.slow  # a tournament of a user's strategy, in a process of its own
def test_by_default_the_run_stops_at_the_failure_with_exit_1_and_no_report(tmp_path: Path) -> None:
    report = tmp_path / "run.toml"
    done = shutbox("tournament", *FIELD, "-o", str(report), "-q")
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("shutbox: error: in matchup greedy-high vs raises-rarely, game ")
    assert "shutbox: strategy " not in done.stderr  # no forfeit named
    assert not report.exists()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ("tournament", "--on-failure", "skip"),
            "--on-failure must be one of stop, forfeit or disqualify, not 'skip' (see `shutbox tournament --help`).",
        ),
        (
            ("match", "tips", "optimal", "-n", "100", "--on-failure", "disqualify"),
            "--on-failure disqualify does not apply to a match: disqualifying one of its two strategies leaves no "
            "match; --on-failure forfeit forfeits the failing unit's games.",
        ),
        (
            ("tournament", "-s", "tips", "-s", "optimal", "--exact", "--on-failure", "forfeit"),
            "--on-failure forfeit does not apply to an exact tournament: it deals no games, it computes every "
            "seating's chances.",
        ),
    ],
)
def test_an_on_failure_that_cannot_be_is_one_sentence_and_exit_2(args: tuple[str, ...], said: str) -> None:
    done = shutbox(*args)
    assert (done.returncode, done.stderr) == (2, f"shutbox: error: {said}\n")
