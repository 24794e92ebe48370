"""A host's answers for many turns checked at once, by lookup: the turns walked together on the dice
they were dealt, one roll of every unfinished turn a step (numpy), each answer looked up among what
the rules allow there (the dice a box may roll, the legal moves of each box for each throw: tables
worked out once per rule set), with no engine, view or player.

It says where each turn ended, or that it does not vouch for it (an answer missing or not
allowed): that turn is played again through the general engine, which says what is wrong.
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import numpy.typing as npt

from shutbox_cli.game import Rules
from shutbox_cli.game.box import dice_table
from shutbox_cli.game.moves import THROWS, THROWS_BY, box_rows, row_of

UNVOUCHED = -1
"""`turn_ends` of a turn whose answers it does not vouch for."""

Ends = npt.NDArray[np.int64]


@dataclasses.dataclass(frozen=True)
class _Allowed:
    """What the rules allow, by lookup ([box], [box, throw], [throw, move]; a box or a move as its mask)."""

    asks_dice: npt.NDArray[np.bool_]
    """Whether the box may roll either number of dice (an answer says which)."""
    dice: npt.NDArray[np.int64]
    """[box, answer]: the number of dice the box rolls when the answer (0 to 3; 0 also for none)
    asks for `answer` dice, 0 where it may not; a box with no choice rolls its own, whatever the answer."""
    throw_of: npt.NDArray[np.int64]
    """[dice, outcome]: the throw (its index in `THROWS`) an outcome code makes."""
    moves: npt.NDArray[np.int8]
    """[box, throw]: how many legal moves there are (0, 1, or 2 for more)."""
    only: npt.NDArray[np.int64]
    """[box, throw]: the one legal move, where there is one."""
    candidate: npt.NDArray[np.bool_]
    """[throw, move]: whether the throw may shut the move's tiles on a box that holds them."""
    required: int
    """The tiles a move from the full box must include one of (0: none)."""


@functools.cache
def _allowed(rules: Rules) -> _Allowed:
    """The tables of a rule set (its turn's rules: `Rules.turn_rules`)."""
    boxes, full = np.arange(rules.full_box + 1), rules.full_box
    options = dice_table(rules)
    dice = np.zeros((full + 1, 4), dtype=np.int64)
    for box, allowed in enumerate(options):
        if len(allowed) > 1:
            dice[box, list(allowed)] = allowed
        else:
            dice[box] = allowed[0]
    free = Rules(tiles=rules.tiles, shut_rule=rules.shut_rule)  # no first-roll rule: every candidate
    candidates = row_of(free, box_rows(free), full)
    moves = np.zeros((full + 1, len(THROWS)), dtype=np.int8)
    only = np.zeros((full + 1, len(THROWS)), dtype=np.int64)
    candidate = np.zeros((len(THROWS), full + 1), dtype=bool)
    for throw, found in enumerate(candidates):
        candidate[throw, list(found)] = True
        for move in found:
            fits = (move & ~boxes) == 0
            only[fits, throw] = move
            moves[fits, throw] += 1
    first = row_of(rules, box_rows(rules), full)  # the full box's own moves, under the first-roll rule
    moves[full] = [len(legal) for legal in first]
    only[full] = [legal[0] if legal else 0 for legal in first]
    required = rules.first_roll.tile
    return _Allowed(
        asks_dice=np.array([len(allowed) > 1 for allowed in options]),
        dice=dice,
        throw_of=np.array([THROWS_BY[1], THROWS_BY[1], THROWS_BY[2]], dtype=np.int64),
        moves=np.minimum(moves, 2),
        only=only,
        candidate=candidate,
        required=0 if required is None else 1 << (required - 1),
    )


def turn_ends(
    rules: Rules, dealt: npt.NDArray[np.uint8], counts: npt.NDArray[np.intp], given: npt.NDArray[np.int64]
) -> Ends:
    """Where each turn ends (its open mask) when played on its dice (turn t's are `dealt[t]`,
    outcome codes, as many as a turn can use: tiles + 1) with its answers in order (`counts[t]`
    of them, one turn's after another in `given`), as the general engine asks them (a number of
    dice where the box may roll either, a move where a throw has more than one legal move), or
    UNVOUCHED where an answer is missing or not allowed (answers left over are not read)."""
    allowed, full = _allowed(rules.turn_rules), rules.full_box
    box = np.full(counts.size, full, dtype=np.int64)
    # Each turn's answers end with -1, which no question allows: a turn that asks past its answers reads
    # it (and one -1 more at the very end: a wrong number of dice is read past too, its move not used).
    ends = np.cumsum(counts)
    answers = np.append(np.insert(given.astype(np.int64, copy=False), ends, -1), -1)
    # The unfinished turns, and where each stands: its box, its next answer, its dice.
    turn = np.arange(counts.size)
    at, open_, rolls = ends - counts + turn, box.copy(), dealt[: counts.size].astype(np.intp)
    for roll in range(dealt.shape[1]):
        if not turn.size:
            break
        # The number of dice: the box's own, or an answer (0 where it is not allowed).
        dice = allowed.dice[open_, np.clip(answers[at], 0, 3)]
        at += allowed.asks_dice[open_]
        # The move: the throw's one legal move, or an answer.
        throw = allowed.throw_of[dice, rolls[:, roll]]
        moves = allowed.moves[open_, throw]
        chooses = moves > 1
        said = answers[at]
        shown = np.clip(said, 0, full)
        legal = (said == shown) & allowed.candidate[throw, shown] & ((shown | open_) == open_)
        if allowed.required:
            legal &= (open_ != full) | (shown & allowed.required != 0)
        wrong = (dice == 0) | (chooses & ~legal)
        after = open_ & ~np.where(chooses, shown, allowed.only[open_, throw])
        ended = wrong | (moves == 0) | (after == 0)
        box[turn[ended]] = np.where(wrong, UNVOUCHED, np.where(moves == 0, open_, 0))[ended]
        going = ~ended
        turn, open_, at, rolls = turn[going], after[going], (at + chooses)[going], rolls[going]
    box[turn] = open_  # none left where the dice dealt are as many as a turn can use
    return box
