"""The exact solver: published optimal values for the standard 9-tile game, agreement with an
independent brute-force solver over rule variants, exact distributions, and a seeded
simulation of the optimal policy within a stated confidence interval of the exact values."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import combinations, pairwise, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutbox_cli.game import (
    THROWS,
    Rules,
    Solution,
    dice_options,
    distribution,
    legal_moves,
    mask_of,
    move_table,
    play_turn,
    score,
    solution_distribution,
    solve_beat,
    solve_expected_score,
    solve_shut,
    tiles_of,
    turn_rolls,
)
from shutbox_cli.game.solver import solve_utility, solve_win

TWO_DICE = Rules(one_die="off")
"""The game most analyses publish: two dice on every roll."""


# --- published values for the standard 9-tile game --------------------------------------------


def test_lowest_expected_score_with_two_dice_always() -> None:
    """11.1575 = 27323400707/2448880128: L. Poltnik, github.com/lpoltn27/Shut_the_Box_markov,
    shut_the_box_fixed_dice.ipynb (minimal expected score, two dice every roll)."""
    assert solve_expected_score(TWO_DICE).value == pytest.approx(27323400707 / 2448880128, rel=1e-12)
    assert round(solve_expected_score(TWO_DICE).value, 4) == 11.1575


def test_highest_chance_to_shut_with_two_dice_always() -> None:
    """0.0714316: Bill Butler, durangobill.com "Shut the Box Analysis" (STBstats.txt), the
    optimal chance to shut the 9-tile box with two dice; also github.com/andy327/shut-the-box
    README, "True probability 7.143" (percent)."""
    assert solve_shut(TWO_DICE).value == pytest.approx(0.0714316, abs=5e-8)
    assert round(100 * solve_shut(TWO_DICE).value, 3) == 7.143


def test_win_chances_from_given_boxes_with_two_dice_always() -> None:
    """github.com/andy327/shut-the-box README, ExactProbabilitySolver.winProbabilities and
    the best first rolls: chance to shut from these open tiles, two dice always."""
    solution = solve_shut(TWO_DICE)
    published = {
        (1, 2, 4): 0.18209876543209874,
        (3, 4): 0.1759259259259259,
        (2, 5): 0.1728395061728395,
        (1, 2, 5): 0.15895061728395063,
        (1, 3, 4): 0.15817901234567902,
        (1, 2, 3, 4): 0.14744084362139914,
    }
    for open_tiles, chance in published.items():
        assert solution.values[mask_of(open_tiles)] == pytest.approx(chance, rel=1e-12)
    # "(9,0.10150185360563307)": the chance after the best answer to a first roll of 9.
    full = TWO_DICE.full_box
    assert max(solution.move_values(full, (4, 5)).values()) == pytest.approx(0.10150185360563307, rel=1e-12)


def test_lowest_expected_score_with_one_die_once_7_8_9_are_shut() -> None:
    """11.0092 = 431363714383/39182082048: github.com/lpoltn27/Shut_the_Box_markov,
    shut_the_box_variable_dice.ipynb, "free choice" of one or two dice once 7, 8 and 9 are
    shut (the default rules; one die can only help, so free choice is the same game)."""
    assert solve_expected_score(Rules()).value == pytest.approx(431363714383 / 39182082048, rel=1e-12)
    assert round(solve_expected_score(Rules()).value, 4) == 11.0092


def test_highest_chance_to_shut_with_one_die_once_the_sum_is_six_or_less() -> None:
    """956177159/9795520512 (9.7614%): github.com/UnaryPlus/shut-the-box-strategy README,
    one die allowed when the open tiles sum to 6 or less; Bill Butler's table gives 9.7614%."""
    value = solve_shut(Rules(one_die="low-sum")).value
    assert value == pytest.approx(956177159 / 9795520512, rel=1e-12)
    assert round(100 * value, 4) == 9.7614


# --- an independent solver ---------------------------------------------------------------------

OUTCOMES = {
    1: [((face,), 1 / 6) for face in range(1, 7)],
    2: [(pair, 1 / 36) for pair in product(range(1, 7), repeat=2)],
}
"""Dice as they come out of the cup, in order, each with its chance."""


@cache
def subsets_by_sum(open_tiles: frozenset[int]) -> dict[int, tuple[tuple[int, ...], ...]]:
    groups: dict[int, list[tuple[int, ...]]] = {}
    for size in range(1, len(open_tiles) + 1):
        for subset in combinations(sorted(open_tiles), size):
            groups.setdefault(sum(subset), []).append(subset)
    return {total: tuple(subsets) for total, subsets in groups.items()}


