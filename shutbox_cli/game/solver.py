"""Exact analysis: optimal policies for three objectives or for any utility of the final box,
and the score distribution of any policy that depends only on the open tiles and the dice.

A turn is a small Markov decision process over 2**tiles box masks. Every move shuts at
least one tile, so the box only ever moves to a smaller mask, and one pass over the masks
in increasing order solves it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TypeVar

from .box import dice_options, score
from .moves import ONE_DIE_THROWS, THROW_INDEX, THROWS, TWO_DICE_THROWS, move_table, throw_probability
from .rules import Rules
from .terms import Mask
from .turn import Roll

THROWS_BY_COUNT: dict[int, tuple[tuple[int, tuple[int, ...], float], ...]] = {
    count: tuple((THROW_INDEX[throw], throw, throw_probability(throw)) for throw in throws)
    for count, throws in ((1, ONE_DIE_THROWS), (2, TWO_DICE_THROWS))
}
"""For one die and for two: (index in THROWS, sorted throw, chance) of every throw."""

MovePolicy = Callable[[int, tuple[int, ...]], int]
"""Chooses a move (a mask) for (open mask, dice); called only when there is a choice."""
DicePolicy = Callable[[int], int]
"""Chooses 1 or 2 dice for an open mask; called only when there is a choice."""

_EPSILON = 1e-12


@dataclasses.dataclass(frozen=True)
class Solution:
    """The optimal policy for one objective and what it is worth.

    `values[mask]` is the value of a turn that goes on from that box, before the next
    throw: an expected score when `minimize`, otherwise a probability (`values[0]`, the
    shut box, is final). `terminal[mask]` is the value of a turn that ends with that box.
    """

    rules: Rules
    objective: str
    minimize: bool
    terminal: tuple[float, ...]
    values: tuple[float, ...]
    dice: tuple[int, ...]
    moves: tuple[tuple[int, ...], ...]

    @property
    def value(self) -> float:
        """The value of a whole turn from a full box."""
        return self.values[self.rules.full_box]

    def best_move(self, open_mask: Mask, dice: tuple[int, ...]) -> Mask:
        """The optimal move for a throw (0 if the throw matches nothing)."""
        return self.moves[open_mask][THROW_INDEX[dice]]

    def best_dice(self, open_mask: Mask) -> int:
        """The optimal number of dice to roll next."""
        return self.dice[open_mask]

    def choose_dice(self, open_mask: Mask, history: Sequence[Roll] = ()) -> int:
        """The Chooser protocol: a solution plays its own policy in `play_turn`."""
        return self.dice[open_mask]

    def choose_move(
        self, open_mask: Mask, dice: tuple[int, ...], moves: tuple[Mask, ...], history: Sequence[Roll] = ()
    ) -> Mask:
        """The Chooser protocol: the optimal move for the throw."""
        return self.best_move(open_mask, dice)

    def move_values(self, open_mask: Mask, dice: tuple[int, ...]) -> dict[int, float]:
        """The value of each legal move for a throw, in the table's move order."""
        moves = move_table(self.rules).moves(open_mask, dice)
        return {move: self.values[open_mask & ~move] for move in moves}

    def dice_values(self, open_mask: Mask) -> dict[int, float]:
        """The value of rolling each allowed number of dice next."""
        row = move_table(self.rules).row(open_mask)
        return {
            count: sum(
                chance
                * (self.values[open_mask & ~self.moves[open_mask][index]] if row[index] else self.terminal[open_mask])
                for index, _, chance in THROWS_BY_COUNT[count]
            )
            for count in dice_options(self.rules, open_mask)
        }


