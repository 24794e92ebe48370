"""`explain` on sampled states (`explain_sampled`): where a strategy that reads the context without
a key loses, on the states it met in seeded simulated turns, each cost exact: checked against the
exact core (`exact_regret`) and the exact `explain` for strategies whose play a table also gives
(forced through the sampled path with `sample=True`), a user's in its host included."""

from __future__ import annotations

import math

import pytest

from shutbox_cli.game import Rules, distribution, solve_expected_score
from shutbox_cli.game.exact_regret import decisions
from tournaments import ConfigError, Explanation, SampledExplanation, TournamentFailure, explain, seat_strategy
from tournaments.exact.sampled import explain_sampled

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


@pytest.mark.parametrize("rules", [Rules(), Rules(tiles=10, one_die="off"), Rules(tiles=12, scoring="count")])
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


def test_a_sampled_explanation_is_of_the_expected_score_alone() -> None:
    rules = Rules()
    with (
        seat_strategy("random", rules) as seated,
        seat_strategy("optimal", rules) as rival,
        pytest.raises(ConfigError, match="sampled states in expected score alone"),
    ):
        explain(seated, rival)
