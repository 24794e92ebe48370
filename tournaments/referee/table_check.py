"""A keyed strategy's tables from its host, checked with array logic: it sends one per key it
meets, so each is checked against lookups worked out once per rule set, not entry by entry.

The rules `replies.checked_table` holds a table to: the box after each throw is one a legal move leaves
(the same box when none fits, NOT_ROLLED where the rules do not roll that many dice, the shut box
stays shut), and each number of dice is one the rules allow there."""

from __future__ import annotations

from array import array
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from shutbox_cli.game import THROWS, Rules, dice_options, move_table
from strategies.table import NOT_ROLLED, THROW_COUNT, PolicyTable


@lru_cache(maxsize=8)
def _allowed(rules: Rules) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every allowed (box, throw, box after) as one sorted code, and by box the dice counts allowed
    (bit 1: one die, bit 2: two)."""
    boxes = rules.full_box + 1
    table = move_table(rules)
    throw_dice = [len(throw) for throw in THROWS]
    codes: list[int] = []
    dice = np.zeros(boxes, dtype=np.int64)
    for mask in range(boxes):
        options = dice_options(rules, mask)
        for count in options[:1] if mask == 0 else options:
            dice[mask] |= 1 << count
        row = table.row(mask)
        for index in range(THROW_COUNT):
            if mask == 0:
                afters = [0]
            elif throw_dice[index] not in options:
                afters = [NOT_ROLLED]
            elif not row[index]:
                afters = [mask]
            else:
                afters = [mask & ~move for move in row[index]]
            codes += [(mask * THROW_COUNT + index) * (boxes + 1) + after + 1 for after in afters]
    return np.array(sorted(codes), dtype=np.int64), dice


def checked_table(next_mask: object, dice: object, rules: Rules) -> PolicyTable | str:
    """The table, or what is wrong with it (the words `replies.checked_table` puts in its garbage message)."""
    boxes = rules.full_box + 1
    if not (isinstance(next_mask, list) and isinstance(dice, list)):
        return "a table that is not two lists"
    if len(next_mask) != boxes * THROW_COUNT or len(dice) != boxes:
        return "a table of the wrong size"
    try:  # whole numbers make an int array; a float, a string, None or a huge number does not
        after, counts = np.array(next_mask), np.array(dice)
    except (TypeError, ValueError, OverflowError):
        return "a table with entries that are not whole numbers"
    if after.dtype.kind != "i" or counts.dtype.kind != "i" or after.ndim != 1 or counts.ndim != 1:
        return "a table with entries that are not whole numbers"
    allowed, allowed_dice = _allowed(rules)
    wrong_dice = (counts < 1) | (counts > 2) | ((allowed_dice >> np.clip(counts, 0, 3)) & 1 == 0)
    if wrong_dice.any():
        at = int(np.argmax(wrong_dice))
        options = dice_options(rules, at)
        return f"a table rolling {int(counts[at])} dice where the rules allow {options[:1] if at == 0 else options}"
    codes = np.arange(after.size, dtype=np.int64) * (boxes + 1) + np.clip(after, -1, boxes) + 1
    found = np.searchsorted(allowed, codes)
    bad = (found >= allowed.size) | (allowed[np.minimum(found, allowed.size - 1)] != codes)
    bad |= (after < NOT_ROLLED) | (after > rules.full_box)
    if bad.any():
        at = int(np.argmax(bad))
        return f"a table with an illegal move from box {at // THROW_COUNT:#b} on the throw {THROWS[at % THROW_COUNT]}"
    return PolicyTable(rules, array("h", after.tolist()), bytes(counts.astype(np.uint8)))