def _solve(
    rules: Rules, objective: str, terminal: tuple[float, ...], minimize: bool, tiebreak: tuple[float, ...] | None = None
) -> Solution:
    """One ascending pass over the masks. Choices whose values differ by less than _EPSILON are
    equal; among equal choices `tiebreak` (a terminal score, lower is better) decides, else the
    first in move order."""
    table = move_table(rules)
    size = rules.full_box + 1
    values = [terminal[0]] * size
    seconds = [0.0 if tiebreak is None else tiebreak[0]] * size
    best_dice = [2] * size
    best_moves: list[tuple[int, ...]] = [()] * size
    sign = -1.0 if minimize else 1.0

    def better(value: float, second: float, best: float, best_second: float) -> bool:
        gain = sign * (value - best)
        return gain > _EPSILON or (tiebreak is not None and gain >= -_EPSILON and best_second - second > _EPSILON)

    for mask in range(1, size):
        row = table.row(mask)
        chosen = [0] * len(row)
        after = [terminal[mask]] * len(row)
        after_second = [0.0 if tiebreak is None else tiebreak[mask]] * len(row)
        for index, moves in enumerate(row):
            if moves:
                best_move = moves[0]
                best, best_second = values[mask & ~best_move], seconds[mask & ~best_move]
                for move in moves[1:]:
                    value, second = values[mask & ~move], seconds[mask & ~move]
                    if better(value, second, best, best_second):
                        best_move, best, best_second = move, value, second
                chosen[index], after[index], after_second[index] = best_move, best, best_second
        best_value: float | None = None
        best_second = 0.0
        for count in dice_options(rules, mask):
            throws = THROWS_BY_COUNT[count]
            value = sum(chance * after[index] for index, _, chance in throws)
            second = sum(chance * after_second[index] for index, _, chance in throws)
            if best_value is None or better(value, second, best_value, best_second):
                best_value, best_second, best_dice[mask] = value, second, count
        assert best_value is not None  # every box allows one or two dice
        values[mask], seconds[mask] = best_value, best_second
        best_moves[mask] = tuple(chosen)
    return Solution(rules, objective, minimize, terminal, tuple(values), tuple(best_dice), tuple(best_moves))


@dataclasses.dataclass(frozen=True)
class _Layered(Solution):
    """A policy to win (`solve_win`), with its score distribution walked as it was solved."""

    walked: Distribution = dataclasses.field(compare=False, repr=False, default=None)  # type: ignore[assignment]


def _score_terminal(rules: Rules) -> tuple[float, ...]:
    return tuple(float(score(rules, mask)) for mask in range(rules.full_box + 1))


def solve_expected_score(rules: Rules) -> Solution:
    """The policy with the lowest expected score under the rules' scoring."""
    return _solve_expected_score(rules.turn_rules)


@lru_cache(maxsize=64)
def _solve_expected_score(rules: Rules) -> Solution:
    return _solve(rules, "expected-score", _score_terminal(rules), minimize=True)


def solve_shut(rules: Rules) -> Solution:
    """The policy with the highest chance of shutting the box; among choices of equal chance,
    the one with the lower expected score."""
    return _solve_shut(rules.turn_rules)


@lru_cache(maxsize=64)
def _solve_shut(rules: Rules) -> Solution:
    terminal = (1.0,) + (0.0,) * rules.full_box
    return _solve(rules, "shut", terminal, minimize=False, tiebreak=_score_terminal(rules))


def solve_beat(rules: Rules, target: int, inclusive: bool = False, lower: bool = False) -> Solution:
    """The policy with the highest chance of scoring below `target` (or at most it, if inclusive).
    Among choices of equal chance (within 1e-12) the first in move order, or with `lower` the one
    with the lower expected score, then the first in move order."""
    return _solve_beat(rules.turn_rules, target, inclusive, lower)


@lru_cache(maxsize=256)
def _solve_beat(rules: Rules, target: int, inclusive: bool, lower: bool) -> Solution:
    terminal = tuple(
        1.0 if (score(rules, mask) <= target if inclusive else score(rules, mask) < target) else 0.0
        for mask in range(rules.full_box + 1)
    )
    name = f"score-at-most-{target}" if inclusive else f"score-below-{target}"
    tiebreak = _score_terminal(rules) if lower else None
    return _solve(rules, name + ("-then-lower" if lower else ""), terminal, minimize=False, tiebreak=tiebreak)


def solve_utility(rules: Rules, name: str, utility: tuple[float, ...]) -> Solution:
    """The policy with the highest expected utility, where `utility[mask]` is what ending the turn
    with that box is worth (a chance of winning, say); `name` names the objective."""
    turn_rules = rules.turn_rules
    if len(utility) != turn_rules.full_box + 1:
        raise ValueError(f"a utility needs one value per box, {turn_rules.full_box + 1}, not {len(utility)}")
    return _solve_utility(turn_rules, name, utility)


