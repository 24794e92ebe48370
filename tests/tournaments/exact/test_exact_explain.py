"""`explain`: where a strategy loses, exactly. Its value and the best agree with what analyze, the
exact duel and the exact walk say; its rows add up to the gap (the performance-difference identity)
alone, against one strategy and against a field, for exact and keyed strategies, built-in and a
user's in its host; and what it cannot follow is refused in one sentence."""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

import tournaments
from shutbox_cli.game import Rules, TurnOdds, distribution, game_odds, mask_of, solve_expected_score
from strategies.player import StrategyPlayer
from strategies.runner import load_strategy
from tournaments import ConfigError, Explanation, SeatedStrategy, explain
from tournaments.parts import seat_strategies

from helpers.paths import ROOT


@contextlib.contextmanager
def seated(specs: Sequence[str], rules: Rules | None = None) -> Iterator[list[SeatedStrategy]]:
    given = [(spec, {}, None) for spec in specs]
    with contextlib.ExitStack() as stack:
        yield [stack.enter_context(one) for one in seat_strategies(given, rules or Rules())]


def explained(spec: str, *rivals: str, rules: Rules | None = None, seat: int | None = None) -> Explanation:
    with seated([spec, *rivals], rules) as found:
        return explain(found[0], found[1:] or None, seat)


def turn_odds(spec: str, rules: Rules) -> TurnOdds[float]:
    player = StrategyPlayer(load_strategy(spec).make(), rules)
    return TurnOdds.of(distribution(rules, player.move_policy, player.dice_policy))


def adds_up(found: Explanation) -> None:
    """The identity: the rows' losses add up to the gap, each row a real loss."""
    assert math.isclose(found.total, found.gap, rel_tol=0, abs_tol=1e-9)
    assert all(row.cost > 0 and row.reach > 0 for row in found.rows)
    assert [row.loss for row in found.rows] == sorted((row.loss for row in found.rows), reverse=True)


@pytest.mark.slow
@pytest.mark.parametrize("tiles", [9, 12])
def test_greedy_high_alone_loses_its_gap_to_optimal_row_by_row(tiles: int) -> None:
    rules = Rules(tiles=tiles)
    found = explained("greedy-high", rules=rules)
    adds_up(found)
    assert found.measure == "expected-score" and found.rows
    assert found.value == pytest.approx(turn_odds("greedy-high", rules).expected_score, abs=1e-12)
    assert found.best == pytest.approx(solve_expected_score(rules).value, abs=1e-12)
    assert 0 < found.top_share() < 1


def test_optimal_and_target_alone_play_perfectly() -> None:
    for spec in ("optimal", "target"):
        found = explained(spec)
        assert (found.rows, found.gap) == ((), 0.0)
        assert found.top_share() == 0.0


@pytest.mark.slow
def test_against_one_strategy_the_value_is_the_exact_duels_win_chance() -> None:
    with seated(["greedy-high", "optimal"]) as (a, b):
        both = explain(a, b)
        second = explain(a, [b], seat=2)
        duel = tournaments.duel_exactly(a, b)
    adds_up(both)
    adds_up(second)
    assert both.measure == "win-rate" and both.seats == (1, 2) and second.seats == (2,)
    assert both.value == pytest.approx(duel.seats[-1].wins, abs=1e-12)
    assert second.value == pytest.approx(duel.seats[1].wins, abs=1e-12)
    assert {row.key[0] for row in both.rows} == {1, 2} and {row.key[0] for row in second.rows} == {2}


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules",
    [
        Rules(instant_win=False),
        Rules(ties="seat"),
        Rules(tiles=12),
        Rules(scoring="digits"),
        Rules(first_roll="2-to-go", one_die_mode="compulsory"),
        Rules(scoring="count", shut_rule="dice-or-total"),
    ],
    ids=["no instant win", "seat ties", "12 tiles", "digits", "2-to-go compulsory", "count dice-or-total"],
)
def test_under_other_rules_the_value_is_still_the_exact_duels(rules: Rules) -> None:
    with seated(["tips", "greedy-high"], rules) as (tips, greedy):
        found = explain(tips, greedy)
        duel = tournaments.duel_exactly(tips, greedy)
    adds_up(found)
    assert found.value == pytest.approx(duel.seats[-1].wins, abs=1e-12)


@pytest.mark.slow
def test_against_a_field_the_value_is_the_exact_walks_win_chance_averaged_over_seats() -> None:
    rules = Rules()
    found = explained("tips", "optimal", "greedy-high", rules=rules)
    adds_up(found)
    tips, optimal, greedy = (turn_odds(spec, rules) for spec in ("tips", "optimal", "greedy-high"))
    orders = [(tips, optimal, greedy), (optimal, tips, greedy), (optimal, greedy, tips)]
    wins = [float(game_odds(rules, order).seats[order.index(tips)].win) for order in orders]
    assert found.value == pytest.approx(sum(wins) / 3, abs=1e-12)
    assert found.opponents == ("optimal", "greedy-high") and found.seats == (1, 2, 3)


