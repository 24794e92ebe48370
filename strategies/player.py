"""A strategy seated at a table: it answers the engine's questions through `View`s,
every answer checked, and a context-free strategy's answers remembered per state."""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Collection, Mapping, Sequence

from shutbox_cli.game import Roll, Rules, TurnContext, derive_seed, mask_of, move_table, tiles_of
from shutbox_cli.game.moves import THROW_INDEX

from .base import SOLO_CONTEXT, Move, Strategy, View
from .loading import cause


class StrategyError(Exception):
    """A strategy raised, or answered with something the rules do not allow.

    The message names the strategy, the open tiles, the dice, and the answer (or the error raised).
    """

    def __init__(
        self, name: str, view: View, answer: object, problem: str, raised: BaseException | None = None
    ) -> None:
        dice = "not rolled yet" if view.dice is None else "+".join(map(str, view.dice))
        tiles = " ".join(map(str, view.open_tiles)) or "none"
        if isinstance(raised, SystemExit):
            problem, said = f"called sys.exit({raised.code!r})", "a strategy must answer, not end the program."
        else:
            said = f"it answered {answer!r}." if raised is None else cause(raised)
        super().__init__(f"strategy {name!r} {problem} with open tiles {tiles} and dice {dice}: {said}")
        self.name = name
        self.view = view
        self.answer = answer


def _whole(value: object) -> int | None:
    """`value` as an int if it is a whole number (an int, a numpy integer), never a bool."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def _as_move(answer: object) -> Move | None:
    """The answer as a sorted tuple of tiles, or None if it is not a collection of whole numbers."""
    if isinstance(answer, (str, bytes, Mapping)) or not isinstance(answer, Collection):
        return None
    tiles = tuple(sorted(tile for tile in map(_whole, answer) if tile is not None))
    return tiles if len(tiles) == len(answer) else None


class StrategyPlayer:
    """Adapts a `Strategy` to the engine's Chooser protocol for one rule set."""

    def __init__(self, strategy: Strategy, rules: Rules, name: str | None = None) -> None:
        self.strategy = strategy
        self.rules = rules
        self.name = name or strategy.name or type(strategy).__name__
        self.context = SOLO_CONTEXT
        self._table = move_table(rules)
        # Moves by (open mask, throw index): THROW_INDEX gives (2, 5) and (5, 2) the same index.
        self._memo_moves: dict[tuple[int, int], int] | None = {} if strategy.tabulable() else None
        self._memo_dice: dict[int, int] | None = {} if strategy.tabulable() else None
        if strategy.stochastic:
            strategy.rng = random.Random(0)

    def start_turn(self, context: TurnContext, seed: int, game: int) -> StrategyPlayer:
        """Prepare for a turn: the context it is played in, and a fresh strategy generator."""
        self.context = context
        if self.strategy.stochastic:
            self.strategy.rng.seed(derive_seed("strategy", seed, game, context.round, context.seat))
        return self

    def _view(
        self, open_mask: int, dice: tuple[int, ...] | None, moves: tuple[int, ...], history: Sequence[Roll]
    ) -> View:
        return View(
            self.rules,
            tiles_of(open_mask),
            dice,
            tuple(tiles_of(move) for move in moves),
            tuple(history),
            self.context,
            open_mask=open_mask,
        )

    def _ask(self, question: Callable[[View], object], view: View) -> object:
        """The strategy's answer to one question; an error it raises (or sys.exit) names it."""
        try:
            return question(view)
        except (Exception, SystemExit) as error:  # a user's strategy may raise anything, or call sys.exit
            raise StrategyError(self.name, view, None, "raised an error", error) from error

    def choose_dice(self, open_mask: int, history: Sequence[Roll] = ()) -> int:
        memo = self._memo_dice
        if memo is not None and open_mask in memo:
            return memo[open_mask]
        view = self._view(open_mask, None, (), history)
        answer = self._ask(self.strategy.choose_dice, view)
        count = _whole(answer)
        if count is None or count not in view.dice_options:
            allowed = " or ".join(map(str, view.dice_options))
            raise StrategyError(self.name, view, answer, f"chose a number of dice other than {allowed}")
        if memo is not None:
            memo[open_mask] = count
        return count

    def choose_move(
        self, open_mask: int, dice: tuple[int, ...], moves: tuple[int, ...], history: Sequence[Roll] = ()
    ) -> int:
        memo = self._memo_moves
        if memo is not None:
            key = (open_mask, THROW_INDEX[dice])
            known = memo.get(key)
            if known is not None:
                return known
        view = self._view(open_mask, tuple(sorted(dice)), moves, history)
        answer = self._ask(self.strategy.choose_move, view)
        move = _as_move(answer)
        if move is None or move not in view.legal_moves:
            raise StrategyError(self.name, view, answer, "answered with something other than one of the legal moves")
        mask = mask_of(move)
        if memo is not None:
            memo[key] = mask
        return mask

    def move_policy(self, open_mask: int, dice: tuple[int, ...]) -> int:
        """The move for (open mask, dice), for exact analysis of a tabulable strategy."""
        return self.choose_move(open_mask, dice, self._table.moves(open_mask, dice))

    def dice_policy(self, open_mask: int) -> int:
        """The number of dice for an open mask, for exact analysis of a tabulable strategy."""
        return self.choose_dice(open_mask)