@lru_cache(maxsize=512)
def _solve_utility(rules: Rules, name: str, utility: tuple[float, ...]) -> Solution:
    return _solve(rules, name, utility, minimize=False)


SAME = 1e-9
"""Chances to win closer than this are the same chance (they differ by rounding only)."""


@lru_cache(maxsize=64)
def final_scores(rules: Rules) -> tuple[int, ...]:
    """Every score a turn can end with under these rules, lowest first."""
    return tuple(sorted({score(rules, mask) for mask in range(rules.full_box + 1)}))


def solve_chances(rules: Rules, chances: tuple[float, ...] | None) -> Solution:
    """The exact best policy for these chances to win by score (`final_scores` order), of equal
    moves the one with the lower expected score, then the first in move order; `optimal`'s when
    every score is worth the same (within SAME), or with None (then a low score is all there is
    to play for). `target` and `perfect` play it."""
    return _solve_chances(rules.turn_rules, chances)


@lru_cache(maxsize=8192)
def _solve_chances(rules: Rules, chances: tuple[float, ...] | None) -> Solution:
    if chances is None or max(chances) - min(chances) < SAME:
        return solve_expected_score(rules)
    low, high = min(chances), max(chances)
    # Scaled to run from 0 to 1 (the same policy), so that situations alike share one solution.
    worth = [round((chance - low) / (high - low), 12) for chance in chances]
    return solve_win(rules, "win", tuple(map(worth.__getitem__, _score_places(rules))))


@lru_cache(maxsize=64)
def _score_places(rules: Rules) -> tuple[int, ...]:
    """The place of every box's score among `final_scores`, by mask."""
    place = {points: index for index, points in enumerate(final_scores(rules))}
    return tuple(place[score(rules, mask)] for mask in range(rules.full_box + 1))


def solve_win(rules: Rules, name: str, utility: tuple[float, ...]) -> Solution:
    """`solve_utility` played to win: among choices of equal utility, the one with the lower
    expected score (a pass over the boxes a layer at a time, `layers`, for policies asked by the
    thousand)."""
    turn_rules = rules.turn_rules
    if len(utility) != turn_rules.full_box + 1:
        raise ValueError(f"a utility needs one value per box, {turn_rules.full_box + 1}, not {len(utility)}")
    return _solve_win(turn_rules, name, utility)


_ROWS: dict[tuple[int, ...], tuple[int, ...]] = {}
"""Every row of moves a policy to win has chosen, kept once for the process: policies alike in most
boxes share them (drop-out at 45 keeps a third of the memory it would take without)."""


@lru_cache(maxsize=512)
def _solve_win(rules: Rules, name: str, utility: tuple[float, ...]) -> Solution:
    from .layers import solve_layers, walked  # numpy, loaded where a policy to win is asked for

    found = solve_layers(rules, utility)
    rows = [_ROWS.setdefault(row, row) for row in map(tuple, found.moves.tolist())]
    rows[0] = ()  # a shut box rolls no more
    kept = Distribution(*walked(rules, found.dice, found.after))  # as `walk_by_layers` walks it
    values, dice = tuple(found.values.tolist()), tuple(found.dice.tolist())
    return _Layered(rules, name, False, utility, values, dice, tuple(rows), kept)


@dataclasses.dataclass(frozen=True)
class Distribution:
    """The exact distribution of a turn's score under one policy."""

    probabilities: dict[int, float]
    shut_probability: float

    @property
    def expected_score(self) -> float:
        return sum(score_ * chance for score_, chance in self.probabilities.items())


def distribution(rules: Rules, choose_move: MovePolicy, choose_dice: DicePolicy) -> Distribution:
    """The exact score distribution of a policy of (open mask, dice), from a full box."""
    probabilities, shut = _walk(rules, choose_move, choose_dice, THROWS_BY_COUNT, 0.0)
    return Distribution(probabilities, shut)


