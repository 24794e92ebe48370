"""The performance-difference identity of a turn (`exact_regret`): the rows' reach-weighted costs
add up to the exact difference between a policy and its reference, against the optimum and against
another strategy, in expected score and in a chance of winning, under many rule sets; and a 4-tile
box worked out by hand, row by row."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest

from shutbox_cli.game import Rules, distribution, mask_of, score, solve_expected_score
from shutbox_cli.game.exact_regret import (
    Decision,
    best_values,
    decisions,
    gap,
    policy_values,
    reach,
)
from strategies.base import Strategy
from strategies.builtin import FewestTiles, GreedyHigh, LowestFirst, MostTiles, Tips
from strategies.table import PolicyTable, policy_table

BUILT_INS: dict[str, type[Strategy]] = {
    "greedy-high": GreedyHigh,
    "fewest-tiles": FewestTiles,
    "lowest-first": LowestFirst,
    "most-tiles": MostTiles,
    "tips": Tips,
}
RULE_SETS = {
    "default": Rules(),
    "10 tiles": Rules(tiles=10),
    "one die off": Rules(one_die="off"),
    "one die compulsory": Rules(one_die_mode="compulsory"),
    "dice-or-total": Rules(shut_rule="dice-or-total"),
    "one-tile": Rules(shut_rule="one-tile"),
    "count": Rules(scoring="count"),
    "digits": Rules(scoring="digits"),
    "2-to-go": Rules(first_roll="2-to-go"),
}


def table(name: str, rules: Rules) -> PolicyTable:
    return policy_table(BUILT_INS[name](), rules, name, {})


def minus_score(rules: Rules) -> tuple[float, ...]:
    return tuple(-float(score(rules, mask)) for mask in range(rules.full_box + 1))


def win_against_optimal(rules: Rules) -> tuple[float, ...]:
    """Seat 1's chance of winning a one-round game of two (ties shared) with each final box, against
    a rival who plays for the lowest expected score."""
    best = solve_expected_score(rules)
    rival = distribution(rules, best.best_move, best.best_dice).probabilities
    utility = []
    for mask in range(rules.full_box + 1):
        mine = score(rules, mask)
        utility.append(
            sum(chance * (1.0 if theirs > mine else 0.5 if theirs == mine else 0.0) for theirs, chance in rival.items())
        )
    return tuple(utility)


def scale(terminal: Sequence[float]) -> float:
    return max(1.0, *(abs(value) for value in terminal))


def check_against_optimum(rules: Rules, played: PolicyTable, terminal: tuple[float, ...]) -> list[Decision]:
    best = best_values(rules, terminal)
    found = decisions(rules, played.move, played.dice_count, best, terminal)
    mine = policy_values(rules, played.move, played.dice_count, terminal)[rules.full_box]
    assert mine - best[rules.full_box] == pytest.approx(-gap(found), abs=1e-9 * scale(terminal))
    assert all(row.cost > 0 and row.reach > 0 for row in found)
    return found


@pytest.mark.parametrize("rules_name", ["default", "one die off", "one die compulsory", "count", "2-to-go"])
@pytest.mark.parametrize("name", ["greedy-high", "tips"])
def test_rows_add_up_to_the_gap_to_the_lowest_expected_score(name: str, rules_name: str) -> None:
    rules = RULE_SETS[rules_name]
    found = check_against_optimum(rules, table(name, rules), minus_score(rules))
    expected = solve_expected_score(rules).value
    played = table(name, rules)
    theirs = distribution(rules, played.move, played.dice_count).expected_score
    assert gap(found) == pytest.approx(theirs - expected, abs=1e-9 * scale(minus_score(rules)))


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", sorted(RULE_SETS))
@pytest.mark.parametrize("name", sorted(BUILT_INS))
def test_rows_add_up_under_every_rule_set(name: str, rules_name: str) -> None:
    rules = RULE_SETS[rules_name]
    check_against_optimum(rules, table(name, rules), minus_score(rules))
    check_against_optimum(rules, table(name, rules), win_against_optimal(rules))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["greedy-high", "lowest-first"])
def test_rows_add_up_on_twelve_tiles(name: str) -> None:
    rules = Rules(tiles=12)
    assert check_against_optimum(rules, table(name, rules), minus_score(rules))
    assert check_against_optimum(rules, table(name, rules), win_against_optimal(rules))


@pytest.mark.parametrize(("name", "reference"), [("greedy-high", "tips"), ("fewest-tiles", "lowest-first")])
def test_rows_against_another_strategy_add_up_to_the_difference(name: str, reference: str) -> None:
    for rules, terminal in ((Rules(), minus_score(Rules())), (Rules(), win_against_optimal(Rules()))):
        a, b = table(name, rules), table(reference, rules)
        b_values = policy_values(rules, b.move, b.dice_count, terminal)
        found = decisions(rules, a.move, a.dice_count, b_values, terminal, b.move, b.dice_count)
        a_value = policy_values(rules, a.move, a.dice_count, terminal)[rules.full_box]
        assert a_value - b_values[rules.full_box] == pytest.approx(-gap(found), abs=1e-12)
        for row in found:  # a row only where the two choose differently
            if row.throw is None:
                assert (row.played, row.best) == (a.dice_count(row.mask), b.dice_count(row.mask))
            else:
                assert (row.played, row.best) == (a.move(row.mask, row.throw), b.move(row.mask, row.throw))
            assert row.played != row.best


def test_a_policy_against_itself_has_no_row_in_any_state() -> None:
    rules = Rules()
    a = table("tips", rules)
    values = policy_values(rules, a.move, a.dice_count, minus_score(rules))
    assert decisions(rules, a.move, a.dice_count, values, minus_score(rules), a.move, a.dice_count, every=True) == []


def test_every_lists_unreached_states_with_no_reach() -> None:
    rules = Rules()
    a, b = table("greedy-high", rules), table("lowest-first", rules)
    values = policy_values(rules, b.move, b.dice_count, minus_score(rules))
    reached = decisions(rules, a.move, a.dice_count, values, minus_score(rules), b.move, b.dice_count)
    every = decisions(rules, a.move, a.dice_count, values, minus_score(rules), b.move, b.dice_count, every=True)
    assert set(reached) < set(every)
    assert all(row.reach == 0 for row in set(every) - set(reached))


def test_the_optimum_against_itself_has_no_row() -> None:
    rules = Rules()
    best = solve_expected_score(rules)
    terminal = minus_score(rules)
    assert decisions(rules, best.best_move, best.best_dice, best_values(rules, terminal), terminal) == []


def test_reach_of_a_full_box_is_one_and_of_the_rest_what_flows_into_it() -> None:
    rules = Rules(tiles=4, one_die="off")
    most = table("most-tiles", rules)
    found = reach(rules, most.move, most.dice_count)
    assert found[rules.full_box] == 1.0
    assert found[mask_of((1, 3, 4))] == pytest.approx(1 / 36)  # a 2: shut the 2, the only move


def test_a_weighted_row_is_reached_as_often_as_its_key_is_met() -> None:
    row = Decision(mask=7, throw=(1, 2), played=3, best=4, cost=0.5, reach=0.25)
    weighted = row.weighted(0.5, ("ahead",))
    assert (weighted.reach, weighted.key, weighted.loss) == (0.125, ("ahead",), 0.0625)


# The 4-tile box, two dice always (one die off), scored by the sum of the open tiles. V(box) is the
# lowest expected score from a box before a throw; with two dice a total t has the chance
# (6 - |t - 7|) / 36. Worked out by hand, smallest boxes first:
#   V{1} = 1 (no total is 1).  V{2} = 35/36 * 2 = 35/18.  V{3} = 34/36 * 3 = 17/6.  V{4} = 33/36 * 4 = 11/3.
#   V{1,2} = (1/36 * V{1} + 2/36 * 0 + 33/36 * 3)            = 100/36  = 25/9
#   V{1,3} = (2/36 * V{1} + 3/36 * 0 + 31/36 * 4)            = 126/36  = 7/2
#   V{2,4} = (1/36 * V{4} + 3/36 * V{2} + 5/36 * 0 + 27/36 * 6) = 3087/648 = 343/72
#   V{2,3} = (1/36 * V{3} + 2/36 * V{2} + 4/36 * 0 + 29/36 * 5) = 2731/648
#   V{1,4} = (3/36 * V{1} + 4/36 * 0 + 29/36 * 5)            = 148/36  = 37/9
#   V{3,4} = (2/36 * V{4} + 3/36 * V{3} + 6/36 * 0 + 25/36 * 7) = 1145/216
#   V{1,2,3}: 2 -> {1,3}; 3 -> {3} leaving {1,2} (25/9 < V{3}); 4 -> {1,3} leaving {2}; 5 -> {2,3}
#       leaving {1}; 6 -> shut; 7..12 -> 6: (7/2 + 2*25/9 + 3*35/18 + 4*1 + 21*6) / 36 = 2608/648 = 326/81
#   V{1,2,4}: 2 -> {1,4}; 3 -> {1,2} leaving {4}; 4 -> {4} leaving {1,2}; 5 -> {1,4} leaving {2};
#       6 -> {2,4} leaving {1}; 7 -> shut; 8..12 -> 7:
#       (37/9 + 2*11/3 + 3*25/9 + 4*35/18 + 5*1 + 15*7) / 36 = 2476/648 = 619/162
# most-tiles shuts the most tiles, the higher set on a tie. From the full box its choice is not the
# best on totals 3 to 7, and from {1,3,4} (reached by a 2, 1/36) on a 4. Each row's cost is the
# lowest expected score after the best move less that after most-tiles' move (what the move costs
# in expected score: the utility is minus the score, so the cost is V(after played) - V(after best)).
FULL = mask_of((1, 2, 3, 4))
ONE_THREE_FOUR = mask_of((1, 3, 4))
COST_3 = Fraction(1145, 216) - Fraction(619, 162)  # {1,2} leaves {3,4}; {3} leaves {1,2,4}: 959/648
COST_4 = Fraction(343, 72) - Fraction(326, 81)  # {1,3} leaves {2,4}; {4} leaves {1,2,3}: 479/648
COST_5 = Fraction(2731, 648) - Fraction(37, 9)  # {1,4} leaves {2,3}; {2,3} leaves {1,4}: 67/648
COST_6 = Fraction(11, 3) - Fraction(7, 2)  # {1,2,3} leaves {4}; {2,4} leaves {1,3}: 1/6
COST_7 = Fraction(17, 6) - Fraction(25, 9)  # {1,2,4} leaves {3}; {3,4} leaves {1,2}: 1/18
HAND_ROWS = [  # (box, throw, played, best, cost, reach): a mixed throw has the chance 2/36, a double 1/36
    (FULL, (1, 2), (1, 2), (3,), COST_3, Fraction(2, 36)),
    (FULL, (1, 3), (1, 3), (4,), COST_4, Fraction(2, 36)),
    (FULL, (1, 4), (1, 4), (2, 3), COST_5, Fraction(2, 36)),
    (FULL, (1, 5), (1, 2, 3), (2, 4), COST_6, Fraction(2, 36)),
    (FULL, (1, 6), (1, 2, 4), (3, 4), COST_7, Fraction(2, 36)),
    (FULL, (2, 2), (1, 3), (4,), COST_4, Fraction(1, 36)),
    (FULL, (2, 3), (1, 4), (2, 3), COST_5, Fraction(2, 36)),
    (FULL, (2, 4), (1, 2, 3), (2, 4), COST_6, Fraction(2, 36)),
    (FULL, (2, 5), (1, 2, 4), (3, 4), COST_7, Fraction(2, 36)),
    (FULL, (3, 3), (1, 2, 3), (2, 4), COST_6, Fraction(1, 36)),
    (FULL, (3, 4), (1, 2, 4), (3, 4), COST_7, Fraction(2, 36)),
    (ONE_THREE_FOUR, (1, 3), (1, 3), (4,), COST_6, Fraction(1, 36) * Fraction(2, 36)),  # {4} leaves {1,3}
    (ONE_THREE_FOUR, (2, 2), (1, 3), (4,), COST_6, Fraction(1, 36) * Fraction(1, 36)),
]


def test_a_four_tile_box_worked_out_by_hand() -> None:
    rules = Rules(tiles=4, one_die="off")
    most = table("most-tiles", rules)
    terminal = minus_score(rules)
    found = decisions(rules, most.move, most.dice_count, best_values(rules, terminal), terminal)
    assert [(row.mask, row.throw, row.played, row.best) for row in found] == [
        (box, throw, mask_of(played), mask_of(best)) for box, throw, played, best, _, _ in HAND_ROWS
    ]
    for row, (_, _, _, _, cost, chance) in zip(found, HAND_ROWS, strict=True):
        assert row.cost == pytest.approx(float(cost), abs=1e-12)
        assert row.reach == pytest.approx(float(chance), abs=1e-15)
    by_hand = sum(cost * chance for *_, cost, chance in HAND_ROWS)
    assert by_hand == Fraction(1097, 5832)
    assert gap(found) == pytest.approx(float(by_hand), abs=1e-12)
    played = distribution(rules, most.move, most.dice_count).expected_score
    assert played - solve_expected_score(rules).value == pytest.approx(float(by_hand), abs=1e-12)
