"""A whole game: seats in order, rounds and totals, drop-outs, instant wins and ties."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Generator, Sequence
from typing import TypeVar

from .rules import Rules, Ties
from .turn import TurnRecord

_T = TypeVar("_T")


@dataclasses.dataclass(frozen=True, slots=True)
class TurnContext:
    """Where a turn stands in its game. Players are numbered from 0; so are seats and rounds.

    `seat` is the position in this game's order of play; `scores` are this round's scores
    posted so far (None where a player has not played); `totals` are the totals before this
    round; `score_to_beat` is the lowest score posted this round by anyone else.
    """

    player: int
    seat: int
    round: int
    playoff: bool
    scores: tuple[int | None, ...]
    totals: tuple[int, ...]
    active: tuple[bool, ...]

    @property
    def score_to_beat(self) -> int | None:
        posted = [score for score in self.scores if score is not None]
        return min(posted) if posted else None


_player, _seat, _round, _playoff, _scores, _totals, _active = (
    TurnContext.__dict__[field.name].__set__ for field in dataclasses.fields(TurnContext)
)


def turn_context(fields: tuple[object, ...]) -> TurnContext:
    """`TurnContext(*fields)` made without the frozen dataclass's checks, from values known to be
    right (a host makes one for every turn it plays, from the fields the referee sent)."""
    context = object.__new__(TurnContext)
    player, seat, round_, playoff, scores, totals, active = fields
    _player(context, player)
    _seat(context, seat)
    _round(context, round_)
    _playoff(context, playoff)
    _scores(context, scores)
    _totals(context, totals)
    _active(context, active)
    return context


@dataclasses.dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round of a game: each player's turn, or None for a player who did not play."""

    number: int
    playoff: bool
    turns: tuple[TurnRecord | None, ...]

    @property
    def scores(self) -> tuple[int | None, ...]:
        return tuple(None if turn is None else turn.score for turn in self.turns)


@dataclasses.dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game. `order` lists players by seat; `out_after` is the round a player
    dropped out in (None if never); totals count regular rounds only, not playoffs.
    `tied` lists, in seat order, the players whose equal lowest result the tie rule had
    to settle (empty if none); `shut_box_win` says a shut box won the game at once."""

    order: tuple[int, ...]
    rounds: tuple[RoundRecord, ...]
    totals: tuple[int, ...]
    out_after: tuple[int | None, ...]
    winners: tuple[int, ...]
    tied: tuple[int, ...] = ()
    shut_box_win: bool = False

    @property
    def players(self) -> int:
        return len(self.order)


def seat_order(players: int, first_seat: int) -> tuple[int, ...]:
    """The players in order of play when `first_seat` sits first."""
    return tuple((first_seat + seat) % players for seat in range(players))


TurnPlayer = Callable[[TurnContext], TurnRecord]
"""Plays one turn for the player and position the context names."""

Steps = Generator[TurnContext, TurnRecord, _T]
"""Part of a game: it yields each turn it needs and is sent that turn's record."""