def fraction_distribution(
    rules: Rules, choose_move: MovePolicy, choose_dice: DicePolicy
) -> tuple[dict[int, Fraction], Fraction]:
    """`distribution` in fractions: each score's chance and the chance of a shut box.

    Walked in whole numbers over one denominator, 36 to the power of one more than the tiles (a
    turn rolls at most that often, each roll but the last taking a tile): a box reached after `d`
    rolls holds a multiple of 36 ** (tiles + 1 - d), so every throw's share of it is whole. The
    fractions are made at the end (the same fractions, a dozen times faster than adding them up)."""
    table = move_table(rules)
    whole = 36 ** (rules.tiles + 1)
    reach = [0] * (rules.full_box + 1)
    reach[rules.full_box] = whole
    ended = [0] * (rules.full_box + 1)
    for mask in range(rules.full_box, 0, -1):
        share = reach[mask] // 36
        if not share:
            continue
        options = dice_options(rules, mask)
        count = choose_dice(mask) if len(options) > 1 else options[0]
        row = table.row(mask)
        for index, throw, weight in _WHOLE_THROWS[count]:
            moves = row[index]
            if not moves:
                ended[mask] += share * weight
                continue
            move = moves[0] if len(moves) == 1 else choose_move(mask, throw)
            reach[mask & ~move] += share * weight
    ended[0] = reach[0]
    counts: dict[int, int] = {}
    for mask, count in enumerate(ended):
        if count:
            key = score(rules, mask)
            counts[key] = counts.get(key, 0) + count
    return {points: Fraction(count, whole) for points, count in sorted(counts.items())}, Fraction(ended[0], whole)


_WHOLE_THROWS = {
    count: tuple((index, throw, 6 if count == 1 else 2 - (throw[0] == throw[1])) for index, throw, _ in throws)
    for count, throws in THROWS_BY_COUNT.items()
}
"""THROWS_BY_COUNT with each chance in 36ths."""

Chance = TypeVar("Chance", float, Fraction)


def _walk(
    rules: Rules,
    choose_move: MovePolicy,
    choose_dice: DicePolicy,
    throws_by_count: Mapping[int, Sequence[tuple[int, tuple[int, ...], Chance]]],
    nothing: Chance,
) -> tuple[dict[int, Chance], Chance]:
    """Walk down the box masks from a full box with the policy: each score's chance, sorted,
    and the chance of a shut box."""
    table = move_table(rules)
    reach = [nothing] * (rules.full_box + 1)
    reach[rules.full_box] = nothing + 1
    ended = [nothing] * (rules.full_box + 1)
    for mask in range(rules.full_box, 0, -1):
        chance_here = reach[mask]
        if not chance_here:
            continue
        options = dice_options(rules, mask)
        count = choose_dice(mask) if len(options) > 1 else options[0]
        row = table.row(mask)
        for index, throw, chance in throws_by_count[count]:
            moves = row[index]
            if not moves:
                ended[mask] += chance_here * chance
                continue
            move = moves[0] if len(moves) == 1 else choose_move(mask, throw)
            reach[mask & ~move] += chance_here * chance
    ended[0] = reach[0]
    probabilities: dict[int, Chance] = {}
    for mask, chance in enumerate(ended):
        if chance:
            key = score(rules, mask)
            probabilities[key] = probabilities.get(key, nothing) + chance
    return dict(sorted(probabilities.items())), ended[0]


def solution_distribution(solution: Solution) -> Distribution:
    """The exact score distribution of playing an optimal policy."""
    if isinstance(solution, _Layered):
        return solution.walked
    return distribution(solution.rules, solution.best_move, solution.best_dice)


def walk_by_layers(rules: Rules, dice: Sequence[int], after: Sequence[Sequence[int]]) -> Distribution:
    """`distribution` walked a layer of boxes at a time, in numpy, for a policy given whole: the dice
    rolled from each box, and the box each throw of THROWS leaves (itself when the turn ends; any
    value where those dice are not rolled). The same chances, added up in another order: a policy
    walked so gives the same floats however it is given (a solution to win is walked so as it is
    solved)."""
    from .layers import walked  # numpy, loaded where it is asked for

    return Distribution(*walked(rules.turn_rules, dice, after))


def layered_distribution(solution: Solution) -> Distribution:
    """`solution_distribution` as `walk_by_layers` walks it."""
    if isinstance(solution, _Layered):
        return solution.walked
    after = [
        [mask & ~move if move else mask for move in row] or [mask] * len(THROWS)
        for mask, row in enumerate(solution.moves)
    ]
    return walk_by_layers(solution.rules, solution.dice, after)
