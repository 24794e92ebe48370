"""A tabulable strategy as a table: its answer for every box and throw, asked once, whole.

`tabulate` asks a fresh instance every question of a rule set in a fixed order, the global
random generators seeded from the position before each one and every answer checked (but for a
built-in strategy's: the referee's own code, using no global generator), so the table is a pure
function of (class, parameters, rules): the same in every process, whatever the number of workers.
"""

from __future__ import annotations

import dataclasses
from array import array
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from shutbox_cli.game import THROWS, Rules, dice_options, mask_of, move_table
from shutbox_cli.game.moves import THROW_INDEX
from shutbox_cli.game.terms import Mask, Seed

from .answers import ask_dice, ask_move, tiles_by_mask
from .base import CONTEXT_FREE_VIEW, KEYED_VIEW, Move, Strategy, View, shown_view
from .keys import KeyedContext
from .loading import builtin_class, tabulable
from .seeding import globals_kept, seed_globals

THROW_COUNT = len(THROWS)
NOT_ROLLED = -1
"""In `PolicyTable.next_mask`: the rules do not allow that number of dice with that box."""
_DICE_QUESTION = 31
"""The position key of a mask's dice question (throw indexes are below it)."""
KEPT_TABLES = 32
"""How many tables a process keeps (one on 12 tiles is about 220 KB)."""


@dataclasses.dataclass(frozen=True, eq=False)
class PolicyTable:
    """A strategy's whole policy under one rule set, as lookups.

    `next_mask[mask * THROW_COUNT + throw]` is the box after the throw `THROWS[throw]` from the
    box `mask`: the move's tiles shut, forced moves included; the same box when the throw matches
    nothing (the turn ends); `NOT_ROLLED` when the rules do not allow that number of dice there.
    The shut box (mask 0) stays shut. `dice[mask]` is the number of dice rolled from that box.
    A bulk engine can view them as arrays: `numpy.frombuffer(table.next_mask, numpy.int16)
    .reshape(-1, THROW_COUNT)` and `numpy.frombuffer(table.dice, numpy.uint8)`.
    """

    rules: Rules
    next_mask: array[int]
    dice: bytes

    def move(self, open_mask: Mask, dice: tuple[int, ...]) -> Mask:
        """The move (a mask) for a throw, in either order (0 when it matches nothing)."""
        return open_mask ^ self.next_mask[open_mask * THROW_COUNT + THROW_INDEX[dice]]

    def dice_count(self, open_mask: Mask) -> int:
        """The number of dice rolled from this box."""
        return self.dice[open_mask]


def tabulate(strategy: Strategy, rules: Rules, name: str, context: KeyedContext | None = None) -> PolicyTable:
    """Ask a fresh instance of a tabulable strategy every question of these rules, in ascending
    order of box: how many dice where the rules leave the choice, then the move for every throw
    with two or more legal moves. Raises StrategyError (naming `name`) at a user's strategy's first
    bad answer. A keyed strategy is tabulated for one key: every view shows it that `context`."""
    if context is None and not tabulable(type(strategy), name):
        raise ValueError(f"strategy {name!r} is stochastic or reads the game context: it cannot be tabulated.")
    table = move_table(rules)
    counts = [len(throw) for throw in THROWS]
    tiles = tiles_by_mask(rules.tiles)
    next_mask = array("h", [0] * ((rules.full_box + 1) * THROW_COUNT))
    dice = bytearray(rules.full_box + 1)
    dice[0] = dice_options(rules, 0)[0]
    # A built-in strategy is the referee's own code: its answers need no checks, and it uses no
    # global generator (re-seeding them for it would change no answer). A keyed strategy (never
    # stochastic) has its table's questions in one fixed order: the global generators seeded once
    # per table keep it a pure function of (class, parameters, rules, key).
    builtin = builtin_class(type(strategy))
    ask_dice_of, ask_move_of = (_dice, _move) if builtin else (ask_dice, ask_move)
    seed = _unseeded if builtin or context is not None else seed_globals
    with globals_kept():
        if context is not None:
            seed_globals(0)
        for mask in range(1, rules.full_box + 1):
            options = dice_options(rules, mask)
            open_tiles = tiles[mask]
            if len(options) > 1:
                seed(mask * 32 + _DICE_QUESTION)
                view = _view(rules, open_tiles, None, (), mask, context)
                dice[mask] = ask_dice_of(strategy, view, name, tabulating=True)
            else:
                dice[mask] = options[0]
            base = mask * THROW_COUNT
            for index, moves in enumerate(table.row(mask)):
                if counts[index] not in options:
                    next_mask[base + index] = NOT_ROLLED
                elif len(moves) < 2:
                    next_mask[base + index] = mask & ~moves[0] if moves else mask
                else:
                    seed(mask * 32 + index)
                    legal = tuple(tiles[move] for move in moves)
                    view = _view(rules, open_tiles, THROWS[index], legal, mask, context)
                    next_mask[base + index] = mask & ~ask_move_of(strategy, view, name, tabulating=True)
    return PolicyTable(rules, next_mask, bytes(dice))