def legal_sets(rules: Rules, open_tiles: frozenset[int], dice: tuple[int, ...], first: bool) -> list[tuple[int, ...]]:
    """The sets the throw may shut, by the wording of docs/rules.md."""
    total = sum(dice)
    if rules.shut_rule == "one-tile":
        found = [(tile,) for tile in sorted(open_tiles) if tile == total or tile in dice]
    else:
        found = list(subsets_by_sum(open_tiles).get(total, ()))
        if rules.shut_rule == "dice-or-total":
            pair = len(dice) == 2 and dice[0] != dice[1]
            found = [subset for subset in found if len(subset) == 1 or (pair and sorted(subset) == sorted(dice))]
    needed = {"none": None, "2-to-go": 2, "3-to-go": 3}[rules.first_roll.value]
    if first and needed is not None:
        found = [subset for subset in found if needed in subset]
    return found


def dice_counts(rules: Rules, open_tiles: frozenset[int]) -> tuple[int, ...]:
    allowed = {
        "high-tiles": all(tile < 7 for tile in open_tiles),
        "low-sum": sum(open_tiles) <= 6,
        "off": False,
    }[rules.one_die.value]
    if not allowed:
        return (2,)
    return (1,) if rules.one_die_mode == "compulsory" else (1, 2)


def reference_solver(rules: Rules, terminal: Callable[[frozenset[int]], float], minimize: bool):
    """The optimal value of a turn going on from open tiles, by plain recursion."""
    better = min if minimize else max

    @cache
    def value(open_tiles: frozenset[int], first: bool) -> float:
        if not open_tiles:
            return terminal(open_tiles)
        return better(
            sum(
                chance
                * better(
                    (value(open_tiles - set(subset), False) for subset in legal_sets(rules, open_tiles, dice, first)),
                    default=terminal(open_tiles),
                )
                for dice, chance in OUTCOMES[count]
            )
            for count in dice_counts(rules, open_tiles)
        )

    return value


def open_score(rules: Rules, open_tiles: frozenset[int]) -> int:
    ordered = sorted(open_tiles)
    return {"sum": sum(ordered), "count": len(ordered), "digits": int("".join(map(str, ordered)) or 0)}[
        rules.scoring.value
    ]


def check_against_reference(solution: Solution, terminal: Callable[[frozenset[int]], float]) -> None:
    rules = solution.rules
    value = reference_solver(rules, terminal, solution.minimize)
    full = rules.full_box
    assert solution.value == pytest.approx(value(frozenset(tiles_of(full)), True), rel=1e-9, abs=1e-12)
    for mask in range(1, full):
        assert solution.values[mask] == pytest.approx(value(frozenset(tiles_of(mask)), False), rel=1e-9, abs=1e-12)


VARIANTS = [
    Rules(),
    Rules(one_die="off"),
    Rules(one_die="low-sum"),
    Rules(one_die_mode="compulsory"),
    Rules(shut_rule="dice-or-total"),
    Rules(shut_rule="one-tile", one_die="low-sum", one_die_mode="compulsory"),
    Rules(scoring="count"),
    Rules(scoring="digits", shut_rule="dice-or-total"),
    Rules(first_roll="2-to-go"),
    Rules(first_roll="3-to-go", one_die="off"),
    Rules(tiles=6),
]


@pytest.mark.slow
@pytest.mark.parametrize("rules", VARIANTS, ids=lambda rules: repr(rules.to_mapping()))
def test_expected_score_and_shut_agree_with_an_independent_solver(rules: Rules) -> None:
    check_against_reference(solve_expected_score(rules), lambda open_tiles: open_score(rules, open_tiles))
    check_against_reference(solve_shut(rules), lambda open_tiles: float(not open_tiles))


@pytest.mark.slow
@settings(max_examples=25)
@given(
    rules=st.from_type(Rules).filter(lambda rules: rules.tiles <= 7), target=st.integers(0, 40), inclusive=st.booleans()
)
def test_every_objective_agrees_with_an_independent_solver_on_small_boxes(
    rules: Rules, target: int, inclusive: bool
) -> None:
    check_against_reference(solve_expected_score(rules), lambda open_tiles: open_score(rules, open_tiles))
    check_against_reference(solve_shut(rules), lambda open_tiles: float(not open_tiles))
    beats = (lambda points: points <= target) if inclusive else (lambda points: points < target)
    check_against_reference(
        solve_beat(rules, target, inclusive), lambda open_tiles: float(beats(open_score(rules, open_tiles)))
    )


