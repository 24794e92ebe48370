"""A strategy seated at a table: it answers the engine's questions through `View`s, every answer
checked. A tabulable strategy answers from its table, built whole on its first question; any
other is asked every time, with the global random generators seeded for the turn. Its nature is
read once, from its class, when it is seated: a strategy's code runs only when it is asked."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, cast

from shutbox_cli.game import Roll, Rules, TurnContext, derive_seed
from shutbox_cli.game.box import dice_table
from shutbox_cli.game.dice import PAIRS
from shutbox_cli.game.match import turn_context
from shutbox_cli.game.moves import THROWS_BY, box_rows, row_of
from shutbox_cli.game.rules import FirstRoll, ShutRule
from shutbox_cli.game.terms import GameNumber, Mask, Seed

from .answers import ask_dice, ask_move, tiles_by_mask
from .base import (
    CONTEXT_FREE_VIEW,
    CONTEXT_VIEW,
    HIDDEN_CONTEXT,
    HIDDEN_TURN,
    KEYED_VIEW,
    SOLO_CONTEXT,
    VIEW_SETTERS,
    Move,
    Strategy,
    View,
    shown_view,
)
from .errors import StrategyError
from .keys import KeyedContext, declared_key, keyed_context
from .loading import builtin_class, tabulable
from .seeding import seed_globals_for
from .table import PolicyTable, keyed_table, policy_table

__all__ = ["StrategyError", "StrategyPlayer"]

_set_rules, _set_tiles, _set_dice, _set_moves, _set_turn, _set_context, _set_mask = VIEW_SETTERS

ROLLED = tuple(tuple(pair[:count] for pair in PAIRS) for count in (1, 2))
"""The dice an outcome code (`dice.PAIRS`) rolls with one die and with two, as rolled."""
SHOWN = tuple(tuple(tuple(sorted(dice)) for dice in rolled) for rolled in ROLLED)
"""The same dice lowest first, as a view shows them."""
DealtTurn = tuple[tuple[Any, ...], Seed, GameNumber, bytes]
"""A turn to play: its context's fields (`match.turn_context`'s), its dice stream (seed and game)
and every roll it can use (one byte each, the outcome code `dice.PAIRS` reads)."""
Decision = Mask | tuple[()] | tuple[tuple[Mask, ...], tuple[Move, ...], dict[int, Mask], tuple[int, ...]]
"""What a throw on a box asks (`StrategyPlayer._decided`)."""


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
        self._rows = box_rows(rules)
        self._legal, self._legal_ids = _legal_tiles(rules.tiles)
        self._decision = _decisions(rules.tiles, rules.shut_rule, rules.first_roll)
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
            self._seed(seed, game, context.round, context.seat)
        return self

    def _seed(self, seed: Seed, game: GameNumber, round_number: int, seat: int) -> None:
        """Seed the strategy's own generator and (where its code could draw from them) the global
        ones for a seat's turn."""
        if self._seeds_globals:
            seed_globals_for("global random", seed, game, round_number, seat)
        if self._rng is not None:
            self._rng.seed(derive_seed("strategy", seed, game, round_number, seat))

    def answer_turns(self, turns: Iterable[DealtTurn], given: list[int], counts: list[int]) -> None:
        """Play these turns in order, each as `play_turn` plays it on the dice dealt for it, the
        player started for it as `start_turn` starts it: each answer the strategy gives is added
        to `given` in order, and each turn's number of answers to `counts` once it is played in
        full (a host's turns: the referee checks them). A failure ends them: the answers given in
        the turn that failed are the last of `given`, past those `counts` counts.

        A strategy asked every time is shown a view of each decision made here (`shown_view`'s,
        written out: this is a host's every turn) and its answer is legal at once when it is one
        of the view's own legal moves (the very tuple); any other answer, and an error it raised,
        is judged by `ask_move` as if it had been asked there."""
        options_of, rules, strategy, tiles, key = self._dice_options, self.rules, self.strategy, self._tiles, self.key
        asked = not self._tabulable
        decision = self._decision
        kind = KEYED_VIEW if key is not None else CONTEXT_VIEW if self._reads_context else CONTEXT_FREE_VIEW
        shows_turn = kind is CONTEXT_VIEW  # the turn so far: only a strategy that reads the whole context sees it
        choose_dice, choose_move, answer_with = strategy.choose_dice, strategy.choose_move, given.append
        new_view, full, count_with = object.__new__, rules.full_box, counts.append
        context: object = HIDDEN_CONTEXT  # the game, only for a strategy that reads it (or its key's features)
        unturned: tuple[Roll, ...] = () if shows_turn else HIDDEN_TURN
        for fields, seed, game, dealt in turns:
            if kind is not CONTEXT_FREE_VIEW:
                shown = turn_context(fields)
                context = self.context = shown if key is None else keyed_context(shown, key)
            if asked:
                self._seed(seed, game, fields[2], fields[1])
            open_mask, answered = full, len(given)
            turn = unturned
            for outcome in dealt:
                options = options_of[open_mask]
                if len(options) == 1:
                    count = options[0]
                elif asked:  # a choice of dice: met only under some rules, so asked out of line
                    count = self._chosen_dice(choose_dice, kind, context, open_mask, turn, options)
                    answer_with(count)
                else:
                    count = self.policy.dice[open_mask]
                    answer_with(count)
                at = (open_mask << 8) | (count << 6) | outcome
                found = decision.get(at)
                if found is None:
                    found = decision[at] = self._decided(open_mask, count, outcome)
                if isinstance(found, int):
                    move = found
                elif not found:
                    break
                elif asked:
                    moves, legal, ids, dice = found
                    view = new_view(kind)
                    _set_rules(view, rules)
                    _set_tiles(view, tiles[open_mask])
                    _set_dice(view, dice)
                    _set_moves(view, legal)
                    _set_turn(view, turn)
                    _set_context(view, context)
                    _set_mask(view, open_mask)
                    error: BaseException | None = None
                    try:
                        answer: object = choose_move(view)
                    except BaseException as raised:  # judged, with the same failure, by ask_move
                        answer, error = None, raised
                    move = ids.get(id(answer), -1)  # None, the answer of one that raised, is no legal move
                    if move < 0:
                        move = self._judged(_Given(answer, error), open_mask, dice, moves, turn)
                    answer_with(move)
                else:
                    move = self.choose_move(open_mask, found[3], found[0])
                    answer_with(move)
                if shows_turn:
                    turn += (_ROLLS[count - 1][outcome][move],)
                open_mask &= ~move
                if not open_mask:
                    break
            count_with(len(given) - answered)

    def _chosen_dice(
        self,
        choose_dice: Callable[[View], object],
        kind: type[View],
        context: object,
        open_mask: Mask,
        turn: tuple[Roll, ...],
        options: tuple[int, ...],
    ) -> int:
        """The number of dice a strategy asked every time chooses in `answer_turns`, shown a view of
        the decision built as `answer_turns` builds one; an answer that is not one of `options`, and
        an error it raised, judged by `ask_dice` as if it had been asked there."""
        view = object.__new__(kind)
        _set_rules(view, self.rules)
        _set_tiles(view, self._tiles[open_mask])
        _set_dice(view, None)
        _set_moves(view, ())
        _set_turn(view, turn)
        _set_context(view, context)
        _set_mask(view, open_mask)
        try:
            number = choose_dice(view)
        except BaseException as error:  # judged, with the same failure, by ask_dice
            return self._judged_dice(_Given(None, error), open_mask, turn)
        if type(number) is int and number in options:
            return number
        return self._judged_dice(_Given(number, None), open_mask, turn)

    def _decided(self, open_mask: Mask, count: int, outcome: int) -> Decision:
        """What a throw (`count` dice making outcome code `outcome`) on a box asks: nothing (no legal
        move: the turn ends), its one legal move, or a choice among its legal moves (as masks, as
        the view shows them, each mask by the id of its tiles, and the dice as the view shows them)."""
        row = self._rows[open_mask] or row_of(self.rules, self._rows, open_mask)
        moves = row[THROWS_BY[count][outcome]]
        if len(moves) < 2:
            return moves[0] if moves else ()
        legal = self._legal.get(moves)
        if legal is None:
            legal = _legal_of(moves, self._tiles, self._legal, self._legal_ids)
        return moves, legal, self._legal_ids[moves], SHOWN[count - 1][outcome]

    def _judged_dice(self, given: _Given, open_mask: Mask, turn: tuple[Roll, ...]) -> int:
        """A number of dice that is not 1 or 2 as a plain int, or an error raised, judged by
        `ask_dice` against a view of its own."""
        return ask_dice(cast(Strategy, given), self._view(open_mask, None, (), turn), self.name)

    def _judged(
        self, given: _Given, open_mask: Mask, dice: tuple[int, ...], moves: tuple[Mask, ...], turn: tuple[Roll, ...]
    ) -> Mask:
        """An answer that is not one of the view's own legal moves, or an error raised, judged by
        `ask_move` against a view of its own (the strategy may have rewritten the one it was shown)."""
        return ask_move(cast(Strategy, given), self._view(open_mask, dice, moves, turn), self.name)

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
            legal = _legal_of(moves, self._tiles, self._legal, self._legal_ids)
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


