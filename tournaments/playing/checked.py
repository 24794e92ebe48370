"""A host's answers for many turns checked at once, by lookup: each turn walked on the dice it was
dealt, every answer looked up among what the rules allow there (the dice a box may roll, worked out once
per rule set; the legal moves of a box for every throw, once per process as boxes are met), with no
engine, view or player.

It says where each turn ended, or that it does not vouch for it (an answer missing or not
allowed): that turn is played again through the general engine, which says what is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence

from shutbox_cli.game import Rules
from shutbox_cli.game.box import dice_table
from shutbox_cli.game.moves import THROWS_BY, box_rows, row_of

UNVOUCHED = -1
"""`turn_ends` of a turn whose answers it does not vouch for."""


def turn_ends(rules: Rules, dealt: bytes, counts: Sequence[int], given: Sequence[int]) -> list[int]:
    """Where each turn ends (its open mask) when played on its dice (turn t's are `dealt[t * w:
    (t + 1) * w]`, outcome codes, `w` = tiles + 1: as many as a turn can use) with its answers in
    order (`counts[t]` of them, one turn's after another in `given`), as the general engine asks
    them (a number of dice where the box may roll either, a move where a throw has more than one
    legal move), or UNVOUCHED where an answer is missing or not allowed (answers left over are not
    read)."""
    options_of, rows, full, width = dice_table(rules), box_rows(rules), rules.full_box, rules.tiles + 1
    ends: list[int] = []
    end = 0
    for turn, count in enumerate(counts):
        box, at, end = full, end, end + count
        for outcome in dealt[turn * width : (turn + 1) * width]:
            options = options_of[box]
            dice = options[0]
            if len(options) > 1:
                if at == end or given[at] not in options:
                    box = UNVOUCHED
                    break
                dice, at = given[at], at + 1
            row = rows[box] or row_of(rules, rows, box)
            legal = row[THROWS_BY[dice][outcome]]
            if not legal:
                break
            move = legal[0]
            if len(legal) > 1:
                if at == end or given[at] not in legal:
                    box = UNVOUCHED
                    break
                move, at = given[at], at + 1
            box &= ~move
            if not box:
                break
        ends.append(box)
    return ends
