"""`shutbox explain`, through the real command: the gap the rows add up to, on screen and in the
report read back; the same figures as `analyze`; a user's strategy in its host; bad input one
sentence and exit status 2, and no report then."""

from __future__ import annotations

import json
import math
import subprocess
import tomllib
from pathlib import Path

import pytest

from helpers.command import real_shutbox, shutbox
from helpers.paths import ROOT


def explain(*arguments: str, status: int = 0) -> subprocess.CompletedProcess[str]:
    done = shutbox("explain", *arguments)
    assert done.returncode == status, done.stderr
    return done


def report_of(*arguments: str) -> dict[str, object]:
    return json.loads(explain(*arguments, "--format", "json").stdout)


@pytest.mark.slow
def test_greedy_high_loses_rows_that_add_up_to_its_gap_to_optimal() -> None:
    shown = explain("greedy-high", "--top", "3").stdout
    lines = shown.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert lines[:6] == [
        "greedy-high alone: its expected score over a turn, exactly.",
        "Rules for a turn: standard.",
        "Expected score 12.268294; best play (optimal) 11.0092086; gap 1.25909 points.",
        "371 states where its choice is not the best.",
        "The rows add up to the gap: 1.25909 points, weighted costs summed.",
        "The top 10 rows carry 43.8% of the loss.",
    ]
    assert lines[7].split() == ["box", "roll", "plays", "best", "cost", "reach", "weighted"]
    first = ["··3456···", "dice?", "1", "die", "2", "dice"]  # drawn as diff draws it
    assert lines[8].split() == [*first, "3.706", "2.60%", "0.09649"]
    assert lines[-1] == "368 more rows with --top or in the report (--report FILE)."


@pytest.mark.slow
def test_the_report_has_every_row_and_they_add_up_to_analyzes_figures(tmp_path: Path) -> None:
    explain("tips", "--tiles", "10", "--report", str(tmp_path / "tips.toml"))
    report = tomllib.loads((tmp_path / "tips.toml").read_text())
    analysis = json.loads(shutbox("analyze", "tips", "--tiles", "10", "--format", "json").stdout)
    optimal = json.loads(shutbox("analyze", "optimal", "--tiles", "10", "--format", "json").stdout)
    assert (report["kind"], report["measure"], report["rules"]["tiles"]) == ("explanation", "expected-score", 10)
    assert report["value"] == pytest.approx(analysis["mean_score"], abs=1e-12)
    assert report["best"] == pytest.approx(optimal["mean_score"], abs=1e-12)
    assert report["gap"] == pytest.approx(report["value"] - report["best"], abs=1e-12)
    assert math.fsum(row["loss"] for row in report["rows"]) == pytest.approx(report["gap"], abs=1e-9)
    row = report["rows"][0]
    assert set(row) in ({"box", "throw", "played", "best", "cost", "reach", "loss"},
                        {"box", "played_dice", "best_dice", "cost", "reach", "loss"})  # fmt: skip
    assert row["loss"] == pytest.approx(row["cost"] * row["reach"], rel=1e-12)
    shares = sorted((one["loss"] for one in report["rows"]), reverse=True)
    assert report["top_share"] == pytest.approx(math.fsum(shares[:10]) / report["gap"], rel=1e-9)
    assert json.loads(explain("tips", "--tiles", "10", "--format", "json").stdout) == json.loads(json.dumps(report))


def test_a_strategy_that_plays_perfectly_says_so() -> None:
    shown = explain("optimal").stdout
    assert "optimal plays perfectly: no state where its choice is not the best." in shown
    assert report_of("optimal")["rows"] == []


@pytest.mark.slow
def test_against_a_rival_the_value_is_analyzes_exact_win_chance() -> None:
    shown = explain("greedy-high", "--against", "optimal", "--seat", "2", "--top", "2").stdout
    duel = json.loads(
        shutbox("analyze", "greedy-high", "--against", "optimal", "--seat", "2", "--format", "json").stdout
    )
    report = report_of("greedy-high", "--against", "optimal", "--seat", "2")
    assert report["value"] == pytest.approx(duel["seat"][0]["win_rate"], abs=1e-12)
    assert (report["opponents"], report["field"], report["seats"]) == (["optimal"], ["optimal"], [2])
    assert {row["seat"] for row in report["rows"]} == {2}
    assert f"Wins (seat 2) {report['value'] * 100:.2f}%;" in shown
    assert shown.splitlines()[7].split()[:2] == ["seat", "box"]


@pytest.mark.slow
def test_a_field_and_a_keyed_strategy_are_explained_seat_by_seat_and_key_by_key() -> None:
    report = report_of("target", "-s", "greedy-high")
    assert report["features"] == ["to_beat", "to_beat_count", "to_come"]
    assert math.fsum(row["loss"] for row in report["rows"]) == pytest.approx(report["gap"], abs=1e-9)
    first_seat = [row for row in report["rows"] if row["seat"] == 1]
    assert all(row["key"] == {"to_beat_count": 0, "to_come": 1} for row in first_seat)  # no score posted yet
    shown = explain("target", "-s", "greedy-high", "--top", "1").stdout
    assert "key: to_beat, to_beat_count, to_come (a dash: none)." in shown


