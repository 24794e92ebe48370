"""Exact tournaments (`method = "exact"`, `--exact`): a 2-tile box worked by hand, the issue's figures
for optimal against greedy-high, chances that add up to 1, agreement with simulated tournaments
of the bulk engine within their intervals, solo tables, refusals, and reports that do not depend
on the number of workers."""

from __future__ import annotations

import subprocess
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from shutbox_cli.game import Rules, TurnOdds
from tournaments import (
    ConfigError,
    ExactSummary,
    InProcess,
    Options,
    Summary,
    TournamentFailure,
    load_config,
    run,
    seat_strategy,
    write_report,
)
from tournaments.exact.analysis import analyse_exactly
from tournaments.exact.tournament import game
from tournaments.playing.tally import Tally, share_unit
from tournaments.statistics.stats import mean_interval, wilson

from helpers.command import real_shutbox

pytestmark = pytest.mark.slow  # exact tournaments through the library and the command

F = Fraction
Z999 = 3.2905
"""The normal quantile of a two-sided 99.9% interval."""
EXACT_FIELD = ("optimal", "tips", "greedy-high")

TWO_DICE = '''
from strategies import Strategy


class TwoDice(Strategy):
    """Always two dice; the first legal set (on a box of 1 and 2, no roll offers a choice)."""

    def choose_move(self, view):
        return view.legal_moves[0]

    def choose_dice(self, view):
        return 2


class Fails(Strategy):
    def choose_move(self, view):
        raise RuntimeError("no table today")
'''


@pytest.fixture
def two_dice(tmp_path: Path) -> str:
    (tmp_path / "two_dice.py").write_text(TWO_DICE)
    return str(tmp_path / "two_dice.py")


def exact(strategies: tuple[str, ...] = EXACT_FIELD, **given: object) -> ExactSummary:
    summary = run(load_config(None, Options(strategies=strategies, method="exact", **given)))  # type: ignore[arg-type]
    assert isinstance(summary, ExactSummary)
    return summary


