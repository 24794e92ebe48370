"""Legal moves: the sets of open tiles a throw may shut, computed once per rule set.

A move is the bitmask of the tiles it shuts. A throw is the tuple of die faces rolled;
one die or two. Tables are built on first use and cached per (tiles, shut rule, first roll).
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from .box import tiles_of
from .rules import FirstRoll, Rules, ShutRule
from .terms import Mask

ONE_DIE_THROWS: tuple[tuple[int, ...], ...] = tuple((face,) for face in range(1, 7))
TWO_DICE_THROWS: tuple[tuple[int, ...], ...] = tuple((low, high) for low in range(1, 7) for high in range(low, 7))
THROWS = ONE_DIE_THROWS + TWO_DICE_THROWS
"""Every distinct throw, dice sorted: six with one die, 21 with two."""

THROW_INDEX: dict[tuple[int, ...], int] = {}
for _index, _throw in enumerate(THROWS):
    THROW_INDEX[_throw] = _index
    THROW_INDEX[_throw[::-1]] = _index


THROWS_BY = (
    (),
    tuple(THROW_INDEX[(outcome // 6 + 1,)] for outcome in range(36)),
    tuple(THROW_INDEX[(outcome // 6 + 1, outcome % 6 + 1)] for outcome in range(36)),
)
"""The throw (its index in `THROWS`) an outcome code (`dice.PAIRS`) makes with one die
(`THROWS_BY[1]`) and with two (`THROWS_BY[2]`)."""


def throw_probability(throw: tuple[int, ...]) -> float:
    """The chance of this sorted throw with its number of dice."""
    if len(throw) == 1:
        return 1 / 6
    return (1 if throw[0] == throw[1] else 2) / 36


def _move_order(move: Mask) -> tuple[int, tuple[int, ...]]:
    return move.bit_count(), tiles_of(move)


@cache
def _candidates(tiles: int, shut_rule: ShutRule, throw: tuple[int, ...]) -> tuple[int, ...]:
    """Every move the throw could make on a full box, in display order."""
    total = sum(throw)
    if shut_rule is ShutRule.ANY:
        found = [
            sum(1 << (tile - 1) for tile in chosen)
            for size in range(1, tiles + 1)
            for chosen in combinations(range(1, tiles + 1), size)
            if sum(chosen) == total
        ]
    else:
        singles = {total}
        if shut_rule is ShutRule.ONE_TILE and len(throw) == 2:
            singles |= set(throw)
        found = [1 << (tile - 1) for tile in singles if tile <= tiles]
        low, high = throw[0], throw[-1]
        if shut_rule is ShutRule.DICE_OR_TOTAL and low != high and high <= tiles:  # both dice, two tiles
            found.append(1 << (low - 1) | 1 << (high - 1))
    return tuple(sorted(set(found), key=_move_order))


class MoveTable:
    """Legal moves for every (open mask, throw) under one rule set, looked up in O(1)."""

    __slots__ = ("_table",)

    def __init__(self, tiles: int, shut_rule: ShutRule, first_roll: FirstRoll) -> None:
        full = (1 << tiles) - 1
        required = 0 if first_roll.tile is None else 1 << (first_roll.tile - 1)
        candidates = [_candidates(tiles, shut_rule, throw) for throw in THROWS]
        table = []
        for mask in range(full + 1):
            row = []
            for moves in candidates:
                legal = tuple(move for move in moves if move & mask == move)
                if mask == full and required:
                    legal = tuple(move for move in legal if move & required)
                row.append(legal)
            table.append(tuple(row))
        self._table: tuple[tuple[tuple[int, ...], ...], ...] = tuple(table)

    def moves(self, open_mask: Mask, throw: tuple[int, ...]) -> tuple[int, ...]:
        """The legal moves (bitmasks, fewest tiles first) for this throw on this box."""
        return self._table[open_mask][THROW_INDEX[throw]]

    def row(self, open_mask: Mask) -> tuple[tuple[int, ...], ...]:
        """The legal moves for every throw of THROWS, in that order."""
        return self._table[open_mask]


def box_rows(rules: Rules) -> list[tuple[tuple[Mask, ...], ...] | None]:
    """Each box's legal moves for every throw of THROWS (as `MoveTable.row`), or None for a box not
    met yet, kept for the process: `row_of` works a box's out as it is met (a process that plays
    turns meets a part of the boxes: it makes no table of them all)."""
    return _box_rows(rules.tiles, rules.shut_rule, rules.first_roll)


@cache
def _box_rows(tiles: int, shut_rule: ShutRule, first_roll: FirstRoll) -> list[tuple[tuple[Mask, ...], ...] | None]:
    return [None] * (1 << tiles)


def row_of(rules: Rules, rows: list[tuple[tuple[Mask, ...], ...] | None], box: Mask) -> tuple[tuple[Mask, ...], ...]:
    """A box's row of `box_rows(rules)`, worked out as `MoveTable` works it out, and kept there."""
    required = rules.first_roll.tile
    only = 0 if box != rules.full_box or required is None else 1 << (required - 1)
    row = []
    for throw in THROWS:
        legal = tuple(move for move in _candidates(rules.tiles, rules.shut_rule, throw) if move & box == move)
        row.append(tuple(move for move in legal if move & only) if only else legal)
    found = rows[box] = tuple(row)
    return found


def move_table(rules: Rules) -> MoveTable:
    """The cached move table for a rule set."""
    return _move_table(rules.tiles, rules.shut_rule, rules.first_roll)


@cache
def _move_table(tiles: int, shut_rule: ShutRule, first_roll: FirstRoll) -> MoveTable:
    return MoveTable(tiles, shut_rule, first_roll)


def legal_moves(rules: Rules, open_mask: Mask, throw: tuple[int, ...]) -> tuple[int, ...]:
    """The legal moves for a throw on a box under the given rules."""
    return move_table(rules).moves(open_mask, throw)
