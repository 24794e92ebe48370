"""Where a policy loses against a reference, state by state, exactly: the performance-difference
identity for a turn (issue 36's shared core: `explain`, `diff` and the cheat sheet build on it).

A turn is a finite MDP over box masks in which every move shuts a tile, so each state is met at
most once in a turn and, for any utility of the turn's final box (`terminal[mask]`, higher is
better: minus the score for the expected score, a chance of winning for a game),

    V^pi - V^ref = sum over decision states s of reach_pi(s) * (Q^ref(s, pi(s)) - V^ref(s))

A decision state is (box, throw) where the throw has two or more legal moves, or (box, None) where
the rules leave the number of dice to the player. `reach_pi(s)` is the chance that pi's own play
from a full box reaches s; `V^ref` and `Q^ref` are the reference policy's values. Against the
optimum for the utility every term is <= 0 and the sum is pi's exact gap to best play; against
another policy B it is V^pi - V^B, and only the states where the two choose differently carry one.

The API (floats; the identity holds to about 1e-12 of the utility's scale):

- `Decision`: one decision state where the played choice is not the reference's, with its `cost`
  (Q^ref(s, best) - Q^ref(s, played): >= 0 against the optimum) and its `reach`; `loss` is
  reach * cost. `key` is empty; a keyed strategy's caller sets it with `weighted`, which also
  scales `reach` by the chance of meeting that key (one MDP per key met).
- `reach(rules, move, dice)`: the chance pi's play reaches each box, before its next throw.
- `policy_values(rules, move, dice, terminal)`: pi's value from every box, before its next throw
  (pi is asked in every state, reached or not).
- `best_values(rules, terminal)`: the optimum's values for the utility (the layered solver's).
- `decisions(rules, move, dice, reference_values, terminal, reference_move=None,
  reference_dice=None, every=False)`: the states where pi's choice is not the reference's, in
  descending box order (dice choice first, then the throws in `THROWS` order). Without
  `reference_move`/`reference_dice` the reference is the best play for `reference_values` (pass
  `best_values`): a choice within `TIED` (times the utility's scale) of the best counts as the
  best, so an optimal policy that breaks ties otherwise has no rows. With them, `reference_values`
  must be that policy's own (`policy_values`), and every state where the choices differ is a row,
  whatever its cost.
  Only states pi reaches are listed, unless `every` (then unreached ones too, with reach 0: two
  policies are identical when they have no row so).
- `gap(found)`: the sum of the rows' losses (math.fsum): V^ref - V^pi.

`move` and `dice` are `solver.MovePolicy` / `DicePolicy` (a PolicyTable's `move` and
`dice_count`, a Solution's `best_move` and `best_dice`), asked only where there is a choice.

Beyond the shape first announced for this module: `Decision.key` (empty by default), `loss` and
`weighted`; `decisions(..., every=True)`; `best_values`; `gap`. The signatures announced are kept.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

from .box import dice_options
from .moves import THROWS, move_table
from .rules import Rules
from .solver import THROWS_BY_COUNT, DicePolicy, MovePolicy
from .terms import Mask

TIED = 1e-12
"""Two values within this of each other, times the utility's scale (its largest size, at least 1),
are equal (as the solver counts them where the scale is 1)."""


@dataclasses.dataclass(frozen=True)
class Decision:
    """One decision state where the played choice is not the reference's.

    `mask` is the box before the choice; `throw` the dice thrown (sorted), or None for the choice
    of how many dice to roll; `played` and `best` the move (a mask of the tiles shut) or the number
    of dice; `cost` is Q^ref(s, best) - Q^ref(s, played) in the utility's units; `reach` the chance
    the played policy's own play reaches the state (times the key's chance, for a keyed one); `key`
    the key's values where there is one.
    """

    mask: Mask
    throw: tuple[int, ...] | None
    played: int
    best: int
    cost: float
    reach: float
    key: tuple[Any, ...] = ()

    @property
    def loss(self) -> float:
        """What the state takes from the played policy's value: reach * cost."""
        return self.reach * self.cost

    def weighted(self, chance: float, key: tuple[Any, ...]) -> Decision:
        """This row of one key's MDP, as a row of the whole strategy: reached `chance` times as often."""
        return dataclasses.replace(self, reach=self.reach * chance, key=key)


@dataclasses.dataclass(frozen=True)
class _Walk:
    """A policy's own play from a full box: the chance of reaching each box and the dice rolled there."""

    reach: tuple[float, ...]
    dice: tuple[int, ...]


def _count(rules: Rules, dice: DicePolicy, mask: Mask) -> int:
    options = dice_options(rules, mask)
    return dice(mask) if len(options) > 1 else options[0]


def _walk(rules: Rules, move: MovePolicy, dice: DicePolicy) -> _Walk:
    table = move_table(rules)
    size = rules.full_box + 1
    chances = [0.0] * size
    counts = [0] * size
    chances[rules.full_box] = 1.0
    for mask in range(rules.full_box, 0, -1):
        here = chances[mask]
        if not here:
            continue
        count = counts[mask] = _count(rules, dice, mask)
        row = table.row(mask)
        for index, throw, chance in THROWS_BY_COUNT[count]:
            moves = row[index]
            if moves:
                shut = moves[0] if len(moves) == 1 else move(mask, throw)
                chances[mask & ~shut] += here * chance
    return _Walk(tuple(chances), tuple(counts))


def reach(rules: Rules, move: MovePolicy, dice: DicePolicy) -> tuple[float, ...]:
    """The chance that the policy's own play from a full box reaches each box, before its next throw."""
    return _walk(rules.turn_rules, move, dice).reach