def shutbox(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return real_shutbox(*arguments, cwd=cwd, timeout=600)


# --- by hand ---------------------------------------------------------------------------------------


def test_a_two_tile_box_by_hand(two_dice: str) -> None:
    """greedy-high rolls one die on the box {1, 2} (it may from the start), TwoDice two; one round,
    instant win, shared ties. In 1296ths, one die first: it shuts 288, two dice then 28 * 2 = 56;
    neither: one die lower 330, two dice lower 23, tied 599, so one die wins 288 + 330 + 599/2.
    Two dice first: it shuts 72, one die then 34 * 8 = 272; neither: two dice lower 23, one die
    lower 330, tied 599, so two dice win 72 + 23 + 599/2. Over 2592ths: one die 1835 from seat 1,
    2592 - 789 = 1803 from seat 2."""
    summary = exact(("greedy-high", f"two-dice={two_dice}:TwoDice"), rules={"tiles": 2})
    assert summary.arithmetic == "fraction"
    (first, second) = summary.seatings[0]
    assert first.players == (0, 1) and second.players == (1, 0)
    assert first.odds.wins == (F(1835, 2592), F(757, 2592))
    assert second.odds.wins == (F(789, 2592), F(1803, 2592))
    best, last = summary.ranking
    assert (best.name, best.games, last.name) == ("greedy-high", 2, "two-dice")
    assert best.win_rate == pytest.approx(float(F(1835 + 1803, 5184)), abs=1e-15)
    assert best.wins == pytest.approx(float(F(1835 + 1803, 2592)), abs=1e-15)
    assert best.mean_score == pytest.approx(69 / 36) and last.mean_score == pytest.approx(100 / 36)
    assert best.shut_rate == pytest.approx(8 / 36) and last.shut_rate == pytest.approx(2 / 36)
    assert best.turns == pytest.approx(1 + 34 / 36)  # it always plays first, and second unless two dice shut
    pair = summary.head_to_head[0]
    assert (pair.strategy, pair.opponent, pair.games) == ("greedy-high", "two-dice", 2)
    assert pair.by_seat == pytest.approx((1835 / 2592, 1803 / 2592), abs=1e-15)
    seats = {(seat.name, seat.seat): seat.win_rate for seat in summary.seats}
    assert seats == pytest.approx(
        {
            ("greedy-high", 1): 1835 / 2592,
            ("greedy-high", 2): 1803 / 2592,
            ("two-dice", 1): 789 / 2592,
            ("two-dice", 2): 757 / 2592,
        }
    )


@pytest.mark.parametrize(
    ("ties", "first", "second"),
    [("share", 0.55632, 0.55094), ("seat", 0.57407, 0.53319), ("playoff", 0.55839, 0.55282)],
)
def test_optimal_against_greedy_high_from_each_seat(ties: str, first: float, second: float) -> None:
    """The issue's figures, computed independently: the standard rules with instant win."""
    summary = exact(("optimal", "greedy-high"), rules={"ties": ties})
    assert summary.arithmetic == "fraction"
    pair = next(pair for pair in summary.head_to_head if pair.strategy == "optimal")
    assert [round(rate, 5) for rate in pair.by_seat] == [first, second]
    seats = [seat for seat in summary.seats if seat.name == "optimal"]
    assert [round(seat.win_rate, 5) for seat in seats] == [first, second]
    assert summary.ranking[0].win_rate == pytest.approx((pair.by_seat[0] + pair.by_seat[1]) / 2, abs=1e-15)


@pytest.mark.parametrize(
    ("rules", "table", "arithmetic"),
    [
        ({}, 2, "fraction"),
        ({"ties": "playoff"}, 4, "fraction"),
        ({"rounds": 3, "ties": "seat"}, 3, "float"),
        ({"drop_out": 60}, 3, "float"),
        ({"drop_out": 40, "instant_win": True, "ties": "playoff"}, 2, "float"),
    ],
)
def test_the_chances_of_every_game_add_up_to_1(rules: dict[str, object], table: int, arithmetic: str) -> None:
    field = ("optimal", "max-shut", "fewest-tiles", "tips", "greedy-high")[: table + 1]
    summary = exact(field, rules=rules, table=table)
    assert summary.arithmetic == arithmetic
    assert summary.games == len(summary.seatings) * table == table * (table + 1)
    for matchup in summary.seatings:
        for seating in matchup:
            assert abs(sum(seating.odds.wins) + seating.odds.unresolved - 1) <= 1e-12
            if arithmetic == "fraction":
                assert sum(seating.odds.wins) == 1
    for standing in summary.ranking:
        assert standing.win_interval == (standing.win_rate, standing.win_rate)


# --- against simulation ------------------------------------------------------------------------------


def intervals(summary: Summary, index: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """Strategy `index`'s 99.9% intervals of its win rate and mean score, from the tallies as
    `aggregate` computes the 95% ones (every matchup plays the same deals)."""
    total, matchups = Tally(), 0
    for matchup, counted in zip(summary.plan.matchups, summary.tallies, strict=True):
        if index in matchup.players:
            total.add(counted[matchup.players.index(index)])
            matchups += 1
    wins = total.win_shares / share_unit(summary.plan.table)
    win = wilson(wins, total.games, z=Z999, independent=total.games / matchups)
    score = mean_interval(total.score_sum, total.score_squares, total.turns, z=Z999, independent=total.turns / matchups)
    return win, score


@pytest.mark.parametrize(
    ("rules", "table"),
    [({}, 2), ({"drop_out": 60}, 2), ({"rounds": 2, "ties": "seat"}, 3), ({"drop_out": 45, "ties": "playoff"}, 3)],
)
def test_exact_figures_lie_within_a_simulated_tournaments_intervals(rules: dict[str, object], table: int) -> None:
    options = Options(strategies=EXACT_FIELD, games=60_000, seed=11, rules=rules, table=table)
    simulated = run(load_config(None, options), backend=InProcess())
    assert isinstance(simulated, Summary)
    computed = {standing.name: standing for standing in exact(rules=rules, table=table).ranking}
    for standing in simulated.ranking:
        found = computed[standing.name]
        (win_low, win_high), (score_low, score_high) = intervals(simulated, EXACT_FIELD.index(standing.name))
        assert win_low <= found.win_rate <= win_high
        assert score_low <= (found.mean_score or 0) <= score_high
        assert found.shut_rate == pytest.approx(standing.shut_rate, abs=0.005)
        if standing.mean_rounds is not None:
            assert found.mean_rounds == pytest.approx(standing.mean_rounds, rel=0.01)
        if standing.mean_total is not None:
            assert found.mean_total == pytest.approx(standing.mean_total, rel=0.01)
        assert found.turns / found.games == pytest.approx(standing.turns / standing.games, rel=0.01)


# --- solo tables ---------------------------------------------------------------------------------------


def test_a_solo_table_gives_each_strategys_exact_statistics() -> None:
    summary = exact(("tips", "optimal", "max-shut"), rules={"rounds": 3}, table=1)
    assert [standing.name for standing in summary.ranking] == ["optimal", "max-shut", "tips"]
    for standing in summary.ranking:
        single = analyse_exactly(seat_strategy(standing.spec, Rules()))
        assert standing.mean_score == pytest.approx(single.expected_score, abs=1e-12)
        assert standing.shut_rate == pytest.approx(single.shut_probability, abs=1e-12)
        assert standing.mean_total == pytest.approx(3 * single.expected_score, abs=1e-9)
        assert (standing.games, standing.turns, standing.win_rate) == (1, pytest.approx(3), pytest.approx(1))
    assert summary.head_to_head == ()


# --- configuration and refusals ----------------------------------------------------------------------------


def test_a_strategy_that_is_not_exact_is_refused_by_name() -> None:
    with pytest.raises(ConfigError, match=r"^'random' is not an exact strategy \(it is stochastic\)"):
        exact(("optimal", "random"))
    with pytest.raises(
        ConfigError, match=r"^'target' is not an exact strategy \(it reads the game context, which in a game of sev"
    ):
        exact(("target", "optimal", "max-shut"), rules={"rounds": 2}, table=3)


def test_an_exact_strategy_that_fails_is_a_tournament_failure(two_dice: str) -> None:
    with pytest.raises(TournamentFailure, match="no table today"):
        exact(("optimal", f"{two_dice}:Fails"))


def test_the_default_field_of_an_exact_tournament_is_the_default_exact_strategies() -> None:
    config = load_config(None, Options(method="exact"))
    assert config.names == ("greedy-high", "optimal", "max-shut", "tips", "fewest-tiles")
    assert all(entry.exact for entry in config.strategies)


def test_method_in_a_file_and_its_mistakes(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(
        'method = "exact"\ngames = 500\nseed = 3\n[[strategy]]\nspec = "optimal"\n[[strategy]]\nspec = "tips"\n'
    )
    assert load_config(path, Options()).method == "exact"  # the file's games and seed are ignored
    assert load_config(path, Options(method="simulate")).method == "simulate"
    with pytest.raises(ConfigError, match=r"^games does not apply to an exact tournament"):
        load_config(path, Options(games=10))
    path.write_text('method = "exactly"\n')
    with pytest.raises(ConfigError, match=r"key 'method' must be 'simulate' or 'exact', not 'exactly'"):
        load_config(path, Options())


def test_the_command_refuses_games_seed_and_strategies_that_are_not_exact(tmp_path: Path) -> None:
    done = shutbox("tournament", "--exact", "-s", "optimal", "-s", "tips", "--games", "10", "--seed", "4", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == (
        "shutbox: error: --games and --seed do not apply to an exact tournament: it deals no games, "
        "it computes every seating's chances.\n"
    )
    done = shutbox("tournament", "--exact", "-s", "optimal", "-s", "random", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "'random' is not an exact strategy" in done.stderr


# --- reports -------------------------------------------------------------------------------------------------


def test_the_report_is_the_same_at_any_number_of_workers_and_runs_again(tmp_path: Path) -> None:
    common = ("tournament", "--exact", "--table", "3", "--drop-out", "50", "-q")
    for name, workers in (("one.toml", "1"), ("two.toml", "2")):
        done = shutbox(*common, "-j", workers, "--report", name, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("winner: optimal, win rate ")
        assert "seatings computed exactly, in floats" in done.stdout
    one = (tmp_path / "one.toml").read_bytes()
    assert one == (tmp_path / "two.toml").read_bytes()
    again = shutbox("tournament", "one.toml", "--report", "again.toml", "-q", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "again.toml").read_bytes() == one


def test_an_exact_report_has_the_same_keys_without_intervals_or_seed(tmp_path: Path) -> None:
    summary = exact(("optimal", "tips", "greedy-high"), rules={"rounds": 2})
    write_report(tmp_path / "exact.toml", summary)
    report = tomllib.loads((tmp_path / "exact.toml").read_text())
    assert (report["method"], report["arithmetic"]) == ("exact", "float")
    assert "seed" not in report and "seed" not in report["config"] and "games" not in report["config"]
    assert report["config"]["method"] == "exact"
    assert report["totals"] == {"games": 6, "matchups": 3, "games_per_matchup": 2, "unresolved": 0.0}
    first = report["ranking"][0]
    assert set(first) == {
        "rank",
        "name",
        "spec",
        "games",
        "wins",
        "win_rate",
        "turns",
        "mean_score",
        "mean_total",
        "shut_rate",
        "mean_rounds",
        "fingerprint",
    }
    assert first["turns"] == pytest.approx(8.0)  # two rounds in each of 4 seatings: no instant win
    assert first["mean_rounds"] == pytest.approx(2.0)
    assert set(report["head_to_head"][0]) - {"ahead", "tied", "behind", "ahead_rate"} == {
        "strategy",
        "opponent",
        "games",
        "wins",
        "win_rate",
        "win_rate_by_seat",
    }
    assert [(seat["strategy"], seat["seat"]) for seat in report["seat"]][:2] == [("optimal", 1), ("optimal", 2)]
    simulated = run(load_config(None, Options(strategies=EXACT_FIELD, games=20, seed=1)), backend=InProcess())
    write_report(tmp_path / "simulated.toml", simulated)
    assert tomllib.loads((tmp_path / "simulated.toml").read_text())["config"]["method"] == "simulate"


def test_the_terminal_shows_exact_figures_and_a_table_by_seat(tmp_path: Path) -> None:
    done = shutbox("tournament", "--exact", "-s", "optimal", "-s", "greedy-high", "--ties", "seat", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Exact tournament: 2 strategies, 2 players per table; 1 matchup × 2 seatings")
    assert "95% CI" not in done.stdout
    assert any(line.split() == ["1", "optimal", "57.407%", "53.319%"] for line in lines)
    assert max(len(line) for line in lines) <= 80


def test_rules_whose_games_never_end_are_a_config_error() -> None:
    """Two seats that always score 3 tie in every playoff round (the engine refuses such a game)."""
    always_three = TurnOdds({3: F(1)}, F(0))
    with pytest.raises(ConfigError, match=r"^these rules cannot be computed exactly: a playoff among seats \[0, 1\]"):
        game(Rules(ties="playoff"), [always_three, always_three])
