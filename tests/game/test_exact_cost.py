"""The cost of exact games, estimated before they are computed (`shutbox_cli.game.exact_cost`),
against the steps their walks take, as the walk counts them (`exact_walk.steps_taken`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from shutbox_cli.game import Rules, Scoring, TurnOdds, exact_cost, score
from shutbox_cli.game.exact_cost import ASK_STEPS, games_cost, pairs_cost
from shutbox_cli.game.exact_seats import KeyedTurns
from shutbox_cli.game.exact_walk import path, steps_taken


def odds_of(rules: Rules, weight: Any) -> TurnOdds[float]:
    """A turn distribution over every score a box can end with, each mask weighted by `weight(mask)`."""
    chances: dict[int, float] = {}
    for mask in range(rules.full_box + 1):
        points = score(rules, mask)
        chances[points] = chances.get(points, 0.0) + weight(mask)
    total = sum(chances.values())
    return TurnOdds({points: chance / total for points, chance in chances.items()}, weight(0) / total)


CASES = {
    "rounds": Rules(rounds=12),
    "instant win": Rules(rounds=20, instant_win=True),
    "drop-out": Rules(drop_out=60),
    "count drop-out": Rules(drop_out=40, scoring=Scoring.COUNT),
    "digits": Rules(rounds=2, scoring=Scoring.DIGITS, tiles=6),
    "digits 3 rounds": Rules(rounds=3, scoring=Scoring.DIGITS, tiles=5),
}


@pytest.mark.parametrize("rules", CASES.values(), ids=CASES.keys())
@pytest.mark.parametrize("seats", [2, 3])
def test_the_estimate_is_within_a_factor_of_two_of_the_steps_a_walk_takes(rules: Rules, seats: int) -> None:
    turns = [odds_of(rules, lambda mask, seat=seat: 1 + (mask * (seat + 3)) % 7) for seat in range(seats)]
    estimate = games_cost(rules, turns, [tuple(range(seats))])
    taken = steps_taken(rules, turns)  # the walk's own count: each total held times each score, each settled
    assert taken / 2 <= estimate.steps <= taken * 2


def test_the_digits_scoring_is_estimated_to_multiply_the_walk_and_the_sum_scoring_to_grow_it_a_little() -> None:
    def cost(rules: Rules) -> int:
        return games_cost(rules, [odds_of(rules, lambda mask: 1.0)] * 2, [(0, 1)]).steps

    digits = [cost(Rules(rounds=rounds, scoring=Scoring.DIGITS)) for rounds in (2, 3, 4)]
    sums = [cost(Rules(rounds=rounds)) for rounds in (20, 40)]
    assert digits[1] > 10 * digits[0] and digits[2] > 10 * digits[1]
    assert 3 < sums[1] / sums[0] < 5  # quadratic in the rounds


def test_games_that_seat_the_same_strategies_cost_the_same_in_any_order_and_add_up() -> None:
    rules = Rules(drop_out=50)
    turns = [odds_of(rules, lambda mask, seat=seat: 1 + (mask + seat) % 5) for seat in range(3)]
    one = games_cost(rules, turns, [(0, 1, 2)])
    assert games_cost(rules, turns, [(2, 0, 1)]) == one
    assert games_cost(rules, turns, [(0, 1, 2), (1, 2, 0)]).steps == 2 * one.steps


def test_a_duels_margins_add_the_pairs_of_totals() -> None:
    rules = Rules(rounds=10)
    turns = [odds_of(rules, lambda mask: 1.0)] * 2
    plain, duel = games_cost(rules, turns, [(0, 1)]), games_cost(rules, turns, [(0, 1)], margins=True)
    assert duel.steps - plain.steps == plain.totals**2


def test_fractions_are_estimated_as_floats_are() -> None:
    rules = Rules()
    floats = odds_of(rules, lambda mask: 1.0)
    fractions = TurnOdds(
        {points: Fraction(chance).limit_denominator() for points, chance in floats.probabilities.items()},
        Fraction(floats.shut_probability).limit_denominator(),
    )
    assert games_cost(rules, [fractions] * 2, [(0, 1)]) == games_cost(rules, [floats] * 2, [(0, 1)])


@pytest.mark.parametrize("rounds", [2, 3, 5])
def test_a_walk_over_both_totals_over_fixed_rounds_counts_the_states_of_every_round(rounds: int) -> None:
    """`pairs_cost` over fixed rounds: every state of both totals at the start of each round (a
    small box's totals followed exactly) takes each score of both turns."""
    rules = Rules(tiles=4, rounds=rounds)
    turns = [odds_of(rules, lambda mask: 1.0 + mask % 3), odds_of(rules, lambda mask: 1.0)]
    scores = sorted(turns[0].probabilities)
    totals, states = {0}, 0
    for _ in range(rounds):
        states += len(totals) ** 2  # both seats' turns score alike
        totals = {total + points for total in totals for points in scores}
    cost = pairs_cost(rules, turns, [(0, 1)], [False, False])
    walked = states * 2 * len(scores)
    asks = states * ASK_STEPS * (1 + len(scores))
    assert cost.steps == walked + asks


PAIRS_CASES = {
    "3 rounds": Rules(tiles=6, rounds=3),
    "instant win": Rules(tiles=6, rounds=3, instant_win=True),
    "drop-out": Rules(tiles=6, drop_out=20),
    "count drop-out": Rules(tiles=6, drop_out=20, scoring=Scoring.COUNT),
}


@pytest.mark.slow
@pytest.mark.parametrize("rules", PAIRS_CASES.values(), ids=PAIRS_CASES.keys())
def test_the_estimate_of_a_walk_over_both_totals_is_within_a_factor_of_two_of_the_steps_it_takes(
    monkeypatch: pytest.MonkeyPatch, rules: Rules
) -> None:
    """`pairs_cost`'s steps over both totals (its asks left out) against the walk's own count, for
    seats keyed on their total (so the walk follows both totals)."""
    monkeypatch.setattr(exact_cost, "ASK_STEPS", 0)
    turns = [odds_of(rules, lambda mask, seat=seat: 1 + (mask * (seat + 3)) % 7) for seat in range(2)]
    seats = [KeyedTurns(("total",), lambda key, one=one: one) for one in turns]
    assert path(rules, seats) == "pairs"
    estimate = pairs_cost(rules, turns, [(0, 1)], [False, False]).steps
    taken = steps_taken(rules, seats)
    assert taken / 2 <= estimate <= taken * 2