def _unseeded(seed: Seed) -> None:
    """Where `tabulate` seeds nothing (a built-in strategy's questions, or a keyed table's after
    its first)."""


def _dice(strategy: Strategy, view: View, name: str, tabulating: bool) -> int:
    """A built-in strategy's number of dice, as it answers."""
    return strategy.choose_dice(view)


def _move(strategy: Strategy, view: View, name: str, tabulating: bool) -> Mask:
    """A built-in strategy's move, as a mask."""
    return mask_of(strategy.choose_move(view))


def solution_table(rules: Rules, moves: tuple[tuple[Mask, ...], ...], dice: tuple[int, ...]) -> PolicyTable:
    """The table of a policy already worked out whole (a solver's: `moves[mask][throw]`, the tiles
    shut, 0 when nothing fits, and `dice[mask]`), the same as asking it every question would give."""
    counts = [len(throw) for throw in THROWS]
    next_mask = array("h", [0] * ((rules.full_box + 1) * THROW_COUNT))
    rolled = bytearray(rules.full_box + 1)
    rolled[0] = dice_options(rules, 0)[0]
    for mask in range(1, rules.full_box + 1):
        options = dice_options(rules, mask)
        rolled[mask] = dice[mask] if len(options) > 1 else options[0]
        row = moves[mask]
        next_mask[mask * THROW_COUNT : (mask + 1) * THROW_COUNT] = array(
            "h", [mask & ~row[index] if counts[index] in options else NOT_ROLLED for index in range(THROW_COUNT)]
        )
    return PolicyTable(rules, next_mask, bytes(rolled))


def keyed_table(strategy: Strategy, rules: Rules, name: str, context: KeyedContext) -> PolicyTable:
    """A keyed strategy's table for one key: asked every question, or, for a built-in that plays
    a solver's policy (`_solved_for`, not part of the contract), that policy's table."""
    solved = getattr(type(strategy), "_solved_for", None)
    if solved is None:
        return tabulate(strategy, rules, name, context)
    solution = solved(strategy, rules, context)
    return solution_table(rules, solution.moves, solution.dice)


def _view(
    rules: Rules,
    open_tiles: tuple[int, ...],
    dice: tuple[int, ...] | None,
    legal: tuple[Move, ...],
    mask: Mask,
    context: KeyedContext | None,
) -> View:
    if context is None:
        return shown_view(CONTEXT_FREE_VIEW, rules, open_tiles, dice, legal, mask)
    return shown_view(KEYED_VIEW, rules, open_tiles, dice, legal, mask, context=context)


_kept: OrderedDict[tuple[Any, ...], PolicyTable] = OrderedDict()


def policy_table(strategy: Strategy, rules: Rules, name: str, params: Mapping[str, Any] | None = None) -> PolicyTable:
    """The strategy's table under these rules. Given the parameters it was built with (a fresh
    instance), the table is kept in this process for every instance of the same class and
    parameters; without them, it is tabulated for this instance alone."""
    if params is None:
        return tabulate(strategy, rules, name)
    key = (type(strategy), tuple(sorted((key, repr(value)) for key, value in params.items())), rules)
    found = _kept.get(key)
    if found is None:
        found = _kept[key] = tabulate(strategy, rules, name)
        if len(_kept) > KEPT_TABLES:
            _kept.popitem(last=False)
    else:
        _kept.move_to_end(key)
    return found
