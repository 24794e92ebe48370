"""A host's answers for many turns checked at once, by lookup: each turn walked on the dice it was
dealt, roll by roll in lockstep with numpy, every answer looked up among what the rules allow
there (the dice a box may roll, the legal moves of a box and throw, worked out once per rule set).

It says where each turn ended and whether every answer it needed was there and allowed; a turn
it does not vouch for is played again through the general engine, which says what is wrong.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools

import numpy as np
import numpy.typing as npt

from shutbox_cli.game import Rules
from shutbox_cli.game.box import dice_table
from shutbox_cli.game.moves import THROW_INDEX, THROWS, move_table

_THROWS_OF = np.array(
    [
        [THROW_INDEX[(outcome // 6 + 1,)] for outcome in range(36)],
        [THROW_INDEX[(outcome // 6 + 1, outcome % 6 + 1)] for outcome in range(36)],
    ],
    dtype=np.intp,
)
"""The throw (its index in THROWS) an outcome code makes with one die and with two."""


@dataclasses.dataclass(frozen=True)
class _Allowed:
    """What the rules allow, by box (and throw): `choice` whether the box may roll one die or two,
    `fixed` the dice it rolls when not, `dice[box, count]` whether it may roll `count`; `moves[box,
    throw]` how many legal moves there are and `only` the move when there is one; `legal` every
    legal (box, throw, move) as one sorted code."""

    choice: npt.NDArray[np.bool_]
    fixed: npt.NDArray[np.int64]
    dice: npt.NDArray[np.bool_]
    moves: npt.NDArray[np.int64]
    only: npt.NDArray[np.int64]
    legal: npt.NDArray[np.int64]


@functools.lru_cache(maxsize=16)
def _allowed(rules: Rules) -> _Allowed:
    boxes, throws = rules.full_box + 1, len(THROWS)
    options, table = dice_table(rules), move_table(rules)
    dice = np.zeros((boxes, 3), dtype=bool)
    moves = np.zeros((boxes, throws), dtype=np.int64)
    only = np.zeros((boxes, throws), dtype=np.int64)
    codes: list[int] = []
    for box in range(boxes):
        dice[box, list(options[box])] = True
        for throw, legal in enumerate(table.row(box)):
            moves[box, throw] = len(legal)
            if legal:
                only[box, throw] = legal[0]
                base = (box * throws + throw) << rules.tiles
                codes.extend(base | move for move in legal)
    choice = np.array([len(options[box]) > 1 for box in range(boxes)])
    fixed = np.array([options[box][0] for box in range(boxes)], dtype=np.int64)
    return _Allowed(choice, fixed, dice, moves, only, np.sort(np.array(codes, dtype=np.int64)))


def turn_ends(
    rules: Rules, drawn: npt.NDArray[np.uint8], answers: list[list[int]]
) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.bool_]]:
    """Where each turn ends (its open mask) when played on its dice (`drawn[turn]`, outcome codes)
    with its answers in order, as the general engine asks them (a number of dice where the box
    may roll either, a move where a throw has more than one); and whether that turn's every answer
    was there and allowed (answers left over are not read)."""
    count, full, tiles = len(answers), rules.full_box, rules.tiles
    allowed = _allowed(rules)
    lengths = np.fromiter(map(len, answers), dtype=np.int64, count=count)
    end = np.cumsum(lengths)
    at = end - lengths
    try:
        flat = np.fromiter(itertools.chain.from_iterable(answers), dtype=np.int64, count=int(end[-1]) if count else 0)
    except OverflowError:  # an answer no box allows: the general engine says which
        return np.full(count, full, dtype=np.int16), np.zeros(count, dtype=bool)
    flat = np.append(flat, 0)  # read where a turn has no answer left (and found missing)
    masks = np.full(count, full, dtype=np.int64)
    good = np.ones(count, dtype=bool)
    live = np.arange(count)
    for roll in range(drawn.shape[1]):
        if not live.size:
            break
        box = masks[live]
        asked = allowed.choice[box]
        given = at[live] < end[live]
        dice = np.where(asked, flat[np.where(given, at[live], -1)], allowed.fixed[box])
        wrong = asked & (~given | (dice < 1) | (dice > 2))
        dice = np.clip(dice, 1, 2)
        wrong |= ~allowed.dice[box, dice]
        at[live] += asked
        throw = _THROWS_OF[dice - 1, drawn[live, roll]]
        legal = allowed.moves[box, throw]
        asked = legal > 1
        given = at[live] < end[live]
        move = np.where(asked, flat[np.where(given, at[live], -1)], allowed.only[box, throw])
        wrong |= asked & (~given | (move < 0) | (move > full))
        move = np.clip(move, 0, full)
        code = ((box * len(THROWS) + throw) << tiles) | move
        found = allowed.legal[np.minimum(np.searchsorted(allowed.legal, code), allowed.legal.size - 1)] == code
        wrong |= asked & ~found
        at[live] += asked
        good[live[wrong]] = False
        after = box & ~move
        masks[live] = np.where(legal > 0, after, box)
        live = live[(legal > 0) & (after > 0) & ~wrong]
    return masks.astype(np.int16), good