class _Rolls(dict[Mask, Roll]):
    """The rolls of one throw shown to a strategy that reads the context, by move, each made when
    first met."""

    def __init__(self, dice: tuple[int, ...]) -> None:
        super().__init__()
        self.dice = dice

    def __missing__(self, move: Mask) -> Roll:
        roll = self[move] = Roll(self.dice, move)
        return roll


_ROLLS = tuple(tuple(_Rolls(dice) for dice in rolled) for rolled in ROLLED)
"""Each roll shown to a strategy that reads the context, by number of dice (less one), outcome code
and move, made once for the process (they are frozen)."""


@functools.cache
def _decisions(tiles: int, shut_rule: ShutRule, first_roll: FirstRoll) -> dict[int, Decision]:
    """What each throw on each box asks under a rule set's moves (`StrategyPlayer._decided`), by
    (box, dice, outcome code), kept for the process: filled as throws are met."""
    return {}


@functools.cache
def _legal_tiles(
    tiles: int,
) -> tuple[dict[tuple[Mask, ...], tuple[Move, ...]], dict[tuple[Mask, ...], dict[int, Mask]]]:
    """For a box of this many tiles, kept for the process: each set of legal moves (masks) as the
    view shows it (tiles), and each move's mask by the id of its tiles (`tiles_by_mask`'s own
    tuples): an answer that is one of them is legal. Filled as sets of moves are met."""
    return {}, {}


def _legal_of(
    moves: tuple[Mask, ...],
    tiles: tuple[tuple[int, ...], ...],
    legal: dict[tuple[Mask, ...], tuple[Move, ...]],
    ids: dict[tuple[Mask, ...], dict[int, Mask]],
) -> tuple[Move, ...]:
    """The legal moves as tiles, worked out and kept (`_legal_tiles`)."""
    shown = legal[moves] = tuple(tiles[move] for move in moves)
    ids[moves] = {id(move): mask for move, mask in zip(shown, moves, strict=True)}
    return shown


class _Given:
    """A strategy's answer already given, or the error it raised, given again to `ask_move` or
    `ask_dice` to judge."""

    def __init__(self, answer: object, error: BaseException | None) -> None:
        self.answer = answer
        self.error = error

    def choose_move(self, view: View) -> object:
        if self.error is not None:
            raise self.error
        return self.answer

    choose_dice = choose_move
