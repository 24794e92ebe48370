"""`explain` on sampled states (`explain_sampled`): where a strategy that reads the context without
a key loses, on the states it met in seeded simulated turns, each cost exact: checked against the
exact core (`exact_regret`) and the exact `explain` for strategies whose play a table also gives
(forced through the sampled path with `sample=True`), a user's in its host included."""

from __future__ import annotations

import contextlib
import dataclasses
import math
from typing import Any

import pytest

from shutbox_cli.game import Rules, distribution, solve_expected_score
from shutbox_cli.game.exact_regret import decisions
from tournaments import ConfigError, Explanation, SampledExplanation, TournamentFailure, explain, seat_strategy
from tournaments.exact.sampled import explain_sampled
from tournaments.exact.sampled_games import SITUATION
from tournaments.parts import seat_strategies

from helpers.paths import DATA, ROOT

READER = f"{DATA.relative_to(ROOT)}/turn_reader.py:FirstRollHigh"
"""Reads the turn (no key): the highest tiles on a turn's first roll, then the lowest."""
SAME_PLAY = f"{DATA.relative_to(ROOT)}/turn_reader.py:FullBoxHigh"
"""The same play, context-free: exact."""


def exact_rows(spec: str, rules: Rules) -> tuple[float, dict[tuple[object, ...], float]]:
    """A tabulable strategy's exact gap to optimal, and the cost of each state where it is not the best."""
    with seat_strategy(spec, rules) as seated:
        table = seated.table
    best = solve_expected_score(rules)
    terminal = [-float(value) for value in best.terminal]
    found = decisions(rules, table.move, table.dice_count, [-value for value in best.values], terminal)
    gap = distribution(rules, table.move, table.dice_count).expected_score - best.value
    return gap, {(row.mask, row.throw, row.played): row.cost for row in found}


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        pytest.param(Rules(tiles=10, one_die="off"), marks=pytest.mark.slow),
        pytest.param(Rules(tiles=12, scoring="count"), marks=pytest.mark.slow),
    ],
)
def test_an_exact_strategy_forced_through_the_sampled_path_is_covered_by_its_interval(rules: Rules) -> None:
    gap, costs = exact_rows("greedy-high", rules)
    with seat_strategy("greedy-high", rules) as seated:
        exactly = explain(seated)
        found = explain(seated, sample=True, games=4000, seed=17)
    assert isinstance(exactly, Explanation) and isinstance(found, SampledExplanation)
    assert exactly.gap == pytest.approx(gap, abs=1e-9)
    low, high = found.gap_interval
    assert low <= gap <= high
    assert found.value_interval[0] <= exactly.value <= found.value_interval[1]
    assert found.method == "sampled" and found.games == 4000 and found.seed == 17 and not found.seed_drawn
    assert found.best == pytest.approx(solve_expected_score(rules).value, abs=1e-12)
    assert found.rows, "greedy-high loses somewhere"
    for row in found.rows:  # each state met where it is not the best, at the core's exact cost
        assert row.cost == pytest.approx(costs[(row.mask, row.throw, row.played)], abs=1e-9)
        assert row.best != row.played and row.met > 0
    assert found.total == pytest.approx(found.gap, abs=1e-9)
    assert [row.loss for row in found.rows] == sorted((row.loss for row in found.rows), reverse=True)
    assert {(row.mask, row.throw, row.played) for row in found.rows} <= set(costs)
    assert math.fsum(row.met for row in found.rows) <= found.decisions


@pytest.mark.slow  # a host loads the user's file
def test_a_users_context_reader_is_explained_in_its_host_on_sampled_states() -> None:
    rules = Rules()
    gap, costs = exact_rows(SAME_PLAY, rules)
    with seat_strategy(READER, rules) as seated:
        assert not seated.exact and seated.key is None
        found = explain(seated, games=3000, seed=5)  # neither exact nor keyed: sampled
    assert isinstance(found, SampledExplanation)
    low, high = found.gap_interval
    assert low <= gap <= high
    assert found.strategy == "first-roll-high"
    for row in found.rows:
        assert row.cost == pytest.approx(costs[(row.mask, row.throw, row.played)], abs=1e-9)
    report = found.to_report()
    assert report["kind"] == "explanation" and report["method"] == "sampled"
    assert (report["games"], report["seed"]) == (3000, 5)
    assert report["gap_ci95"] == [low, high]
    assert report["gap"] == found.gap and report["best"] == found.best and report["value"] == found.value
    for row, shown in zip(found.rows, report["rows"], strict=True):
        assert shown["reach"] == row.met / 3000 and shown["loss"] == row.loss and shown["met"] == row.met
        assert set(shown) >= {"box", "cost", "reach", "loss", "met"}
        assert set(shown) & {"throw", "played_dice"}
    assert "confinement" in report  # a user's strategy ran in a host


