"""Asking a strategy one question: the view it is shown (without the turn and the context unless
it reads them), its answer checked, and a `StrategyError` naming it for anything else."""

from __future__ import annotations

import operator
from collections.abc import Collection, Mapping, Sequence
from functools import cache

from shutbox_cli.game import Roll, Rules, TurnContext, mask_of, tiles_of

from .base import Move, Strategy, View, context_free_view
from .errors import StrategyError


@cache
def tiles_by_mask(tiles: int) -> tuple[tuple[int, ...], ...]:
    """`tiles_of(mask)` for every mask of a box, worked out once: views are built for every question."""
    return tuple(tiles_of(mask) for mask in range(1 << tiles))


def make_view(
    strategy: Strategy,
    rules: Rules,
    open_mask: int,
    dice: tuple[int, ...] | None,
    moves: tuple[int, ...],
    history: Sequence[Roll],
    context: TurnContext,
) -> View:
    """The view of one decision as this strategy may see it (`dice` sorted, `moves` as masks)."""
    tiles = tiles_by_mask(rules.tiles)
    legal = tuple(tiles[move] for move in moves)
    if type(strategy).reads_context:
        return View(rules, tiles[open_mask], dice, legal, tuple(history), context, open_mask=open_mask)
    return context_free_view(rules, tiles[open_mask], dice, legal, open_mask)


def _whole(value: object) -> int | None:
    """`value` as an int if it is a whole number (an int, a numpy integer), never a bool."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except Exception:  # an answer's __index__ may raise anything
        return None


def _as_move(answer: object) -> Move | None:
    """The answer as a sorted tuple of tiles, or None if it is not a collection of whole numbers."""
    try:
        if isinstance(answer, (str, bytes, Mapping)) or not isinstance(answer, Collection):
            return None
        tiles = tuple(sorted(tile for tile in map(_whole, answer) if tile is not None))
        return tiles if len(tiles) == len(answer) else None
    except Exception:  # an answer's __len__ or __iter__ may raise anything
        return None


def ask_move(strategy: Strategy, view: View, name: str, tabulating: bool = False) -> int:
    """The strategy's move for the view, as a mask; StrategyError if it raises or answers wrong."""
    try:
        answer: object = strategy.choose_move(view)
    except (Exception, SystemExit) as error:  # a user's strategy may raise anything, or call sys.exit
        raise StrategyError(name, view, None, "raised an error", error, tabulating=tabulating) from error
    move = _as_move(answer)
    if move is None or move not in view.legal_moves:
        raise StrategyError(
            name, view, answer, "answered with something other than one of the legal moves", tabulating=tabulating
        )
    return mask_of(move)


def ask_dice(strategy: Strategy, view: View, name: str, tabulating: bool = False) -> int:
    """The strategy's number of dice for the view; StrategyError if it raises or answers wrong."""
    try:
        answer: object = strategy.choose_dice(view)
    except (Exception, SystemExit) as error:  # a user's strategy may raise anything, or call sys.exit
        raise StrategyError(name, view, None, "raised an error", error, tabulating=tabulating) from error
    count = _whole(answer)
    options = view.dice_options
    if count is None or count not in options:
        allowed = " or ".join(map(str, options))
        raise StrategyError(name, view, answer, f"chose a number of dice other than {allowed}", tabulating=tabulating)
    return count