@pytest.mark.slow
def test_a_users_strategy_is_explained_from_its_host() -> None:
    done = real_shutbox("explain", "examples/cautious.py:Cautious", "--format", "json", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["confinement"] and report["spec"] == "examples/cautious.py:Cautious"
    assert math.fsum(row["loss"] for row in report["rows"]) == pytest.approx(report["gap"], abs=1e-9)


BAD = {  # a strategy neither exact nor keyed is explained on sampled states (test_explain_sampled_command.py)
    ("tips", "--ties", "playoff"): "explain alone weighs single turns; --ties shapes a game: add --against SPEC or "
    "-s SPEC to play one.",
    ("tips", "--against", "optimal", "--ties", "playoff"): "explain computes games of one round whose ties are "
    "shared or settled by seat; over several rounds, in drop-out or with playoffs a turn's worth depends on more "
    "than its box.",
    ("tips", "--seat", "2"): "--seat 2 is not a seat at this table: it applies to a game (--against SPEC or -s SPEC).",
    ("tips", "-s", "optimal", "--seat", "3"): "--seat 3 is not a seat at this table: seats are 1 to 2.",
    ("tips", "--against", "optimal", "-s", "optimal"): "give one rival with --against or a field with -s, not both.",
    ("tips", *("-s", "optimal") * 4): "explain plays tables of up to 4: give at most 3 rivals with -s.",
    ("tips", "--against", "random"): "'random' is not an exact strategy (it is stochastic): its games can be "
    "simulated, not computed exactly.",
    ("tips", "--tiles", "13"): "--tiles must be a whole number from 2 to 12, not 13.",
}


@pytest.mark.parametrize("arguments", BAD)
def test_bad_input_is_one_sentence_exit_status_2_and_no_report(arguments: tuple[str, ...], tmp_path: Path) -> None:
    done = explain(*arguments, "--report", str(tmp_path / "report.toml"), status=2)
    assert (done.stdout, done.stderr) == ("", f"shutbox: error: {BAD[arguments]}\n")
    assert not (tmp_path / "report.toml").exists()


@pytest.mark.slow
def test_work_estimated_past_the_limit_is_refused_before_it_starts(tmp_path: Path) -> None:
    arguments = ("target", "-s", "optimal", "-s", "tips", "-s", "greedy-high", "--tiles", "12")
    done = explain(*arguments, "--report", str(tmp_path / "report.toml"), status=2)
    assert done.stderr == (
        "shutbox: error: explaining this strategy exactly would take about 4 minutes, past the limits of about 3 "
        "minutes and 1,000,000 totals: ask about one seat (--seat) or fewer rivals.\n"
    )
    assert not (tmp_path / "report.toml").exists()
    one_seat = report_of(*arguments[:3], "--tiles", "12", "--seat", "1")
    assert one_seat["seats"] == [1]


def test_its_report_is_no_tournament_file(tmp_path: Path) -> None:
    explain("optimal", "--report", str(tmp_path / "explained.toml"))
    done = shutbox("tournament", str(tmp_path / "explained.toml"))
    assert (done.returncode, done.stdout) == (2, "")
    assert (
        done.stderr
        == f"shutbox: error: {tmp_path / 'explained.toml'} is an explanation report, not a tournament file.\n"
    )


def test_top_0_shows_every_row_as_diff_does() -> None:
    every = explain("greedy-high", "--tiles", "5", "--top", "0").stdout
    rows = len(report_of("greedy-high", "--tiles", "5")["rows"])  # type: ignore[arg-type]
    assert rows > 10 and "more row" not in every
    assert every.count("\n") >= rows


def test_top_with_the_sheet_is_refused_in_one_sentence() -> None:
    done = explain("optimal", "--sheet", "--top", "3", status=2)
    assert done.stderr == "shutbox: error: --top counts an explanation's rows; a sheet lists --exceptions N.\n"


ONE_STATE = """
from shutbox_cli.game import solve_expected_score, tiles_of
from strategies import Strategy


class OffByOne(Strategy):
    name = "off-by-one"

    def choose_move(self, view):
        if view.open_mask == view.rules.full_box and sorted(view.dice) == [5, 6]:
            return (4, 7)
        return tiles_of(solve_expected_score(view.rules).best_move(view.open_mask, view.dice))

    def choose_dice(self, view):
        return solve_expected_score(view.rules).best_dice(view.open_mask)
"""


@pytest.mark.slow
def test_one_row_is_said_in_the_singular(tmp_path: Path) -> None:
    (tmp_path / "off.py").write_text(ONE_STATE)
    done = real_shutbox("explain", f"{tmp_path / 'off.py'}:OffByOne", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "The top row carries 100.0% of the loss." in done.stdout