# --- the policy and the values ------------------------------------------------------------------


def lexicographic_shut_solver(rules: Rules):
    """(chance to shut, expected score) of the best turn from open tiles, in exact fractions:
    the highest chance first, then the lowest expected score among equal chances."""
    exact = {count: [(dice, Fraction(1, 6**count)) for dice, _ in outcomes] for count, outcomes in OUTCOMES.items()}

    def key(pair: tuple[Fraction, Fraction]) -> tuple[Fraction, Fraction]:
        return (pair[0], -pair[1])

    @cache
    def value(open_tiles: frozenset[int], first: bool) -> tuple[Fraction, Fraction]:
        if not open_tiles:
            return (Fraction(1), Fraction(0))
        ended = (Fraction(0), Fraction(open_score(rules, open_tiles)))
        options = []
        for count in dice_counts(rules, open_tiles):
            shut, expected = Fraction(0), Fraction(0)
            for dice, chance in exact[count]:
                after = [
                    value(open_tiles - set(subset), False) for subset in legal_sets(rules, open_tiles, dice, first)
                ]
                best = max(after, key=key, default=ended)
                shut, expected = shut + chance * best[0], expected + chance * best[1]
            options.append((shut, expected))
        return max(options, key=key)

    return value


@pytest.mark.slow
@pytest.mark.parametrize("rules", [Rules(), Rules(one_die="off"), Rules(tiles=7, shut_rule="dice-or-total")])
def test_max_shut_breaks_ties_by_the_lower_expected_score(rules: Rules) -> None:
    shut, expected = lexicographic_shut_solver(rules)(frozenset(range(1, rules.tiles + 1)), True)
    found = solution_distribution(solve_shut(rules))
    assert found.shut_probability == pytest.approx(float(shut), rel=1e-12)
    assert found.expected_score == pytest.approx(float(expected), rel=1e-12)


def test_max_shut_on_the_standard_box_scores_below_its_first_in_order_tie_break() -> None:
    """Of the policies with the best chance to shut (9.76%), the lowest expected score is 11.0580
    (taking the first of equal moves in move order gave 11.0612)."""
    found = solution_distribution(solve_shut(Rules()))
    assert round(found.expected_score, 4) == 11.0580
    assert round(100 * found.shut_probability, 4) == 9.7614


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules", [Rules(), Rules(tiles=12), Rules(tiles=10, shut_rule="one-tile")], ids=["9", "12", "10-one-tile"]
)
def test_the_policy_is_legal_and_consistent_with_its_values(rules: Rules) -> None:
    for solution in (solve_expected_score(rules), solve_shut(rules), solve_beat(rules, 10)):
        better = min if solution.minimize else max
        table = move_table(rules)
        for mask in range(1, rules.full_box + 1):
            dice_values = solution.dice_values(mask)
            assert set(dice_values) == set(dice_options(rules, mask))
            assert solution.best_dice(mask) in dice_values
            assert solution.values[mask] == pytest.approx(better(dice_values.values()), abs=1e-12)
            assert solution.values[mask] == pytest.approx(dice_values[solution.best_dice(mask)], abs=1e-12)
            for throw in THROWS:
                moves = table.moves(mask, throw)
                if not moves:
                    assert solution.best_move(mask, throw) == 0
                    continue
                values = solution.move_values(mask, throw)
                assert list(values) == list(moves)
                assert solution.best_move(mask, throw) in moves
                assert values[solution.best_move(mask, throw)] == pytest.approx(better(values.values()), abs=1e-12)


def test_solution_knows_its_objective() -> None:
    assert solve_expected_score(Rules()).minimize and solve_expected_score(Rules()).objective == "expected-score"
    assert not solve_shut(Rules()).minimize and solve_shut(Rules()).objective == "shut"
    assert solve_beat(Rules(), 10).objective == "score-below-10"
    assert solve_beat(Rules(), 10, inclusive=True).objective == "score-at-most-10"


