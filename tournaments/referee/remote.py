"""A user's strategy seated at a table, asked through its host (`isolation.Host`, typed by what
this uses of it: `replies.Link`): a turn, or a batch of them, costs one round trip, and every
answer is checked here as it is used."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from shutbox_cli.game import Roll, TurnContext, dice_options, turn_rolls
from shutbox_cli.game.bulk_dice import outcomes, stream_keys
from shutbox_cli.game.dice import MASK, PAIRS
from shutbox_cli.game.terms import GameNumber, Mask, Seed
from strategies.table import PolicyTable

from .replies import Link, RemoteFailure, checked_table, played_turns
from .wire import ContextFields, Played, TableAsked, TurnsAsked

TurnKey = tuple[int, int, int, int]
"""A turn's dice stream: (seed, game, round, seat)."""


class RemotePlayer:
    """A strategy seated at a table, asked through its host: `StrategyPlayer`'s interface, each
    answer checked here.

    A turn costs one round trip, not one per question: at the turn's first question the host is
    sent the turn's dice (the referee's own, as many as a turn can use) and plays the whole turn
    with its own copy of the engine, sending back each answer; the referee's engine then asks its
    questions and is answered from that list, every answer checked as it is used. `prefetch` does
    the same for many turns at once (a bulk unit's turns of one seat and round)."""

    def __init__(self, host: Link, number: int) -> None:
        self.host = host
        self.number = number
        self.rules = host.rules
        self._start: tuple[TurnContext, Seed, GameNumber] | None = None
        self._answers: list[int] | None = None
        self._prefetched: dict[TurnKey, list[int]] = {}
        self._dealt: dict[TurnKey, bytes] = {}
        self._failure: tuple[TurnKey, Played] | None = None
        self._batch: Batch | None = None
        self._error: str | None = None
        self._policy: PolicyTable | None = None

    def start_turn(self, context: TurnContext, seed: Seed, game: GameNumber) -> RemotePlayer:
        """Note the turn's start: the host hears of it with the turn's first question."""
        self._start = (context, seed, game)
        self._answers = None
        self._error = None
        return self

    def prefetch(self, starts: Sequence[tuple[TurnContext | ContextFields, Seed, GameNumber]]) -> None:
        """Have the host play these turns (in this order, as the referee will; of one dice seed) in
        one round trip, to be asked of it (`play`'s batch, every turn kept), each answer checked
        when used. A turn's context may come as its fields."""
        if not starts:
            return
        seed = starts[0][1]
        if any(start[1] != seed for start in starts):
            raise ValueError("a host is asked the turns of one dice seed at a time.")
        self.play(seed, [_fields(context) for context, _, _ in starts], [game for _, _, game in starts])
        self.keep(0)

    def play(
        self,
        seed: Seed,
        contexts: list[ContextFields],
        games: list[GameNumber],
        drawn: npt.NDArray[np.uint8] | None = None,
    ) -> Batch:
        """`prefetch` as arrays, for checking all at once: turn t played where `contexts[t]` says,
        on the dice stream of `seed` and `games[t]`; the turns' dice and the host's answers, none of
        them checked yet (`drawn`: the turns' `dealt_outcomes`, if already worked out). Before the
        engine asks the player any of these turns, `keep` the ones it will ask."""
        self._prefetched.clear()
        self._dealt.clear()
        self._failure = None
        if drawn is None:
            keys = [(seed, game, shown[2], shown[1]) for shown, game in zip(contexts, games, strict=True)]
            drawn = dealt_outcomes(keys, self.rules.tiles + 1)
        sent = [_unseen(shown) for shown in contexts] if self.host.context_free else contexts
        data = self.host.exchange(TurnsAsked(self.number, seed, sent, games, drawn.tobytes()), "")
        batch = Batch(seed, contexts, games, drawn, *played_turns(data, len(games), self.rules, self.host))
        self._batch = batch
        return batch

    def keep(self, first: int) -> None:
        """Keep the turns of the last `play` from its `first` on for the engine to ask, one by one."""
        batch = self._batch
        if batch is None or first >= len(batch.games):
            return
        played = batch.counts.size
        offsets = np.concatenate(([0], np.cumsum(batch.counts))).tolist()
        given = batch.given.tolist()
        for index in range(first, len(batch.games)):
            key = batch.key(index)
            self._dealt[key] = batch.dealt[index].tobytes()
            if index < played:
                self._prefetched[key] = given[offsets[index] : offsets[index + 1]]
        if batch.error is not None and played < len(batch.games):
            self._failure = (batch.key(played), Played([], list(batch.failed), batch.error))

    @property
    def answering(self) -> bool:
        """Whether its host still answers: one stopped (for a bad answer, its silence or its end) does not."""
        return not self.host.connection.closed

    def rolls(self, context: TurnContext, seed: Seed, game: GameNumber) -> Iterator[tuple[int, int]]:
        """The turn's dice: those its host was dealt, where it was, else the stream's."""
        dealt = self._dealt.get(_key(context, seed, game))
        return turn_rolls(seed, game, context.round, context.seat) if dealt is None else map(PAIRS.__getitem__, dealt)

    def _next(self) -> int:
        """The strategy's next answer in this turn; where it failed in this turn, the failure
        once the answers it gave before it are used."""
        if self._answers is None:
            if self._start is None:
                raise RuntimeError("a question was asked before the turn started.")
            key = _key(*self._start)
            if key not in self._prefetched and (self._failure is None or self._failure[0] != key):
                self.prefetch([self._start])
            if key not in self._prefetched and self._failure is not None and self._failure[0] == key:
                self._answers, self._error = list(self._failure[1].given), self._failure[1].error
            else:
                self._answers = self._prefetched.pop(key)
            self._answers.reverse()
        if not self._answers:
            if self._error is not None:
                raise RemoteFailure(self._error)
            self.host.refuse("fewer answers than the turn asked for")
        return self._answers.pop()

    def choose_dice(self, open_mask: Mask, history: Sequence[Roll] = ()) -> int:
        count = self._next()
        if count not in dice_options(self.rules, open_mask):
            self.host.refuse(f"{count} dice where the rules allow {dice_options(self.rules, open_mask)}")
        return count

    def choose_move(
        self, open_mask: Mask, dice: tuple[int, ...], moves: tuple[Mask, ...], history: Sequence[Roll] = ()
    ) -> Mask:
        move = self._next()
        if move not in moves:
            self.host.refuse(f"the move {move} where the legal moves are {moves}")
        return move

    def keyed_policy(self, values: tuple[Any, ...]) -> PolicyTable:
        """A keyed strategy's table for one key, built in its host and checked here entry by entry."""
        reply = self.host.ask(TableAsked(self.number, values))
        return checked_table(reply.get("next_mask"), reply.get("dice"), self.rules, self.host.refuse)

    @property
    def policy(self) -> PolicyTable:
        """The strategy's table, built in its host and checked here entry by entry."""
        if self._policy is None:
            reply = self.host.ask(TableAsked(self.number))
            self._policy = checked_table(reply.get("next_mask"), reply.get("dice"), self.rules, self.host.refuse)
        return self._policy


