"""A strategy seated at a table: it answers the engine's questions through `View`s,
every answer checked, and a context-free strategy's answers remembered per state."""

from __future__ import annotations

import random
from collections.abc import Sequence

from shutbox_cli.game import Roll, Rules, TurnContext, derive_seed, move_table
from shutbox_cli.game.moves import THROW_INDEX

from .answers import ask_dice, ask_move, make_view
from .base import SOLO_CONTEXT, Strategy
from .errors import StrategyError

__all__ = ["StrategyError", "StrategyPlayer"]


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

    def choose_dice(self, open_mask: int, history: Sequence[Roll] = ()) -> int:
        memo = self._memo_dice
        if memo is not None and open_mask in memo:
            return memo[open_mask]
        view = make_view(self.strategy, self.rules, open_mask, None, (), history, self.context)
        count = ask_dice(self.strategy, view, self.name)
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
        view = make_view(self.strategy, self.rules, open_mask, tuple(sorted(dice)), moves, history, self.context)
        mask = ask_move(self.strategy, view, self.name)
        if memo is not None:
            memo[key] = mask
        return mask

    def move_policy(self, open_mask: int, dice: tuple[int, ...]) -> int:
        """The move for (open mask, dice), for exact analysis of a tabulable strategy."""
        return self.choose_move(open_mask, dice, self._table.moves(open_mask, dice))

    def dice_policy(self, open_mask: int) -> int:
        """The number of dice for an open mask, for exact analysis of a tabulable strategy."""
        return self.choose_dice(open_mask)