def policy_values(rules: Rules, move: MovePolicy, dice: DicePolicy, terminal: Sequence[float]) -> tuple[float, ...]:
    """The policy's value from every box before its next throw, where `terminal[mask]` is what
    ending the turn with that box is worth (the shut box, mask 0, ends it)."""
    rules = rules.turn_rules
    _check(rules, terminal)
    table = move_table(rules)
    values = [float(terminal[0])] * (rules.full_box + 1)
    for mask in range(1, rules.full_box + 1):
        row = table.row(mask)
        total = 0.0
        for index, throw, chance in THROWS_BY_COUNT[_count(rules, dice, mask)]:
            moves = row[index]
            if not moves:
                total += chance * terminal[mask]
            else:
                total += chance * values[mask & ~(moves[0] if len(moves) == 1 else move(mask, throw))]
        values[mask] = total
    return tuple(values)


def best_values(rules: Rules, terminal: Sequence[float]) -> tuple[float, ...]:
    """The optimum's value from every box before its next throw, for the utility `terminal` (solved
    a layer of boxes at a time, in numpy: the solver's values, summed in another order)."""
    from .layers import solve_layers  # numpy, loaded where it is asked for

    rules = rules.turn_rules
    _check(rules, terminal)
    found: tuple[float, ...] = tuple(solve_layers(rules, tuple(float(value) for value in terminal)).values.tolist())
    return found


def decisions(
    rules: Rules,
    move: MovePolicy,
    dice: DicePolicy,
    reference_values: Sequence[float],
    terminal: Sequence[float],
    reference_move: MovePolicy | None = None,
    reference_dice: DicePolicy | None = None,
    every: bool = False,
) -> list[Decision]:
    """The decision states where the policy's choice is not the reference's (module docstring)."""
    rules = rules.turn_rules
    _check(rules, terminal)
    _check(rules, reference_values)
    walked = _walk(rules, move, dice)
    table = move_table(rules)
    tied = TIED * max(1.0, *(abs(value) for value in terminal))
    found: list[Decision] = []
    for mask in range(rules.full_box, 0, -1):
        here = walked.reach[mask]
        if not here and not every:
            continue
        row = table.row(mask)
        options = dice_options(rules, mask)
        count = walked.dice[mask] if here else _count(rules, dice, mask)
        if len(options) > 1:
            throw_value = _throw_values(row, mask, reference_values, terminal[mask], reference_move)
            by_count = {
                one: math.fsum(chance * throw_value[index] for index, _, chance in THROWS_BY_COUNT[one])
                for one in options
            }
            best = reference_dice(mask) if reference_dice is not None else _best(by_count, count, tied)
            if best != count:
                found.append(Decision(mask, None, count, best, by_count[best] - by_count[count], here))
        for rolled in options if every else (count,):
            chance_here = here if rolled == count else 0.0
            found += _moves(row, mask, rolled, chance_here, move, reference_values, reference_move, tied)
    return found


def _moves(
    row: Sequence[tuple[int, ...]],
    mask: Mask,
    count: int,
    here: float,
    move: MovePolicy,
    values: Sequence[float],
    reference_move: MovePolicy | None,
    tied: float,
) -> list[Decision]:
    """The rows of the throws of `count` dice from this box (reached with the chance `here`)."""
    found = []
    for index, throw, chance in THROWS_BY_COUNT[count]:
        moves = row[index]
        if len(moves) < 2:
            continue
        played = move(mask, throw)
        best = (
            reference_move(mask, throw) if reference_move is not None else _best_move(moves, mask, values, played, tied)
        )
        if best != played:
            cost = values[mask & ~best] - values[mask & ~played]
            found.append(Decision(mask, THROWS[index], played, best, cost, here * chance))
    return found


def gap(found: Sequence[Decision]) -> float:
    """The rows' losses added up: the reference's value less the played policy's."""
    return math.fsum(row.loss for row in found)


def _check(rules: Rules, values: Sequence[float]) -> None:
    if len(values) != rules.full_box + 1:
        raise ValueError(f"values need one per box, {rules.full_box + 1}, not {len(values)}")


def _throw_values(
    row: Sequence[tuple[int, ...]],
    mask: Mask,
    values: Sequence[float],
    ended: float,
    reference_move: MovePolicy | None,
) -> list[float]:
    """The reference's value of each throw of THROWS from this box, before its move."""
    found = []
    for index, moves in enumerate(row):
        if not moves:
            found.append(ended)
        elif len(moves) == 1:
            found.append(values[mask & ~moves[0]])
        elif reference_move is not None:
            found.append(values[mask & ~reference_move(mask, THROWS[index])])
        else:
            found.append(max(values[mask & ~one] for one in moves))
    return found


def _best_move(moves: Sequence[int], mask: Mask, values: Sequence[float], played: int, tied: float) -> int:
    """`_best` for the moves of one throw, by the value of the box each leaves."""
    best, top = moves[0], values[mask & ~moves[0]]
    for one in moves[1:]:
        value = values[mask & ~one]
        if value > top:
            best, top = one, value
    return played if values[mask & ~played] >= top - tied else best


def _best(by_choice: dict[int, float], played: int, tied: float) -> int:
    """The best choice; the played one where it is within `tied` of the best, else the first best."""
    top = max(by_choice.values())
    if by_choice.get(played, -math.inf) >= top - tied:
        return played
    return next(choice for choice, value in by_choice.items() if value == top)