class _Game:
    """The bookkeeping of one game in progress; its steps ask for each turn in order of play."""

    def __init__(self, rules: Rules, players: int, first_seat: int) -> None:
        if players < 1:
            raise ValueError("a game needs at least one player.")
        self.rules = rules
        self.order = seat_order(players, first_seat)
        self.rounds: list[RoundRecord] = []
        self.totals = [0] * players
        self.out_after: list[int | None] = [None] * players
        self.tied: tuple[int, ...] = ()
        self.shut_box_win = False

    def play_round(self, players: Sequence[int], playoff: bool) -> Steps[tuple[RoundRecord, int | None]]:
        """Play one round among `players` (in seat order); return it and an instant winner."""
        count = len(self.order)
        turns: list[TurnRecord | None] = [None] * count
        scores: list[int | None] = [None] * count
        active = tuple(player in players for player in range(count))
        totals = tuple(self.totals)  # before this round: they change only once it is over
        number = len(self.rounds)
        instant = None
        for seat, player in enumerate(self.order):
            if not active[player]:
                continue
            turn = yield TurnContext(player, seat, number, playoff, tuple(scores), totals, active)
            turns[player] = turn
            scores[player] = turn.score
            if turn.shut_box and self.rules.instant_win:
                instant = player
                self.shut_box_win = True
                break
        record = RoundRecord(number, playoff, tuple(turns))
        self.rounds.append(record)
        if not playoff:
            for player, played in enumerate(turns):
                if played is not None:
                    self.totals[player] += played.score
        return record, instant

    def seated(self, players: Sequence[int]) -> list[int]:
        """Players in seat order."""
        return [player for player in self.order if player in players]

    def settle(self, tied: list[int]) -> Steps[tuple[int, ...]]:
        """Winners among players tied on the lowest result, by the tie rule."""
        tied = self.seated(tied)
        if len(tied) > 1:
            self.tied = tuple(tied)
        if len(tied) == 1 or self.rules.ties is Ties.SHARE:
            return tuple(sorted(tied))
        if self.rules.ties is Ties.SEAT:
            return (tied[0],)
        while len(tied) > 1:
            record, instant = yield from self.play_round(tied, playoff=True)
            if instant is not None:
                return (instant,)
            best = min(record.scores[player] for player in tied)  # type: ignore[type-var]
            tied = [player for player in tied if record.scores[player] == best]
        return (tied[0],)

    def lowest(self, players: Sequence[int], values: Sequence[int | None]) -> Steps[tuple[int, ...]]:
        best = min(values[player] for player in players)  # type: ignore[type-var]
        return (yield from self.settle([player for player in players if values[player] == best]))

    def run(self) -> Steps[tuple[int, ...]]:
        """The whole game; it returns the winners."""
        rules = self.rules
        everyone = list(self.order)
        if rules.drop_out is None:
            for _ in range(rules.rounds):
                record, instant = yield from self.play_round(everyone, playoff=False)
                if instant is not None:
                    return (instant,)
            values = self.totals if rules.multi_round else record.scores
            return (yield from self.lowest(everyone, values))
        active = everyone
        while True:
            record, instant = yield from self.play_round(active, playoff=False)
            if instant is not None:
                return (instant,)
            out = [player for player in active if self.totals[player] >= rules.drop_out]
            for player in out:
                self.out_after[player] = record.number
            left = [player for player in active if player not in out]
            if len(left) == 1 and len(everyone) > 1:
                return (left[0],)
            if not left:
                return (yield from self.lowest(out, self.totals))
            active = left

    def record(self, winners: tuple[int, ...]) -> GameRecord:
        return GameRecord(
            self.order,
            tuple(self.rounds),
            tuple(self.totals),
            tuple(self.out_after),
            winners,
            self.tied,
            self.shut_box_win,
        )


class GameInPlay:
    """A game played one turn at a time, so that many games can advance side by side.

    `next_turn` is the turn the game waits for (None once it is over); `play` gives it that
    turn's record; `record` is the finished game. `play_game` plays one game the same way.
    """

    def __init__(self, rules: Rules, players: int, first_seat: int = 0) -> None:
        self._game = _Game(rules, players, first_seat)
        self._steps = self._game.run()
        self._record: GameRecord | None = None
        self.next_turn: TurnContext | None = None
        self._advance(None)

    def play(self, turn: TurnRecord) -> None:
        """Record the turn the game waited for and move on to the next one."""
        if self.next_turn is None:
            raise RuntimeError("the game is over: it needs no more turns.")
        self._advance(turn)

    def _advance(self, turn: TurnRecord | None) -> None:
        try:
            self.next_turn = self._steps.send(turn)  # type: ignore[arg-type]  # None starts the game
        except StopIteration as end:
            self.next_turn = None
            self._record = self._game.record(end.value)

    @property
    def record(self) -> GameRecord:
        """The finished game."""
        if self._record is None:
            raise RuntimeError("the game is not over yet.")
        return self._record


def play_game(rules: Rules, players: int, play: TurnPlayer, first_seat: int = 0) -> GameRecord:
    """Play a whole game of `players` players, asking `play` for each turn.

    `first_seat` is the player who sits first (it passes on at each rematch).
    """
    game = GameInPlay(rules, players, first_seat)
    while game.next_turn is not None:
        game.play(play(game.next_turn))
    return game.record
