"""A strategy seated at a table: it answers the engine's questions through `View`s, every answer
checked. A tabulable strategy answers from its table, built whole on its first question; any
other is asked every time, with the global random generators seeded for the turn. Its nature is
read once, from its class, when it is seated: a strategy's code runs only when it is asked."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from shutbox_cli.game import Roll, Rules, TurnContext, derive_seed
from shutbox_cli.game.box import dice_table
from shutbox_cli.game.moves import move_table
from shutbox_cli.game.terms import GameNumber, Mask, Seed

from .answers import ask_dice, ask_move, tiles_by_mask
from .base import CONTEXT_FREE_VIEW, CONTEXT_VIEW, KEYED_VIEW, SOLO_CONTEXT, Move, Strategy, View, shown_view
from .errors import StrategyError
from .keys import KeyedContext, declared_key, keyed_context
from .loading import builtin_class, tabulable
from .seeding import seed_globals_for
from .table import PolicyTable, keyed_table, policy_table

__all__ = ["StrategyError", "StrategyPlayer"]


class StrategyPlayer:
    """Adapts a `Strategy` to the engine's Chooser protocol for one rule set.

    Give it a fresh instance; with the `params` it was built with, a tabulable strategy's
    table is shared with every player of the same class and parameters in this process.
    """

    def __init__(
        self, strategy: Strategy, rules: Rules, name: str | None = None, *, params: Mapping[str, Any] | None = None
    ) -> None:
        cls = type(strategy)
        self.strategy = strategy
        self.rules = rules
        self.name = name or cls.name or cls.__name__
        self.context: TurnContext | KeyedContext = SOLO_CONTEXT
        self._params = params
        self._tabulable = tabulable(cls, self.name)
        self.key = declared_key(cls, rules, self.name)
        """The features of the game it is shown (None: the whole context, or none, as it declares)."""
        self._reads_context = cls.reads_context or self.key is not None
        self._policy: PolicyTable | None = None
        self._tiles = tiles_by_mask(rules.tiles)
        self._dice_options = dice_table(rules)
        self._moves = move_table(rules)
        self._legal: dict[tuple[Mask, ...], tuple[Move, ...]] = {}
        # A built-in strategy never draws from the global generators: seeding them changes nothing.
        self._seeds_globals = not builtin_class(cls)
        self.solved = not self._seeds_globals and not cls.stochastic and hasattr(cls, "_solved_for")
        """Whether it plays a solver's policy for each turn (`_solved_for(rules, context)`, a built-in's
        alone), which answers every question of the turn as asking it would."""
        # Kept here and reseeded by the referee: a strategy's own `rng` property is never asked.
        self._rng = random.Random(0) if cls.stochastic else None
        if self._rng is not None:
            object.__setattr__(strategy, "_rng", self._rng)  # what the base class's rng reads

    @property
    def policy(self) -> PolicyTable:
        """The strategy's table under these rules, built whole on first use (tabulable strategies only)."""
        if self._policy is None:
            self._policy = policy_table(self.strategy, self.rules, self.name, self._params)
        return self._policy

    def start_turn(self, context: TurnContext, seed: Seed, game: GameNumber) -> StrategyPlayer:
        """Prepare for a turn: the context it is played in and, unless it plays from its table,
        its own random generator and (where its code could draw from them) the global ones,
        seeded for this seat's turn; a keyed strategy is shown only its key's features."""
        self.context = context if self.key is None else keyed_context(context, self.key)
        if not self._tabulable:
            if self._seeds_globals:
                seed_globals_for("global random", seed, game, context.round, context.seat)
            if self._rng is not None:
                self._rng.seed(derive_seed("strategy", seed, game, context.round, context.seat))
        return self

    def answer_turn(self, rolls: Iterator[tuple[int, int]], answers: list[int]) -> None:
        """Play the turn started (`start_turn`) on these dice as `play_turn` plays it, adding each
        answer the strategy gives to `answers` in order (a host's turns: the referee checks them)."""
        options_of, table, reads = self._dice_options, self._moves, self._reads_context
        open_mask = self.rules.full_box
        history: list[Roll] = []
        while True:
            options = options_of[open_mask]
            if len(options) > 1:
                count = self.choose_dice(open_mask, history)
                answers.append(count)
            else:
                count = options[0]
            dice = next(rolls)[:count]
            moves = table.moves(open_mask, dice)
            if not moves:
                return
            if len(moves) > 1:
                move = self.choose_move(open_mask, dice, moves, history)
                answers.append(move)
            else:
                move = moves[0]
            if reads:  # the turn so far: only a strategy that reads the context sees it
                history.append(Roll(dice, move))
            open_mask &= ~move
            if not open_mask:
                return

    def choose_dice(self, open_mask: Mask, history: Sequence[Roll] = ()) -> int:
        if self._tabulable:
            return self.policy.dice[open_mask]
        return ask_dice(self.strategy, self._view(open_mask, None, (), history), self.name)

    def choose_move(
        self, open_mask: Mask, dice: tuple[int, ...], moves: tuple[Mask, ...], history: Sequence[Roll] = ()
    ) -> Mask:
        if self._tabulable:
            return self.policy.move(open_mask, dice)
        if len(dice) == 2 and dice[0] > dice[1]:
            dice = (dice[1], dice[0])
        return ask_move(self.strategy, self._view(open_mask, dice, moves, history), self.name)

    def _view(
        self, open_mask: Mask, dice: tuple[int, ...] | None, moves: tuple[Mask, ...], history: Sequence[Roll]
    ) -> View:
        """The view of a decision, its legal moves as tiles worked out once per set of moves."""
        legal = self._legal.get(moves)
        if legal is None:
            legal = self._legal[moves] = tuple(self._tiles[move] for move in moves)
        open_tiles = self._tiles[open_mask]
        if isinstance(self.context, KeyedContext):
            return shown_view(KEYED_VIEW, self.rules, open_tiles, dice, legal, open_mask, context=self.context)
        if self._reads_context:
            return shown_view(
                CONTEXT_VIEW, self.rules, open_tiles, dice, legal, open_mask, tuple(history), self.context
            )
        return shown_view(CONTEXT_FREE_VIEW, self.rules, open_tiles, dice, legal, open_mask)

    def keyed_policy(self, values: tuple[Any, ...]) -> PolicyTable:
        """A keyed strategy's table for the key with these feature values, asked whole of this instance."""
        assert self.key is not None
        return keyed_table(self.strategy, self.rules, self.name, KeyedContext(self.key, values))

    def move_policy(self, open_mask: Mask, dice: tuple[int, ...]) -> Mask:
        """The move for (open mask, dice), for exact analysis of a tabulable strategy."""
        return self.policy.move(open_mask, dice)

    def dice_policy(self, open_mask: Mask) -> int:
        """The number of dice for an open mask, for exact analysis of a tabulable strategy."""
        return self.policy.dice[open_mask]