@pytest.mark.slow
def test_solve_beat_bounds_and_inclusive_versus_strict() -> None:
    rules = Rules()
    # Chances are sums of floats: equal to 1 up to rounding.
    assert solve_beat(rules, 46).value == pytest.approx(1.0, abs=1e-12)
    assert solve_beat(rules, 45, inclusive=True).value == pytest.approx(1.0, abs=1e-12)
    # Every first roll shuts something, so 43 is the worst score: a 2 (tile 2), then another 2.
    assert solve_beat(rules, 44).value == pytest.approx(1.0, abs=1e-12)
    assert solve_beat(rules, 43).value == pytest.approx(1 - 1 / 36**2, rel=1e-12)
    assert solve_beat(rules, 0).value == 0.0
    assert solve_beat(rules, 0, inclusive=True).value == pytest.approx(solve_shut(rules).value, rel=1e-12)
    chances = [solve_beat(rules, target).value for target in range(47)]
    assert all(later >= earlier - 1e-12 for earlier, later in pairwise(chances))
    for target in range(46):
        assert solve_beat(rules, target, inclusive=True).value == pytest.approx(chances[target + 1], rel=1e-12)


def test_each_objective_does_at_least_as_well_as_the_lowest_mean_policy_at_it() -> None:
    rules = Rules()
    mean_policy = solution_distribution(solve_expected_score(rules))
    for target in (3, 8, 15):
        beat = solve_beat(rules, target)
        chance_by_mean_policy = sum(p for points, p in mean_policy.probabilities.items() if points < target)
        assert beat.value >= chance_by_mean_policy - 1e-12
    assert solve_shut(rules).value > mean_policy.shut_probability


# --- exact distributions ----------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=30)
@given(rules=st.from_type(Rules), target=st.integers(1, 60))
def test_distributions_of_optimal_policies_have_their_values(rules: Rules, target: int) -> None:
    expected = solve_expected_score(rules)
    spread = solution_distribution(expected)
    assert sum(spread.probabilities.values()) == pytest.approx(1.0, abs=1e-9)
    assert all(chance > 0 for chance in spread.probabilities.values())
    assert set(spread.probabilities) <= {score(rules, mask) for mask in range(rules.full_box + 1)}
    assert spread.expected_score == pytest.approx(expected.value, rel=1e-9)
    assert spread.shut_probability == pytest.approx(spread.probabilities.get(0, 0.0), abs=1e-15)

    shut = solve_shut(rules)
    assert solution_distribution(shut).shut_probability == pytest.approx(shut.value, rel=1e-9, abs=1e-15)
    assert shut.value >= spread.shut_probability - 1e-12

    beat = solve_beat(rules, target)
    beat_spread = solution_distribution(beat)
    chance = sum(p for points, p in beat_spread.probabilities.items() if points < target)
    assert chance == pytest.approx(beat.value, rel=1e-9, abs=1e-15)


@pytest.mark.slow
@settings(max_examples=30)
@given(
    rules=st.from_type(Rules).filter(lambda rules: rules.tiles <= 10),
    seed=st.integers(0, 2**32),
    target=st.integers(1, 30),
)
def test_no_policy_beats_the_optimum(rules: Rules, seed: int, target: int) -> None:
    """A random fixed policy, analysed exactly, never does better than the solver's."""
    rng = random.Random(seed)
    moves: dict[tuple[int, tuple[int, ...]], int] = {}
    dice: dict[int, int] = {}

    def choose_move(open_mask: int, throw: tuple[int, ...]) -> int:
        key = (open_mask, tuple(sorted(throw)))
        if key not in moves:
            moves[key] = rng.choice(legal_moves(rules, open_mask, throw))
        return moves[key]

    def choose_dice(open_mask: int) -> int:
        return dice.setdefault(open_mask, rng.choice(dice_options(rules, open_mask)))

    spread = distribution(rules, choose_move, choose_dice)
    assert sum(spread.probabilities.values()) == pytest.approx(1.0, abs=1e-9)
    assert spread.expected_score >= solve_expected_score(rules).value - 1e-9
    assert spread.shut_probability <= solve_shut(rules).value + 1e-12
    below = sum(p for points, p in spread.probabilities.items() if points < target)
    assert below <= solve_beat(rules, target).value + 1e-12


def test_the_distribution_follows_the_policy() -> None:
    """Always shutting as many tiles as possible is far worse than optimal play."""
    rules = Rules()
    most = distribution(
        rules, lambda mask, throw: max(legal_moves(rules, mask, throw), key=int.bit_count), lambda mask: 2
    )
    assert most.expected_score > solve_expected_score(rules).value + 1


