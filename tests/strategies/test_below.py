"""`below(threshold=T)`: the surest way to end the turn below T; its two ends are known strategies."""

from __future__ import annotations

import pytest

from shutbox_cli.game import Rules, Solution, move_table, score
from shutbox_cli.game.solver import THROWS_BY_COUNT
from strategies.below import Below
from strategies.loading import StrategyLoadError, load_strategy
from tournaments import analyze, seat_strategy

RULES = Rules()


def test_a_threshold_of_one_shuts_as_often_as_max_shut() -> None:
    below, most = (analyze(seat_strategy(spec, RULES)) for spec in ("below(threshold=1)", "max-shut"))
    assert below.method == "exact"
    assert below.shut_probability == pytest.approx(most.shut_probability, abs=1e-12)


def test_a_threshold_above_every_score_scores_as_low_as_optimal() -> None:
    below, optimal = (analyze(seat_strategy(spec, RULES)) for spec in ("below(threshold=46)", "optimal"))
    assert below.expected_score == pytest.approx(optimal.expected_score, abs=1e-9)


@pytest.mark.parametrize("threshold", [0, -3, 2.5, True, "5"])
def test_a_threshold_not_a_whole_number_of_one_or_more_is_refused(threshold: object) -> None:
    with pytest.raises(StrategyLoadError, match="threshold must be a whole number"):
        load_strategy(f"below(threshold={threshold!r})")


def expected_scores(rules: Rules, solution: Solution) -> list[float]:
    """The expected score of a turn going on from each box under the solution's policy."""
    table, found = move_table(rules), [0.0] * (rules.full_box + 1)
    for mask in range(1, rules.full_box + 1):
        row, chosen = table.row(mask), solution.moves[mask]
        found[mask] = sum(
            chance * (found[mask & ~chosen[index]] if row[index] else score(rules, mask))
            for index, _, chance in THROWS_BY_COUNT[solution.dice[mask]]
        )
    return found


@pytest.mark.parametrize(
    ("rules", "threshold"),
    [
        (Rules(), 6),
        (Rules(), 7),
        (Rules(tiles=7), 3),
        # digit scores: a weight on the score small enough to leave the chance alone fell below the
        # solver's 1e-12, and ties went to the first move whatever its score
        (Rules(scoring="digits"), 1),
        (Rules(scoring="digits", shut_rule="dice-or-total"), 5),
        (Rules(tiles=6, scoring="digits", shut_rule="one-tile"), 20),
    ],
)
def test_of_equally_sure_moves_it_takes_the_lower_expected_score_then_the_first(rules: Rules, threshold: int) -> None:
    policy = Below(threshold)
    solution = policy_of(policy, rules)
    chance, expected = solution.values, expected_scores(rules, solution)
    table, ties = move_table(rules), 0
    for mask in range(1, rules.full_box + 1):
        for index, moves in enumerate(table.row(mask)):
            if len(moves) < 2:
                continue
            after = [mask & ~move for move in moves]
            surest = max(chance[box] for box in after)
            sure = [box for box in after if chance[box] >= surest - 1e-12]
            lowest = min(expected[box] for box in sure)
            best = [box for box in sure if expected[box] <= lowest + 1e-12]
            ties += len(sure) > 1
            assert mask & ~solution.moves[mask][index] == best[0], (mask, moves)
    assert ties  # equally sure moves occur, and the tie-break decides them


def policy_of(policy: Below, rules: Rules) -> Solution:
    from strategies.below import _policy

    return _policy(rules, policy.threshold)