def test_a_fixed_seed_gives_the_same_explanation_and_another_seed_another() -> None:
    rules = Rules(tiles=9)
    with seat_strategy("random", rules) as seated:  # stochastic: its draws follow the seed too
        first, again, other = (explain_sampled(seated, 500, seed) for seed in (3, 3, 4))
    assert first.to_report() == again.to_report()
    assert first.gap != other.gap
    shown = repr(first)  # a notebook's one line
    assert shown.startswith("<SampledExplanation of random alone; sampled (500 games, seed 3); expected score ")
    assert len(shown) < 200 and "\n" not in shown


def test_the_loss_of_an_optimal_strategy_is_none() -> None:
    with seat_strategy("optimal", Rules()) as seated:
        found = explain_sampled(seated, 300, 1)
    assert found.rows == () and found.gap == 0 and found.gap_interval == (0.0, 0.0)
    assert found.top_share() == 0.0 and found.decisions > 0


def test_fewer_than_two_turns_is_one_sentence() -> None:
    with seat_strategy("tips", Rules()) as seated, pytest.raises(ConfigError, match="at least 2 games, not 1"):
        explain_sampled(seated, 1, 1)


@pytest.mark.slow  # a host loads the user's file
def test_a_strategy_that_fails_is_named() -> None:
    spec = "tests/hostile/fails_late.py:FailsLate"  # fails on a double six
    with seat_strategy(spec, Rules()) as seated, pytest.raises(TournamentFailure, match="fails-late"):
        explain_sampled(seated, 200, 1)


def exact_and_sampled(
    spec: str, rival: str, rules: Rules, games: int, seat: int | None = None, seed: int = 11
) -> tuple[Any, Any]:
    """A strategy explained against a rival exactly and, forced, on sampled states."""
    with contextlib.ExitStack() as stack:
        given = [(spec, {}, None), (rival, {}, None)]
        seated, other = (stack.enter_context(one) for one in seat_strategies(given, rules))
        return explain(seated, other, seat), explain(seated, other, seat, sample=True, games=games, seed=seed)


@pytest.mark.slow  # each seat's situations worked out exactly, and 3,000 games from each
@pytest.mark.parametrize(("rules", "seat"), [(Rules(tiles=6), None), (Rules(tiles=7, ties="seat"), 2)])
def test_against_a_rival_the_interval_holds_the_exact_chance_of_winning(rules: Rules, seat: int | None) -> None:
    """(A 95% interval misses one seed in twenty: these seeds are fixed, and the mean of a dozen
    others is within its error of the exact chance.)"""
    exactly, found = exact_and_sampled("greedy-high", "optimal", rules, 3000, seat, seed=12)
    assert isinstance(found, SampledExplanation) and found.measure == "win-rate"
    assert found.seats == ((1, 2) if seat is None else (seat,)) and found.opponents == ("optimal",)
    low, high = found.value_interval
    assert low <= exactly.value <= high
    assert found.best >= exactly.best - 1e-12  # the best play knowing the scores posted: at least as good
    assert found.total == pytest.approx(found.gap, abs=1e-12)
    assert all(row.key[0] in found.seats and len(row.key) == 1 + len(found.features) for row in found.rows)


@pytest.mark.slow  # target's situations worked out exactly, twice
def test_a_keyed_strategy_sampled_meets_its_exact_rows_at_their_exact_costs() -> None:
    """target is keyed on the situation a sampled explanation weighs: the same best play, each
    sampled row one of the exact rows, at its cost."""
    exactly, found = exact_and_sampled("target", "tips", Rules(tiles=6), 2000)
    assert found.best == pytest.approx(exactly.best, abs=1e-12)
    assert found.features == exactly.features
    costs = {(row.key, row.mask, row.throw, row.played): row.cost for row in exactly.rows}
    assert found.rows
    for row in found.rows:
        assert row.cost == pytest.approx(costs[row.key, row.mask, row.throw, row.played], abs=1e-12)
    low, high = found.value_interval
    assert low <= exactly.value <= high


@pytest.mark.slow  # a host loads the user's file
def test_a_users_context_reader_against_a_rival_plays_as_its_table_would() -> None:
    """The reader and its context-free twin, on the same dice: the same states, costs and estimate."""
    rules = Rules(tiles=6)
    _, twin = exact_and_sampled(SAME_PLAY, "tips", rules, 1500)
    with seat_strategy(READER, rules) as seated, seat_strategy("tips", rules) as rival:
        found = explain(seated, rival, games=1500, seed=11)
    assert isinstance(found, SampledExplanation)
    assert (found.value, found.best, found.gap_interval) == (twin.value, twin.best, twin.gap_interval)
    assert [dataclasses.replace(row) for row in found.rows] == list(twin.rows)
    report = found.to_report()
    assert report["opponents"] == ["tips"] and report["seats"] == [1, 2] and report["features"] == list(SITUATION)
    assert {"seat", "key"} <= set(report["rows"][0])


def test_a_rival_that_cannot_be_followed_exactly_is_one_sentence() -> None:
    rules = Rules(tiles=5)
    with (
        seat_strategy("random", rules) as seated,
        seat_strategy("random", rules) as rival,
        pytest.raises(ConfigError, match="'random' is not an exact strategy"),
    ):
        explain(seated, rival, games=10, seed=1)