@pytest.mark.slow
def test_the_twelve_tile_box_solves() -> None:
    for rules in (Rules(tiles=12), Rules(tiles=12, one_die="high-tiles"), Rules(tiles=12, shut_rule="dice-or-total")):
        expected = solve_expected_score(rules)
        assert 0 < expected.value < 78
        assert solution_distribution(expected).expected_score == pytest.approx(expected.value, rel=1e-9)
        shut = solve_shut(rules)
        assert 0 < shut.value < 1
        assert solution_distribution(shut).shut_probability == pytest.approx(shut.value, rel=1e-9)
    assert solve_expected_score(Rules(tiles=12)).value > solve_expected_score(Rules(tiles=10)).value


# --- simulation against the exact distribution ------------------------------------------------


Z_999 = 3.2905
"""Two-sided 99.9% normal quantile."""
TURNS = 20_000


@pytest.mark.slow
def test_simulated_optimal_play_agrees_with_the_exact_mean() -> None:
    """20000 seeded turns of the lowest-expected-score policy (default rules): the sample
    mean lies within the 99.9% confidence interval mean +- 3.29 sd/sqrt(n) of the exact
    distribution (sd from its exact variance; the sample is large enough for the normal
    approximation)."""
    rules = Rules()
    solution = solve_expected_score(rules)
    exact = solution_distribution(solution)
    mean = exact.expected_score
    variance = sum(chance * (points - mean) ** 2 for points, chance in exact.probabilities.items())
    scores = [play_turn(rules, turn_rolls(2024, game, 0, 0), solution).score for game in range(TURNS)]
    half_width = Z_999 * math.sqrt(variance / TURNS)
    assert abs(sum(scores) / TURNS - mean) < half_width
    assert abs(sum(scores) / TURNS - 11.0092) < half_width


@pytest.mark.slow
def test_simulated_optimal_play_shuts_the_box_as_often_as_exact() -> None:
    """20000 seeded turns of the highest-chance-to-shut policy, two dice always: the share
    of shut boxes lies within the 99.9% interval p +- 3.29 sqrt(p(1-p)/n) of the exact p."""
    solution = solve_shut(TWO_DICE)
    chance = solution_distribution(solution).shut_probability
    shut = sum(play_turn(TWO_DICE, turn_rolls(7, game, 0, 0), solution).shut_box for game in range(TURNS))
    assert abs(shut / TURNS - chance) < Z_999 * math.sqrt(chance * (1 - chance) / TURNS)


def test_rule_sets_that_differ_only_in_the_game_format_share_one_solution() -> None:
    formats = [Rules(rounds=3), Rules(drop_out=45, ties="playoff"), Rules(instant_win=False, ties="seat")]
    assert all(rules.turn_rules == Rules() for rules in formats)
    assert all(solve_expected_score(rules) is solve_expected_score(Rules()) for rules in formats)
    assert all(solve_shut(rules) is solve_shut(Rules()) for rules in formats)
    assert solve_beat(Rules(rounds=2), 10) is solve_beat(Rules(), 10)
    assert solve_expected_score(Rules(scoring="count")) is not solve_expected_score(Rules())


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(tiles=12, scoring="digits", one_die="low-sum", one_die_mode="compulsory"),
        Rules(tiles=8, shut_rule="one-tile", first_roll="2-to-go"),
    ],
    ids=["9", "12-digits-compulsory", "8-one-tile-2-to-go"],
)
def test_a_policy_to_win_is_worth_the_plain_loops_best_and_walks_to_its_own_distribution(rules: Rules) -> None:
    """`solve_win` (a layer of boxes at a time) against the solver's plain loop, on a utility with
    many equal values: the same best, and its distribution the plain walk's (a score of digits too)."""
    scores = sorted({score(rules, mask) for mask in range(rules.full_box + 1)})
    worth = {points: float(place % 3 == 0) * (1 - place / len(scores)) for place, points in enumerate(scores)}
    utility = tuple(worth[score(rules, mask)] for mask in range(rules.full_box + 1))
    found = solve_win(rules, "win", utility)
    assert found.value == pytest.approx(solve_utility(rules, "win", utility).value, abs=1e-12)
    walked = distribution(rules, found.best_move, found.best_dice)
    kept = solution_distribution(found)
    assert list(kept.probabilities) == list(walked.probabilities)
    assert kept.probabilities == pytest.approx(walked.probabilities, abs=1e-12)
    assert kept.shut_probability == pytest.approx(walked.shut_probability, abs=1e-12)
    assert sum(chance * worth[points] for points, chance in kept.probabilities.items()) == pytest.approx(
        found.value, abs=1e-12
    )
