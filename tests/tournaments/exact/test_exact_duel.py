"""`shutbox analyze A --against B [--seat 1|2]`: the exact chance that A beats B in one game and the
distribution of the margin, through the real command, equal to the engine's `duel`."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

import pytest

from shutbox_cli.game import Rules, duel, game_odds
from tournaments import ConfigError, duel_exactly, seat_strategy
from tournaments.exact.tournament import turn_odds
from tournaments.records.schema import rules_mapping

from helpers.command import real_shutbox

pytestmark = pytest.mark.slow  # each runs analyze through the command


def shutbox(*arguments: str, status: int = 0) -> subprocess.CompletedProcess[str]:
    done = real_shutbox("analyze", *arguments, timeout=600)
    assert done.returncode == status, done.stderr
    return done


@pytest.mark.parametrize(
    ("options", "rules"),
    [
        ([], Rules()),
        (["--ties", "playoff"], Rules(ties="playoff")),
        (["--tiles", "5", "--rounds", "2"], Rules(tiles=5, rounds=2)),
    ],
)
def test_the_report_holds_the_engines_duel_from_each_seat_and_their_average(
    options: list[str], rules: Rules, tmp_path: Path
) -> None:
    path = tmp_path / "duel.toml"
    shutbox("optimal", "--against", "greedy-high", *options, "--report", str(path))
    report = tomllib.loads(path.read_text())
    fractions = rules.rounds == 1
    assert (report["method"], report["arithmetic"]) == ("exact", "fraction" if fractions else "float")
    assert (report["strategy"], report["opponent"]) == ("optimal", "greedy-high")
    assert Rules.from_mapping(rules_mapping(report["rules"])) == rules
    a, b = (turn_odds(seat_strategy(spec, rules), fractions) for spec in ("optimal", "greedy-high"))
    found = [duel(rules, a, b, seat) for seat in (0, 1)]
    for seat, written in zip(found, report["seat"], strict=True):
        assert written["seat"] == seat.seat + 1
        assert written["win_rate"] == float(seat.a_wins)
        assert written["opponent_win_rate"] == float(seat.b_wins)
        assert written["tie_rate"] == float(seat.game.tie)
        assert {int(margin): chance for margin, chance in written["margins"].items()} == {
            margin: float(chance) for margin, chance in (seat.margins or {}).items()
        }
    average = report["average"]
    assert average["win_rate"] == pytest.approx(float(found[0].a_wins + found[1].a_wins) / 2, abs=1e-15)
    assert sum(average["margins"].values()) == pytest.approx(1, abs=1e-12)


def test_the_issues_figures_in_the_terminal() -> None:
    """Optimal against greedy-high under the standard rules (instant win), ties shared or by seat."""
    shared = shutbox("optimal", "--against", "greedy-high").stdout.splitlines()
    assert shared[3].split()[:4] == ["seat", "1", "55.632%", "44.368%"]
    assert shared[4].split()[:4] == ["seat", "2", "55.094%", "44.906%"]
    assert shared[5].split()[:3] == ["both", "(average)", "55.363%"]
    by_seat = shutbox("optimal", "--against", "greedy-high", "--ties", "seat", "--seat", "2").stdout
    assert "53.319%" in by_seat and "57.407%" not in by_seat and "both (average)" not in by_seat
    assert max(len(line) for line in by_seat.splitlines()) <= 80


def test_a_drop_out_game_has_no_margin(tmp_path: Path) -> None:
    path = tmp_path / "duel.toml"
    done = shutbox("tips", "--against", "optimal", "--drop-out", "60", "--seat", "1", "--report", str(path))
    assert "no winning margin" in done.stdout
    report = tomllib.loads(path.read_text())
    assert "margins" not in report["seat"][0] and "average" not in report
    rules = Rules(drop_out=60)
    a, b = (turn_odds(seat_strategy(spec, rules), False) for spec in ("tips", "optimal"))
    assert report["seat"][0]["win_rate"] == float(game_odds(rules, [a, b]).wins[0])


def test_refusals() -> None:
    refused = shutbox("optimal", "--against", "random", status=2).stderr
    assert refused == (
        "shutbox: error: 'random' is not an exact strategy (it is stochastic): "
        "its games can be simulated, not computed exactly.\n"
    )
    assert "--seat applies to a game against another strategy" in shutbox("optimal", "--seat", "1", status=2).stderr
    assert "--drop-out applies to a game: add --against SPEC" in shutbox("optimal", "--drop-out", "50", status=2).stderr
    shutbox("optimal", "--against", "tips", "--seat", "3", status=2)
    with pytest.raises(ConfigError, match="A's seat must be 1 or 2"):
        duel_exactly(seat_strategy("optimal", Rules()), seat_strategy("tips", Rules()), seat=0)


def test_a_library_duel_in_fractions_adds_up() -> None:
    found = duel_exactly(*(seat_strategy(spec, Rules(tiles=6, ties="seat")) for spec in ("max-shut", "tips")))
    assert found.arithmetic == "fraction"
    assert [seat.seat for seat in found.seats] == [1, 2, None]
    for seat in found.seats:
        assert seat.wins + seat.losses == pytest.approx(1, abs=1e-12)
        assert sum((seat.margins or {}).values()) == pytest.approx(1, abs=1e-12)
