"""Exact strategies' turns many at a time.

An exact strategy's play depends only on (open tiles, dice), so a turn is a walk through one
table: `next_mask[mask, outcome]`, the box after the roll `outcome` (the ordered pair of dice,
`6 * (die1 - 1) + (die2 - 1)`) with the strategy's choice of one die or two and of the move
folded in, or END when the roll ends the turn. Turns then advance in lockstep with numpy, one
roll of every unfinished turn per step: the same dice and the same moves as the general engine
plays one turn at a time.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from .box import dice_table
from .moves import move_table
from .rules import Rules

END = -1
"""`next_mask` of a roll that no open set fits: the turn ends with the box it had."""

OUTCOMES = 36
"""Ordered pairs of dice: outcome o is die1 = o // 6 + 1, die2 = o % 6 + 1; one die uses die1."""

MovePolicy = Callable[[int, tuple[int, ...]], int]
"""The move (a mask) for (open mask, dice); asked only when there is a choice."""
DicePolicy = Callable[[int], int]
"""One die or two for an open mask; asked only when the rules leave the choice."""
Rolls = Callable[[int, npt.NDArray[np.intp]], npt.NDArray[np.integer]]
"""Roll k of the turns at these indices, as outcome codes."""


def turn_table(rules: Rules, choose_move: MovePolicy, choose_dice: DicePolicy) -> npt.NDArray[np.int16]:
    """The table `next_mask[mask, outcome]` of a policy under these rules."""
    moves = move_table(rules)
    options = dice_table(rules)
    table = np.full((rules.full_box + 1, OUTCOMES), END, dtype=np.int16)
    for mask in range(1, rules.full_box + 1):
        count = options[mask][0] if len(options[mask]) == 1 else choose_dice(mask)
        chosen: dict[tuple[int, ...], int] = {}
        for outcome in range(OUTCOMES):
            pair = (outcome // 6 + 1, outcome % 6 + 1)
            throw = pair[:1] if count == 1 else (min(pair), max(pair))
            if throw not in chosen:
                legal = moves.moves(mask, throw)
                if not legal:
                    chosen[throw] = END
                else:
                    move = legal[0] if len(legal) == 1 else choose_move(mask, throw)
                    chosen[throw] = mask & ~move
            table[mask, outcome] = chosen[throw]
    return table


def play_turns(table: npt.NDArray[np.int16], start: int, count: int, rolls: Rolls) -> npt.NDArray[np.int16]:
    """The open mask at the end of each of `count` turns from the box `start`."""
    masks = np.full(count, start, dtype=np.int16)
    live = np.arange(count, dtype=np.intp)
    roll = 0
    while live.size:
        after = table[masks[live], rolls(roll, live)]
        going = after > 0  # a shut box (0) and END (-1) both end the turn
        shut = after == 0
        masks[live[shut]] = 0
        live = live[going]
        masks[live] = after[going]
        roll += 1
    return masks
