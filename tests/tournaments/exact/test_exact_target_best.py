"""`target` plays its exact best policy wherever its chances are known, rivals still to play
included: its win chance equals a best response's, worked out here by a plain pass over the boxes
(every choice of every box, the highest expected worth of the turn's score), never by simulation."""

from __future__ import annotations

import itertools

import pytest

from shutbox_cli.game import THROWS, Rules, TurnContext, dice_options, distribution, exact_walk, move_table, score
from strategies.solved import Target
from strategies.winning import optimal_scores, win_chances
from tournaments import ExactSummary, Options, load_config, run, seat_strategy
from tournaments.exact.turns import seat_turns

from helpers.strategy_helpers import policies


def best_value(rules: Rules, worth: dict[int, float]) -> float:
    """The highest expected worth of the score a turn ends with, over every way to play it."""
    table = move_table(rules)
    value = [worth[0]] * (rules.full_box + 1)
    for mask in range(1, rules.full_box + 1):
        ends = worth[score(rules, mask)]
        value[mask] = max(
            sum(
                (1 / 6 if count == 1 else (1 if throw[0] == throw[1] else 2) / 36)
                * max((value[mask & ~move] for move in table.moves(mask, throw)), default=ends)
                for throw in THROWS
                if len(throw) == count
            )
            for count in dice_options(rules, mask)
        )
    return value[rules.full_box]


def target_value(rules: Rules, shown: TurnContext, worth: dict[int, float]) -> float:
    """target's expected worth of the score it ends its turn with, in this context."""
    ends = distribution(rules, *policies(Target(), rules, shown)).probabilities
    return sum(chance * worth[points] for points, chance in ends.items())


def beaten(lead: int, rival: dict[int, float], points: int) -> float:
    """The chance of winning with `points` when the rival ends `lead` ahead plus a score of `rival`
    (a tie is half a win)."""
    return sum(chance * (1.0 if lead + theirs > points else 0.5 if lead + theirs == points else 0.0)
               for theirs, chance in rival.items())  # fmt: skip


def two_rounds_best(rules: Rules) -> tuple[float, float]:
    """Over two rounds, the win chance from each seat of a player that plays `optimal` in the first
    round and its best in the last, against an optimal rival (instant win off, ties shared)."""
    optimal = dict(optimal_scores(rules))
    scores = range(sum(range(1, rules.tiles + 1)) + 1)
    first = second = 0.0
    for mine, theirs in itertools.product(optimal.items(), repeat=2):
        weight, lead = mine[1] * theirs[1], theirs[0] - mine[0]
        first += weight * best_value(rules, {points: beaten(lead, optimal, points) for points in scores})
        for posted, chance in optimal.items():
            second += (
                weight * chance * best_value(rules, {points: beaten(lead, {posted: 1.0}, points) for points in scores})
            )
    return first, second


def target_duel(rules: Rules, seat: int) -> float:
    """target's exact win chance against `optimal` from `seat` (0 plays first), as exact games work it out."""
    a, b = (seat_turns(seat_strategy(spec, rules), fractions=False, table=2) for spec in ("target", "optimal"))
    return float(exact_walk.duel(rules, a, b, seat).a_wins)


@pytest.mark.slow  # a best response for every lead after the first round
def test_over_two_rounds_it_wins_as_often_as_the_best_response_from_either_seat() -> None:
    rules = Rules(tiles=5, rounds=2)
    first, second = two_rounds_best(rules)
    assert target_duel(rules, 0) == pytest.approx(first, abs=1e-12)
    assert target_duel(rules, 1) == pytest.approx(second, abs=1e-12)


@pytest.mark.slow  # every state of a small drop-out game
def test_in_drop_out_every_turn_is_its_best_for_its_chances() -> None:
    """First to play (its rival to come) and second (its rival posted), at every pair of totals."""
    rules = Rules(tiles=5, drop_out=16)
    limit = 16
    shown = [
        TurnContext(0, 0, 0, False, (None, None), (mine, theirs), (True, True))
        for mine, theirs in itertools.product(range(limit), repeat=2)
    ] + [
        TurnContext(1, 1, 0, False, (posted, None), (theirs, mine), (True, True))
        for mine, theirs, posted in itertools.product(range(limit), range(limit), range(0, 16, 3))
    ]
    for context in shown:
        found = win_chances(rules, context)
        assert found is not None
        worth = found.by_score
        assert target_value(rules, context, worth) == pytest.approx(best_value(rules, worth), abs=1e-12), context


def exact(rules: dict[str, object]) -> ExactSummary:
    summary = run(load_config(None, Options(strategies=("target", "optimal"), method="exact", rules=rules)))  # type: ignore[arg-type]
    assert isinstance(summary, ExactSummary)
    return summary


@pytest.mark.slow  # exact games of 9 tiles
def test_the_figures_of_nine_tiles_reach_the_best_response() -> None:
    """Over two rounds from the first seat, 0.500382 (the fixed menu it chose from had 0.500091);
    in drop-out at 45, 0.501170 on average over both seats (the menu: 0.500833)."""
    rounds = exact({"rounds": 2})
    assert round(float(rounds.seatings[0][0].odds.wins[0]), 6) == 0.500382
    drop_out = next(standing for standing in exact({"drop_out": 45}).ranking if standing.name == "target")
    assert round(drop_out.win_rate, 6) == 0.501170
