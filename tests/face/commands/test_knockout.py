"""`shutbox tournament --system knockout`: a seeded bracket whose ties are matches of game pairs (or
computed exactly), the same report at any number of workers and from its own report, the bracket
in 80 columns, and a bad option one sentence with exit status 2."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from helpers.command import real_shutbox, shutbox

FIVE = ("-s", "optimal", "-s", "r1=random", "-s", "tips", "-s", "r2=random", "-s", "greedy-high")
"""Five entrants: seeds 1 to 3 get byes; ties with a random one are played, the rest computed."""
EIGHT = (*FIVE, "-s", "r3=random", "-s", "fewest-tiles", "-s", "lowest-first")


def ties(report: dict[str, object]) -> list[dict[str, object]]:
    rounds = report["round"]
    assert isinstance(rounds, list)
    return [tie for one in rounds for tie in one["tie"]]


@pytest.mark.slow
@pytest.mark.parametrize(("field", "byes"), [(FIVE, 3), (EIGHT, 0)])
def test_a_knockout_is_the_same_at_any_workers_and_from_its_report(
    tmp_path: Path, field: tuple[str, ...], byes: int
) -> None:
    run = ("tournament", "--system", "knockout", *field, "-n", "400", "--seed", "11", "-q")
    alone = real_shutbox(*run, "-j", "1", "-o", str(tmp_path / "one.toml"))
    two = real_shutbox(*run, "-j", "2", "-o", str(tmp_path / "two.toml"))
    assert alone.returncode == two.returncode == 0, alone.stderr + two.stderr
    again = shutbox("tournament", str(tmp_path / "one.toml"), "-o", str(tmp_path / "again.toml"), "-q")
    assert again.returncode == 0, again.stderr
    first = (tmp_path / "one.toml").read_bytes()
    assert first == (tmp_path / "two.toml").read_bytes() == (tmp_path / "again.toml").read_bytes()
    report = tomllib.loads(first.decode())
    assert report["kind"] == "knockout" and report["seed"] == 11
    played = ties(report)
    assert len(played) == len(field) // 2 + byes - 1  # every entrant but the winner loses once, a bye is a tie
    assert sum(tie["decided"] == "bye" for tie in played) == byes
    assert {tie["first_seed"] for tie in played if tie["decided"] == "bye"} == set(range(1, byes + 1))
    assert report["round"][-1]["name"] == "final" and report["winner"] == played[-1]["winner"]


@pytest.mark.slow
def test_an_exact_tie_plays_no_games_and_a_simulated_one_is_a_match(tmp_path: Path) -> None:
    done = shutbox(
        "tournament", "--system", "knockout", "-s", "optimal", "-s", "tips", "-s", "random", "-s", "greedy-high",
        "-n", "400", "--seed", "3", "-o", str(tmp_path / "cup.toml"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    exact, played = ties(tomllib.loads((tmp_path / "cup.toml").read_text()))[:2]  # seeds 1 v 4, 2 v 3
    assert (exact["first"], exact["second"], exact["method"]) == ("optimal", "greedy-high", "exact")
    assert "games" not in exact and 0.5 < exact["exact_score"] < 1 and exact["winner"] == "optimal"
    assert (played["first"], played["second"], played["method"]) == ("tips", "random", "simulate")
    assert played["games"] == 400 and sum(played["pentanomial"]) == played["pairs"] == 200
    assert played["elo_ci95"][0] < played["elo"] < played["elo_ci95"][1] and "nelo" in played
    assert played["winner"] == ("tips" if played["score"] > 0.5 else "random")
    said = done.stdout.replace("\n    ", " ")  # each tie's line, unwrapped
    assert "(1) optimal beat (4) greedy-high: optimal scores" in said and "computed exactly" in said
    assert "(2) tips beat (3) random: tips scores" in said and "in 200 pairs, Elo +" in said


def test_a_drawn_tie_sends_the_higher_seed_through(tmp_path: Path) -> None:
    done = shutbox("tournament", "--system", "knockout", "-s", "a=optimal", "-s", "b=optimal", "--seed", "1")
    assert done.returncode == 0, done.stderr
    said = done.stdout.replace("\n    ", " ")
    assert "(1) a and (2) b drew: a scores 50.000% computed exactly; the higher seed goes through." in said
    assert done.stdout.rstrip().endswith("Winner: a.")


@pytest.mark.slow
def test_the_bracket_fits_80_columns_and_a_long_name_is_cut(tmp_path: Path) -> None:
    long = "a-strategy-with-a-name-far-too-long-for-a-column=tips"
    done = shutbox("tournament", "--system", "knockout", *EIGHT[:-2], "-s", long, "-n", "200", "--seed", "2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), done.stdout
    said = done.stdout.replace("\n    ", " ")
    assert any("…" in line for line in lines) and "(8) a-strategy-with-a-name-far-too-long-for-a-column" in said


@pytest.mark.slow
def test_ratings_from_a_report_seed_the_field(tmp_path: Path) -> None:
    field = ("-s", "random", "-s", "greedy-high", "-s", "optimal")
    shutbox("tournament", *field, "-n", "400", "--seed", "2", "-o", str(tmp_path / "rr.toml"), "-q")
    rated = tomllib.loads((tmp_path / "rr.toml").read_text())["ranking"]
    by_rating = [row["name"] for row in sorted(rated, key=lambda row: -row["rating"])]
    done = shutbox(
        "tournament", "--system", "knockout", *field, "--seeding", "ratings", "--ratings", str(tmp_path / "rr.toml"),
        "-n", "400", "--seed", "2", "-o", str(tmp_path / "cup.toml"), "-q",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    cup = tomllib.loads((tmp_path / "cup.toml").read_text())
    assert [entry["name"] for entry in cup["config"]["strategy"]] == by_rating and cup["seeding"] == "ratings"
    missing = shutbox(
        "tournament", "--system", "knockout", *field, "-s", "tips", "--seeding", "ratings", "--ratings",
        str(tmp_path / "rr.toml"),
    )  # fmt: skip
    assert missing.returncode == 2 and "rates no strategy named 'tips'" in missing.stderr


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (("--system", "swiss"), "--system is round-robin or knockout, not 'swiss'."),
        (("--system", "knockout", "--seeding", "best"), "--seeding is order, ratings or exact, not 'best'."),
        (("--seeding", "exact"), "--seeding goes with --system knockout."),
        (("--system", "knockout", "--seeding", "ratings"), "--seeding ratings takes the report"),
        (("--system", "knockout", "--seeding", "exact", "-s", "optimal", "-s", "random"), "and 'random' is not."),
        (("--system", "knockout", "--sprt", "elo0=3 elo1=1"), "--sprt: the SPRT's elo0 must be less than"),
        (("--system", "knockout", "--fail-if", "optimal.rank > 1"), "--fail-if does not go with --system knockout."),
        (("--system", "knockout", "-s", "optimal", "-s", "tips", "--gauntlet", "1"), "leave out --gauntlet."),
        (("--system", "knockout", "-s", "optimal", "-s", "tips", "--exact"), "leave out --exact."),
    ],
)
def test_a_bad_knockout_option_is_one_sentence_and_exit_2(options: tuple[str, ...], said: str) -> None:
    done = shutbox("tournament", *options)
    assert done.returncode == 2, done.stdout
    assert said in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1, done.stderr


@pytest.mark.slow
def test_the_summary_draws_the_bracket(tmp_path: Path) -> None:
    cup = tmp_path / "cup.toml"
    shutbox("tournament", "--system", "knockout", *FIVE, "-n", "200", "--seed", "5", "-o", str(cup), "-q")
    page = shutbox("summary", str(cup))
    assert page.returncode == 0, page.stderr
    assert "## shutbox knockout: " in page.stdout and "### Bracket" in page.stdout
    assert "| quarter-finals | (1) optimal | bye | optimal | a bye |" in page.stdout
    assert f"shutbox tournament {cup}" in page.stdout


@pytest.mark.slow
def test_an_exact_seeding_follows_the_fields_exact_tournament(tmp_path: Path) -> None:
    field = ("-s", "greedy-high", "-s", "tips", "-s", "optimal")
    shutbox("tournament", *field, "--exact", "-o", str(tmp_path / "exact.toml"), "-q")
    ranked = [row["name"] for row in tomllib.loads((tmp_path / "exact.toml").read_text())["ranking"]]
    done = shutbox("tournament", "--system", "knockout", *field, "--seeding", "exact", "-o", str(tmp_path / "cup.toml"))
    assert done.returncode == 0, done.stderr
    cup = tomllib.loads((tmp_path / "cup.toml").read_text())
    assert [entry["name"] for entry in cup["config"]["strategy"]] == ranked and ranked[0] == "optimal"
    assert cup["games"] == 0 and "seeded by their exact tournament" in done.stdout
