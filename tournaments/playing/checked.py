"""A host's answers for many turns checked at once, by lookup: all the turns walked together on
the dice they were dealt, roll by roll with numpy, every answer looked up among what the rules
allow there (the dice a box may roll; the moves a throw may make, those within the box), with no
engine, view or player.

It says where each turn ended, or that it does not vouch for it (an answer missing or not
allowed): that turn is played again through the general engine, which says what is wrong.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from shutbox_cli.game import Rules
from shutbox_cli.game.box import dice_table
from shutbox_cli.game.moves import THROW_INDEX, THROWS, move_table

UNVOUCHED = -1
"""`turn_ends` of a turn whose answers it does not vouch for."""
NO_MOVE = -1
"""A place in `Allowed.moves` that holds no move."""


class Allowed(NamedTuple):
    """What one rule set allows, as arrays: the number of dice by box (`dice[box, count]`), the
    throw an outcome code makes with one die and with two (`throws[count - 1, outcome]`), and
    every move each throw can make in some box (`moves[throw]`, padded with NO_MOVE): within a
    box, those that fit in it, save on the full box under a first-roll tile, where only those
    that shut it (`required`)."""

    dice: npt.NDArray[np.bool_]
    throws: npt.NDArray[np.intp]
    moves: npt.NDArray[np.int64]
    required: int


@functools.cache
def allowed(rules: Rules) -> Allowed:
    """`Allowed` under these rules, worked out once per rule set."""
    options = dice_table(rules)
    dice = np.zeros((len(options), 3), dtype=np.bool_)
    for box, counts in enumerate(options):
        dice[box, list(counts)] = True
    throws = np.array(
        [[THROW_INDEX[(outcome // 6 + 1, outcome % 6 + 1)[:count]] for outcome in range(36)] for count in (1, 2)],
        dtype=np.intp,
    )
    table, full = move_table(rules), rules.full_box
    required = 0 if rules.first_roll.tile is None else 1 << (rules.first_roll.tile - 1)
    # Every move a throw can make: those of the full box, and (when a first tile is required
    # there) those of the box without that tile.
    rows = table.row(full), table.row(full & ~required)
    known = [sorted(set(rows[0][throw]) | set(rows[1][throw])) for throw in range(len(THROWS))]
    moves = np.full((len(THROWS), max(map(len, known), default=0) or 1), NO_MOVE, dtype=np.int64)
    for throw, made in enumerate(known):
        moves[throw, : len(made)] = made
    return Allowed(dice, throws, moves, required)


def turn_ends(
    rules: Rules, dealt: npt.NDArray[np.uint8], counts: npt.NDArray[np.intp], given: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """Where each turn ends (its open mask) when played on its dice (`dealt[turn]`, outcome codes,
    as many as a turn can use) with its answers in order (`counts[turn]` of them, one after another
    in `given`), as the general engine asks them (a number of dice where the box may roll either,
    a move where a throw has more than one legal move), or UNVOUCHED where an answer is missing or
    not allowed (answers left over are not read)."""
    allow, full = allowed(rules), rules.full_box
    turns = counts.size
    width = int(counts.max(initial=0)) + 1  # a column past the last answer: never read as one
    answers = np.zeros((turns, width), dtype=np.int64)
    answers[np.arange(width)[None, :] < counts[:, None]] = given
    box = np.full(turns, full, dtype=np.int64)
    at = np.zeros(turns, dtype=np.intp)
    live = np.arange(turns)
    for roll in range(dealt.shape[1] if turns else 0):
        if not live.size:
            break
        here, asked = box[live], at[live]
        short = counts[live]
        # The dice: asked where the box may roll either number.
        choose = allow.dice[here].sum(axis=1) > 1
        answer = answers[live, np.minimum(asked, width - 1)]
        count = np.where(choose, answer, np.argmax(allow.dice[here], axis=1))
        wrong = choose & ((asked >= short) | ~allow.dice[here, np.clip(count, 0, 2)] | (count < 1) | (count > 2))
        asked = asked + choose
        count = np.clip(count, 1, 2)
        # The move: among those of the throw that fit in the box.
        made = allow.moves[allow.throws[count - 1, dealt[live, roll]]]
        fits = (made != NO_MOVE) & (made & ~here[:, None] == 0)
        if allow.required:
            fits &= (here != full)[:, None] | (made & allow.required != 0)
        legal = fits.sum(axis=1)
        chosen = legal > 1
        answer = answers[live, np.minimum(asked, width - 1)]
        move = np.where(chosen, answer, made[np.arange(live.size), np.argmax(fits, axis=1)])
        wrong |= chosen & ((asked >= short) | ~(fits & (made == move[:, None])).any(axis=1))
        at[live] = asked + chosen
        shut = ~wrong & (legal > 0)
        box[live[wrong]] = UNVOUCHED
        box[live[shut]] = here[shut] & ~move[shut]
        going = shut & (box[live] != 0)
        live = live[going]
    return box
