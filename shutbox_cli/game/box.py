"""The box as an int bitmask (tile k is bit k-1): tiles, scores and the one-die rule."""

from __future__ import annotations

from functools import cache

from .rules import HIGH_TILE, MAX_TILES, ONE_DIE_LOW_SUM, OneDie, OneDieMode, Rules, Scoring
from .terms import Mask, Tile


def _tiles(mask: Mask) -> tuple[Tile, ...]:
    return tuple(bit + 1 for bit in range(mask.bit_length()) if mask >> bit & 1)


def _every_box() -> tuple[tuple[Tile, ...], ...]:
    """The tiles of every box up to MAX_TILES, each from the box without its lowest tile (made
    at import: eight times faster than working out each box alone)."""
    found: list[tuple[Tile, ...]] = [()]
    for mask in range(1, 1 << MAX_TILES):
        lowest = mask & -mask
        found.append((lowest.bit_length(), *found[mask ^ lowest]))
    return tuple(found)


_TILES = _every_box()
"""The tiles of every box: asked at every decision, so looked up rather than worked out."""


def tiles_of(mask: Mask) -> tuple[Tile, ...]:
    """The tile numbers in a mask, lowest first."""
    return _TILES[mask] if 0 <= mask < len(_TILES) else _tiles(mask)


def mask_of(tiles: object) -> Mask:
    """The mask of an iterable of tile numbers."""
    mask = 0
    for tile in tiles:  # type: ignore[attr-defined]
        mask |= 1 << (tile - 1)
    return mask


def tile_sum(mask: Mask) -> int:
    """The sum of the tile numbers in a mask."""
    return sum(tiles_of(mask))


def score(rules: Rules, open_mask: Mask) -> int:
    """The score of a turn that ended with these tiles open (0 for a shut box)."""
    return _score_table(rules.tiles, rules.scoring)[open_mask]


@cache
def _score_table(tiles: int, scoring: Scoring) -> tuple[int, ...]:
    return tuple(scoring.of(tiles_of(mask)) for mask in range(1 << tiles))


def one_die_allowed(rules: Rules, open_mask: Mask) -> bool:
    """Whether the rules let the player roll one die with these tiles open."""
    if rules.one_die is OneDie.HIGH_TILES:
        return open_mask >> (HIGH_TILE - 1) == 0
    if rules.one_die is OneDie.LOW_SUM:
        return tile_sum(open_mask) <= ONE_DIE_LOW_SUM
    return False


def dice_options(rules: Rules, open_mask: Mask) -> tuple[int, ...]:
    """The numbers of dice the player may roll next: (2,), (1,) or (1, 2)."""
    return dice_table(rules)[open_mask]


def dice_table(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """`dice_options` for every mask, computed once per one-die rule (it is asked every roll)."""
    return _dice_table(rules.tiles, rules.one_die, rules.one_die_mode)


@cache
def _dice_table(tiles: int, one_die: OneDie, mode: OneDieMode) -> tuple[tuple[int, ...], ...]:
    rules = Rules(tiles=tiles, one_die=one_die, one_die_mode=mode)
    one = (1,) if mode is OneDieMode.COMPULSORY else (1, 2)
    return tuple(one if one_die_allowed(rules, mask) else (2,) for mask in range(1 << tiles))
