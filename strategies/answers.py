"""Asking a strategy one question: the view it is shown (without the turn and the context unless
it reads them), its answer checked, and a `StrategyError` naming it for anything else.

Whatever the strategy does is caught: any exception it raises (a BaseException too: SystemExit,
GeneratorExit, a KeyboardInterrupt of its own), an answer whose methods raise or never end, and
a view it rewrote so that a wrong answer looks right: answers are judged against the referee's
own copy of the question. Only the runner's time limit and a real Ctrl-C go through."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Collection, Mapping, Sequence
from functools import cache

from shutbox_cli.game import Roll, Rules, TurnContext, mask_of, tiles_of
from shutbox_cli.game.box import dice_table
from shutbox_cli.game.terms import Mask

from .base import CONTEXT_FREE_VIEW, CONTEXT_VIEW, KEYED_VIEW, Move, Strategy, View, shown_view
from .errors import StrategyError
from .guard import raised_by_strategy
from .keys import KeyedContext


@cache
def tiles_by_mask(tiles: int) -> tuple[tuple[int, ...], ...]:
    """`tiles_of(mask)` for every mask of a box, worked out once: views are built for every question."""
    return tuple(tiles_of(mask) for mask in range(1 << tiles))


@cache
def masks_by_tiles(tiles: int) -> dict[tuple[int, ...], Mask]:
    """Every move of a box (its tiles lowest first) and its mask: an answer is checked by lookup."""
    return {move: mask for mask, move in enumerate(tiles_by_mask(tiles))}


def make_view(
    strategy: Strategy,
    rules: Rules,
    open_mask: Mask,
    dice: tuple[int, ...] | None,
    moves: tuple[Mask, ...],
    history: Sequence[Roll],
    context: TurnContext | KeyedContext,
    reads_context: bool | None = None,
) -> View:
    """The view of one decision as this strategy may see it (`dice` sorted, `moves` as masks);
    `reads_context` as its class declares it (read from the class when not given). A keyed
    strategy is given its features (a `KeyedContext`) for the context."""
    tiles = tiles_by_mask(rules.tiles)
    legal = tuple(tiles[move] for move in moves)
    if isinstance(context, KeyedContext):
        return shown_view(KEYED_VIEW, rules, tiles[open_mask], dice, legal, open_mask, context=context)
    if type(strategy).reads_context if reads_context is None else reads_context:
        return shown_view(CONTEXT_VIEW, rules, tiles[open_mask], dice, legal, open_mask, tuple(history), context)
    return shown_view(CONTEXT_FREE_VIEW, rules, tiles[open_mask], dice, legal, open_mask)


def _whole(value: object) -> int | None:
    """`value` as a plain int if it is a whole number (an int, a numpy integer), never a bool."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]  # always a plain int, whatever the class
    except Exception:  # an answer's __index__ may raise anything
        return None


def _as_move(answer: object, most: int) -> Move | None:
    """The answer as a sorted tuple of at most `most` tiles, or None if it is not a collection of
    whole numbers. It is read no further than its length says, so an endless one ends."""
    if isinstance(answer, (str, bytes, Mapping)) or not isinstance(answer, Collection):
        return None
    count = len(answer)
    if count > most:
        return None
    items = list(itertools.islice(answer, count + 1))
    tiles = [tile for tile in map(_whole, items) if tile is not None]
    return tuple(sorted(tiles)) if len(tiles) == count == len(items) else None


def _failed(error: BaseException) -> None:
    """Let the runner's time limit and a real Ctrl-C through; anything else the strategy did is its failure."""
    if not raised_by_strategy(error):
        raise error


def _error(
    rules: Rules,
    open_mask: Mask,
    dice: tuple[int, ...] | None,
    legal: tuple[Move, ...],
    failure: tuple[str, object, str, BaseException | None, bool],
) -> StrategyError:
    """The failure (name, answer, problem, error raised, tabulating), with the question as the
    referee asked it: its own copy, taken before the strategy was asked, which the view it was
    shown may no longer say."""
    asked = shown_view(CONTEXT_FREE_VIEW, rules, tiles_of(open_mask), dice, legal, open_mask)
    name, answer, problem, raised, tabulating = failure
    return StrategyError(name, asked, answer, problem, raised, tabulating=tabulating)


def ask_move(strategy: Strategy, view: View, name: str, tabulating: bool = False) -> int:
    """The strategy's move for the view, as a mask; StrategyError if it raises or answers wrong.
    A tuple of plain ints is checked by lookup; anything else is read with care."""
    rules, open_mask, dice, legal = view.rules, view.open_mask, view.dice, view.legal_moves
    try:
        answer: object = strategy.choose_move(view)
    except BaseException as error:  # a user's strategy may raise anything, or call sys.exit
        _failed(error)
        raise _error(rules, open_mask, dice, legal, (name, None, "raised an error", error, tabulating)) from error
    if type(answer) is tuple:
        for tile in answer:
            if type(tile) is not int:
                break
        else:
            mask = masks_by_tiles(rules.tiles).get(answer)
            if mask is not None and answer in legal:
                return mask
    try:
        move = _as_move(answer, rules.tiles)
    except BaseException as error:  # an answer's __len__, __iter__, __class__ ... may raise anything
        _failed(error)
        move = None
    if move is None or move not in legal:
        problem = "answered with something other than one of the legal moves"
        raise _error(rules, open_mask, dice, legal, (name, answer, problem, None, tabulating))
    return mask_of(move)


def ask_dice(strategy: Strategy, view: View, name: str, tabulating: bool = False) -> int:
    """The strategy's number of dice for the view; StrategyError if it raises or answers wrong."""
    rules, open_mask, dice, legal = view.rules, view.open_mask, view.dice, view.legal_moves
    try:
        answer: object = strategy.choose_dice(view)
    except BaseException as error:  # a user's strategy may raise anything, or call sys.exit
        _failed(error)
        raise _error(rules, open_mask, dice, legal, (name, None, "raised an error", error, tabulating)) from error
    options = dice_table(rules)[open_mask]
    if type(answer) is int and answer in options:
        return answer
    try:
        count = _whole(answer)
    except BaseException as error:  # an answer's __class__ may raise anything
        _failed(error)
        count = None
    if count is None or count not in options:
        problem = f"chose a number of dice other than {' or '.join(map(str, options))}"
        raise _error(rules, open_mask, dice, legal, (name, answer, problem, None, tabulating))
    return count