def _key(context: TurnContext, seed: Seed, game: GameNumber) -> TurnKey:
    return seed, game, context.round, context.seat


def _fields(context: TurnContext | ContextFields) -> ContextFields:
    if isinstance(context, tuple):
        return context
    return context.player, context.seat, context.round, context.playoff, context.scores, context.totals, context.active


def _unseen(fields: ContextFields) -> ContextFields:
    """What the host of a strategy that reads nothing of the game is sent of a turn's context: its
    seat and round (which seed the strategy's generators), the rest a solo game's first turn's."""
    return (0, fields[1], fields[2], False, (None,), (0,), (True,))


def dealt_outcomes(keys: Sequence[TurnKey], count: int) -> npt.NDArray[np.uint8]:
    """The first `count` rolls of each turn's dice stream as outcome codes ([turn, roll]; `PAIRS`
    gives the dice), worked out together with numpy (the same rolls as `turn_rolls`): a turn uses
    at most one roll per tile, plus the one that ends it."""
    if not keys:
        return np.empty((0, count), dtype=np.uint8)
    parts = (np.array([part & MASK for part in column], dtype=np.uint64) for column in zip(*keys, strict=True))
    return outcomes(stream_keys(*parts)[:, None], np.arange(count, dtype=np.uint64)[None, :])


class Batch(NamedTuple):
    """Turns a host was asked to play (`RemotePlayer.play`), none of its answers checked yet: each
    turn's context (its fields) and dice stream (`seed` and its game) and dice (`dealt[turn]`,
    outcome codes), the number of answers of each turn it played in full (`counts`, the turns
    before the one that failed, if any) and those answers one after another (`given`); the
    failure that ended the batch, and the answers given in that turn before it."""

    seed: Seed
    contexts: list[ContextFields]
    games: list[GameNumber]
    dealt: npt.NDArray[np.uint8]
    counts: npt.NDArray[np.intp]
    given: npt.NDArray[np.int64]
    error: str | None = None
    failed: tuple[int, ...] = ()

    def key(self, turn: int) -> TurnKey:
        """A turn's dice stream."""
        shown = self.contexts[turn]
        return self.seed, self.games[turn], shown[2], shown[1]
