"""Stakes on the command line: `shutbox solve --shut-pays K` gives each seat's winnings, and
`shutbox fair` the seat advantage of every tie and first-roll rule with its fair payout; both as a
table in 80 columns, as JSON or TOML, and as a report written whole; bad input is one sentence."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

import tournaments
from shutbox_cli.game import Rules
from shutbox_cli.game.stakes import stakes

from helpers.command import shutbox

SMALL = ("--tiles", "4")


def test_solve_with_a_payout_gives_the_winnings_under_perfect_play_and_all_optimal() -> None:
    done = shutbox("solve", *SMALL, "--shut-pays", "2", "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["rules"]["shut_pays"] == 2.0
    won = stakes(Rules(tiles=4, shut_pays=2.0), 2).winnings()
    assert [seat["winnings"] for seat in report["perfect"]["seat"]] == pytest.approx(won.seats, abs=1e-12)
    assert report["perfect"]["last_seat_winnings_advantage"] == pytest.approx(won.advantage, abs=1e-12)
    assert len(report["optimal"]["seat"]) == 2 and "winnings" in report["optimal"]["seat"][0]


def test_solve_without_a_payout_says_nothing_of_winnings() -> None:
    done = shutbox("solve", *SMALL, "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert "shut_pays" not in report["rules"]
    assert "winnings" not in report["perfect"]["seat"][0] and "last_seat_winnings_advantage" not in report["perfect"]
    assert "winnings" not in shutbox("solve", *SMALL).stdout


def test_solve_shows_the_winnings_in_80_columns() -> None:
    shown = shutbox("solve", *SMALL, "--table", "4", "--shut-pays", "3.5").stdout
    assert max(len(line) for line in shown.splitlines()) <= 80
    rows = [line.split() for line in shown.splitlines() if line.startswith("  winnings")]
    assert len(rows) == 2 and all(len(row) == 6 for row in rows)  # four seats and last-first
    assert "2 if the winner shut the box" not in shown and "3.5 if the winner shut the box" in " ".join(shown.split())


def test_fair_as_json_is_every_variant_with_its_fair_payout() -> None:
    done = shutbox("fair", "--tiles", "4", "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["kind"] == "fairness" and report["table"] == 2
    found = tournaments.fair_rules(Rules(tiles=4), 2)
    assert [(v["ties"], v["first_roll"]) for v in report["variant"]] == [
        (v.rules.ties.value, v.rules.first_roll.value) for v in found.variants
    ]
    assert [v.get("fair_shut_pays") for v in report["variant"]] == [v.fair_pays for v in found.variants]
    assert report["fairest"] == {
        "ties": found.fairest.rules.ties.value,
        "first_roll": found.fairest.rules.first_roll.value,
    }


def test_fair_writes_its_report_whole_and_shows_a_table_in_80_columns(tmp_path: Path) -> None:
    report = tmp_path / "fair.toml"
    done = shutbox("fair", "--tiles", "4", "--shut-pays", "2", "--report", str(report))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert lines[2].split() == ["ties", "first", "roll", "last-first", "fair", "payout"]
    assert len([line for line in lines if line.startswith(("share ", "seat "))]) == 6  # no playoff at a payout of 2
    written = tomllib.loads(report.read_text())
    assert written["kind"] == "fairness" and written["rules"]["shut_pays"] == 2.0
    assert len(written["variant"]) == 6


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--table", "5"], "--table must be at most 4"),
        (["--rounds", "3", "--table", "3"], "over several rounds or in drop-out"),
        (["--shut-pays", "2", "--ties", "playoff"], '--shut-pays and --ties cannot be 2 and "playoff" together'),
        (["--shut-pays", "1e9"], "--shut-pays must be a number of stakes from 0 to 1,000"),
    ],
)
@pytest.mark.parametrize("command", ["fair", "solve"])
def test_bad_input_is_one_sentence_and_status_2(command: str, args: list[str], said: str) -> None:
    done = shutbox(command, *SMALL, *args)
    if command == "fair" and "--ties" in args:
        said = "fair tries every tie rule and first-roll rule"  # it refuses --ties before the payout meets it
    assert done.returncode == 2 and done.stdout == ""
    assert said in done.stderr and "Traceback" not in done.stderr


def test_a_search_estimated_past_three_minutes_is_refused_before_it_starts() -> None:
    done = shutbox("fair", "--tiles", "12", "--table", "4")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("shutbox: error: fair rules at 4 seats on 12 tiles scored by sum would take about ")
    assert done.stderr.endswith("or another scoring (--scoring).\n") and done.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["explain", "perfect", "--against", "optimal"], "not the winnings of a game played for a stake"),
        (["explain", "optimal", "--sheet", "--against", "tips"], "not the winnings of a game played for a stake"),
        (["diff", "perfect", "optimal", "--measure", "win"], "not the winnings of a game played for a stake"),
        (["diff", "optimal", "tips"], "not the winnings of a game played for a stake"),
        (["explain", "optimal"], "explain alone weighs single turns; --shut-pays shapes a game"),
        (["explain", "optimal", "--sheet"], "a cheat sheet alone is of a single turn; --shut-pays shapes a game"),
    ],
)
def test_explain_diff_and_the_sheet_refuse_a_stake_they_do_not_measure(args: list[str], said: str) -> None:
    """They weigh the expected score or the chance of winning, not the winnings of a game played for
    a stake: a payout other than 1 is refused in one sentence, not measured as if it were 1."""
    done = shutbox(*args, *SMALL, "--shut-pays", "3")
    assert done.returncode == 2 and done.stdout == "", done.stdout
    assert said in done.stderr and "--shut-pays" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args", [["--ties", "seat"], ["--first-roll", "2-to-go"], ["--ties", "playoff", "--shut-pays", "2"]]
)
def test_fair_refuses_the_rules_it_tries_every_one_of(args: list[str]) -> None:
    """fair varies the tie rule and the first-roll rule: giving one is refused in one sentence, not
    shown in the header and then ignored."""
    done = shutbox("fair", *SMALL, *args)
    assert done.returncode == 2 and done.stdout == "", done.stdout
    assert "fair tries every tie rule and first-roll rule: leave out --ties and --first-roll." in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_solve_for_a_stake_says_perfect_play_is_for_the_winnings_alone() -> None:
    staked = " ".join(shutbox("solve", *SMALL, "--shut-pays", "2").stdout.split())
    assert "perfect play is for the winnings" in staked and "every seat plays to win" not in staked
    assert "Perfect play: every seat plays for its winnings knowing the later seats do too" in staked
    plain = " ".join(shutbox("solve", *SMALL).stdout.split())
    assert "Perfect play: every seat plays to win knowing the later seats do too" in plain


@pytest.mark.parametrize("command", ["solve", "fair"])
def test_the_help_gives_the_tables_default(command: str) -> None:
    shown = " ".join(shutbox(command, "-h", columns=200).stdout.split())
    assert "Seats at the table, 2 to 4 (each plays one turn) [default: 2]." in shown


@pytest.mark.parametrize("command", [("solve",), ("fair",), ("tournament", "--exact", "-s", "tips", "-s", "optimal")])
def test_the_rules_line_says_what_a_shut_box_pays_in_words(command: tuple[str, ...]) -> None:
    done = shutbox(*command, *SMALL, "--shut-pays", "2")
    assert done.returncode == 0, done.stderr
    assert "Rules: tiles = 4, a shut box pays 2 stakes" in done.stdout and "shut_pays" not in done.stdout


STAKE_WARNING = (
    "warning: a shut box pays 2 stakes, but a tournament or a match ranks by wins, not winnings: the stake "
    "changes only how perfect plays (solve and fair weigh the winnings).\n"
)


@pytest.mark.parametrize(
    "command",
    [
        ("tournament", "-s", "optimal", "-s", "tips", "--games", "20", "--seed", "1", "--tiles", "5"),
        ("tournament", "--exact", "-s", "optimal", "-s", "tips", "--tiles", "5"),
        ("match", "tips", "optimal", "--games", "20", "--seed", "1", "--tiles", "5"),
    ],
)
def test_a_tournament_or_match_for_a_stake_warns_that_it_ranks_by_wins(command: tuple[str, ...]) -> None:
    staked = shutbox(*command, "--shut-pays", "2", "-q")
    assert staked.returncode == 0, staked.stderr
    assert staked.stderr == STAKE_WARNING
    plain = shutbox(*command, "-q")
    assert plain.returncode == 0 and "stakes" not in plain.stderr
