"""Helpers for strategy tests: the view a strategy is shown, and a strategy's policy as masks."""

from __future__ import annotations

from shutbox_cli.game import Rules, TurnContext, mask_of, move_table, tiles_of
from strategies import Strategy, View
from strategies.base import SOLO_CONTEXT


def view(
    rules: Rules, open_tiles: tuple[int, ...], dice: tuple[int, ...] | None, context: TurnContext = SOLO_CONTEXT
) -> View:
    """The view of one decision: a move for `dice`, or the number of dice when `dice` is None."""
    moves = () if dice is None else move_table(rules).moves(mask_of(open_tiles), tuple(sorted(dice)))
    return View(
        rules,
        tuple(sorted(open_tiles)),
        None if dice is None else tuple(sorted(dice)),
        tuple(tiles_of(move) for move in moves),
        (),
        context,
    )


def move(
    strategy: Strategy,
    rules: Rules,
    open_tiles: tuple[int, ...],
    dice: tuple[int, ...],
    context: TurnContext = SOLO_CONTEXT,
) -> tuple[int, ...]:
    """The strategy's move, checked to be legal."""
    shown = view(rules, open_tiles, dice, context)
    chosen = strategy.choose_move(shown)
    assert chosen in shown.legal_moves
    return chosen


def policies(strategy: Strategy, rules: Rules, context: TurnContext = SOLO_CONTEXT):
    """The strategy as the (move, dice) policies of masks that the exact solver takes."""

    def choose_move(open_mask: int, dice: tuple[int, ...]) -> int:
        return mask_of(move(strategy, rules, tiles_of(open_mask), dice, context))

    def choose_dice(open_mask: int) -> int:
        return strategy.choose_dice(view(rules, tiles_of(open_mask), None, context))

    return choose_move, choose_dice