@pytest.mark.slow
def test_a_keyed_strategy_has_a_row_per_key_it_meets_and_adds_up() -> None:
    with seated(["target", "greedy-high", "optimal"], Rules()) as (target, greedy, optimal):
        found = explain(target, greedy)
        exact = tournaments.duel_exactly(target, greedy)
        against_optimal = explain(target, optimal)
    adds_up(found)
    assert found.features == ("to_beat", "to_beat_count", "to_come") and found.rows
    assert all(len(row.key) == 4 for row in found.rows)  # the seat, then the key's values
    assert found.value == pytest.approx(exact.seats[-1].wins, abs=1e-12)
    assert against_optimal.rows == ()  # it plays the best there is against the optimal players it expects


@pytest.mark.slow
def test_a_keyed_strategy_against_a_field_adds_up() -> None:
    found = explained("target", "greedy-high", "tips")
    adds_up(found)
    assert {row.key[0] for row in found.rows} <= {1, 2, 3}


@pytest.mark.slow
def test_a_users_keyed_strategy_runs_in_its_host_and_adds_up() -> None:
    with seated([str(ROOT / "examples" / "chaser.py") + ":Chaser", "optimal"]) as (chaser, optimal):
        found = explain(chaser, optimal)
        exact = tournaments.duel_exactly(chaser, optimal)
    adds_up(found)
    assert found.features == ("to_beat",)
    assert found.value == pytest.approx(exact.seats[-1].wins, abs=1e-12)
    assert {row.key[1] for row in found.rows if row.key[0] == 1} == {None}  # nothing posted before seat 1
    met = {row.key[1] for row in found.rows if row.key[0] == 2}  # seat 2 meets scores to beat
    assert len(met) > 1 and all(isinstance(to_beat, int) for to_beat in met)


ONE_STATE = '''
from shutbox_cli.game import solve_expected_score
from strategies import Strategy


class OffByOne(Strategy):
    """Plays optimal's moves but one: 4 + 7 on a full box's 5 + 6."""

    name = "off-by-one"

    def choose_move(self, view):
        if view.open_mask == view.rules.full_box and sorted(view.dice) == [5, 6]:
            return (4, 7)
        best = solve_expected_score(view.rules)
        move = best.best_move(view.open_mask, view.dice)
        return tuple(tile for tile in range(1, view.rules.tiles + 1) if move >> (tile - 1) & 1)

    def choose_dice(self, view):
        return solve_expected_score(view.rules).best_dice(view.open_mask)
'''


@pytest.mark.slow
def test_a_users_one_state_change_is_exactly_that_row_with_its_exact_cost(tmp_path: Path) -> None:
    (tmp_path / "off.py").write_text(ONE_STATE)
    rules = Rules()
    found = explained(str(tmp_path / "off.py") + ":OffByOne", rules=rules)
    best = solve_expected_score(rules)
    full = rules.full_box
    assert len(found.rows) == 1
    row = found.rows[0]
    assert (row.mask, row.throw, row.played, row.best) == (full, (5, 6), mask_of((4, 7)), mask_of((2, 9)))
    cost = best.values[full & ~mask_of((4, 7))] - best.values[full & ~mask_of((2, 9))]
    assert row.cost == pytest.approx(cost, abs=1e-12)
    assert row.reach == pytest.approx(2 / 36, abs=1e-15)
    assert found.gap == pytest.approx(row.loss, abs=1e-12)


def test_what_it_cannot_follow_is_refused_in_one_sentence() -> None:
    refusals = {  # a strategy neither exact nor keyed is explained on sampled states (test_explain_sampled.py)
        ("tips", "random"): "'random' is not an exact strategy (it is stochastic)",
        ("tips", "optimal", "tips", "tips", "tips"): "explain plays tables of up to 4",
    }
    for specs, said in refusals.items():
        with pytest.raises(ConfigError, match=said.replace("(", r"\(").replace(")", r"\)")):
            explained(*specs)
    for rules in (Rules(ties="playoff"), Rules(rounds=3), Rules(drop_out=40)):
        with pytest.raises(ConfigError, match="explain computes games of one round"):
            explained("tips", "optimal", rules=rules)
    with pytest.raises(ConfigError, match=r"^seat 3 is not at this table: its seats are 1 to 2\.$"):
        explained("tips", "optimal", seat=3)
    with pytest.raises(ConfigError, match=r"^seat 1 is not at this table: alone there is none\.$"):
        explained("tips", seat=1)


@pytest.mark.slow
def test_its_repr_is_one_line_and_its_report_has_every_row(tmp_path: Path) -> None:
    found = explained("greedy-high", "optimal", seat=1)
    assert repr(found) == (
        f"<Explanation of greedy-high against optimal; wins {found.value:.2%}, best {found.best:.2%}; "
        f"gap {found.gap:.6g}; {len(found.rows):,} rows>"
    )
    tournaments.write_report(tmp_path / "explained.json", found)
    report = json.loads((tmp_path / "explained.json").read_text())
    assert (report["kind"], report["measure"], report["seats"], report["field"]) == (
        "explanation",
        "win-rate",
        [1],
        ["optimal"],
    )
    assert len(report["rows"]) == len(found.rows)
    assert math.fsum(row["loss"] for row in report["rows"]) == pytest.approx(report["gap"], abs=1e-9)
    first = report["rows"][0]
    assert first["seat"] == 1 and first["box"] == [3, 4, 5, 6] and (first["played_dice"], first["best_dice"]) == (1, 2)
