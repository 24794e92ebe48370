"""Reading the tiles a player types: `3 6`, `3,6`, `3+6`, and `36` on boxes of up to 9 tiles
(examples shown only where the rules allow them: one tile under the one-tile rule, tiles of the box).

Every mistake becomes an `EntryError` of one sentence; a selection that adds up to less
than the roll, and could still grow into a legal move, comes back incomplete.
"""

from __future__ import annotations

import dataclasses
import re

from shutbox_cli.game.terms import Mask

from ...game import Rules, ShutRule, mask_of, tiles_of
from ...game.rules import MAX_TILES
from .board import move_text

_SEPARATORS = re.compile(r"[\s,+]+")


class EntryError(ValueError):
    """What a player typed cannot be used; the message is one sentence."""


@dataclasses.dataclass(frozen=True, slots=True)
class Selection:
    """Tiles chosen for a roll: a whole legal move, or the start of one."""

    mask: Mask
    complete: bool

    @property
    def tiles(self) -> tuple[int, ...]:
        return tiles_of(self.mask)

    @property
    def total(self) -> int:
        return sum(self.tiles)


def how_to_type(rules: Rules) -> str:
    """How to type a shut, as a sentence whose examples are shuts these rules allow: one tile under
    the one-tile rule, else two tiles of the box (that two dice can show), typed each way accepted."""
    if rules.shut_rule is ShutRule.ONE_TILE:
        return f"Type the tile to shut, such as {min(6, rules.tiles)}."
    return f"Type the tiles to shut as {_examples(rules)}."


def _examples(rules: Rules) -> str:
    """Two tiles typed each way accepted: `3 6, 3,6, 3+6 or 36` (the digits alone on boxes up to 9)."""
    high = min(6, rules.tiles)
    low = min(3, high - 1)
    forms = [f"{low} {high}", f"{low},{high}", f"{low}+{high}"]
    if rules.tiles <= 9:
        forms.append(f"{low}{high}")
    return f"{', '.join(forms[:-1])} or {forms[-1]}"


def read_tiles(text: str, rules: Rules) -> tuple[int, ...]:
    """The tile numbers typed, in the order typed.

    On boxes of up to 9 tiles a number made of digits 1 to 9 is read digit by digit (`36`
    is 3 and 6), unless it has more digits than the box has tiles; anything with a 0 stays a
    number, so `10` is tile 10 and is refused as such.
    """
    tiles = rules.tiles
    tokens = [token for token in _SEPARATORS.split(text.strip()) if token]
    if not tokens or not all(token.isascii() and token.isdigit() for token in tokens):
        if rules.shut_rule is ShutRule.ONE_TILE:
            raise EntryError(f"Type the tile to shut as a number, such as {min(6, tiles)}; ? lists the choices.")
        raise EntryError(f"Type the tiles to shut as numbers, such as {_examples(rules)}; ? lists the combinations.")
    numbers: list[int] = []
    for token in tokens:
        if tiles <= 9 and "0" not in token and len(token) <= tiles:
            numbers.extend(int(digit) for digit in token)
            continue
        digits = token.lstrip("0") or "0"
        if len(digits) > len(str(MAX_TILES)):  # no tile at all, and int() refuses 4300 digits
            shown = digits if len(digits) <= 9 else f"{digits[:9]}..."
            raise EntryError(no_such_tile(shown, tiles))
        numbers.append(int(digits))
    return tuple(numbers)


def no_such_tile(tile: int | str, tiles: int) -> str:
    """The sentence for a tile number that is not on the box."""
    return f"There is no tile {tile}: the box has tiles 1 to {tiles}."


def check_selection(
    rules: Rules, open_mask: Mask, dice: tuple[int, ...], moves: tuple[Mask, ...], typed: tuple[int, ...]
) -> Selection:
    """Check typed tiles against the box and the roll: a legal move, a good start, or an EntryError."""
    seen: list[int] = []
    for tile in typed:
        if not 1 <= tile <= rules.tiles:
            raise EntryError(no_such_tile(tile, rules.tiles))
        if tile in seen:
            raise EntryError(f"Tile {tile} is typed twice; each tile can be shut only once.")
        if not open_mask >> (tile - 1) & 1:
            raise EntryError(f"Tile {tile} is already shut.")
        seen.append(tile)
    mask = mask_of(seen)
    if mask in moves:
        return Selection(mask, complete=True)
    chosen = move_text(sorted(seen))
    roll = sum(dice)
    if rules.shut_rule is ShutRule.ONE_TILE:
        faces = " or ".join(map(str, sorted({*dice, roll})))
        raise EntryError(f"Under the one-tile rule you shut a single tile matching {faces}; ? lists them.")
    total = sum(seen)
    if total > roll:
        if len(seen) == 1:
            raise EntryError(f"{chosen} is more than {roll}.")
        raise EntryError(f"{chosen} make {total}, which is more than {roll}.")
    if total == roll:
        raise EntryError(_not_allowed(rules, open_mask, dice, seen))
    if not any(move & mask == mask for move in moves):
        raise EntryError(f"No combination for {roll} includes {chosen}; ? lists them.")
    return Selection(mask, complete=False)


def _not_allowed(rules: Rules, open_mask: Mask, dice: tuple[int, ...], seen: list[int]) -> str:
    """Why tiles that add up to the roll may still not be shut."""
    required = rules.first_roll.tile
    if required is not None and open_mask == rules.full_box and required not in seen:
        return f"The first shut of a turn must include the {required} ({rules.first_roll.value}); ? lists them."
    chosen = move_text(sorted(seen))
    if len(dice) == 1:
        return f"Under the dice-or-total rule one die shuts only the {dice[0]}, not {chosen}."
    if dice[0] != dice[1]:
        return (
            f"Under the dice-or-total rule you shut the {sum(dice)}, or the {dice[0]} and the {dice[1]}, not {chosen}."
        )
    return f"Under the dice-or-total rule a double shuts only the {sum(dice)}, not {chosen}."


def extend_selection(
    rules: Rules,
    open_mask: Mask,
    dice: tuple[int, ...],
    moves: tuple[Mask, ...],
    started: int,
    typed: tuple[int, ...],
) -> Selection:
    """Add typed tiles to a selection begun earlier; typed tiles that repeat one of it start afresh.

    So after `3` for a roll of 9, typing `6` shuts 3 and 6, and typing `3 6` (the whole
    move again) does the same, while `4 5` is refused as 3 + 4 + 5.
    """
    if started and not set(typed) & set(tiles_of(started)):
        typed = tiles_of(started) + typed
    return check_selection(rules, open_mask, dice, moves, typed)
