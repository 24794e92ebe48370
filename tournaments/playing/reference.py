"""The reference: a unit's games of one matchup played turn by turn on `GameInPlay` (the rules'
truth), as `--general-engine` plays them and as the tests hold the array engine (`bulk`) to.

Side by side (`play_turn_by_turn`'s default), one turn of each game per step, so that a strategy
asked in its host (`RemotePlayer`) plays every turn it has in a step in one round trip instead of
one round trip per turn; one game after another (`side_by_side=False`) is the same path with
nothing interleaved, each game played to its end before the next begins.

The results are the same either way for every strategy whose answers depend only on what it is
shown (the random generators are seeded at each turn from the game's
position): the order turns come in changes nothing. A strategy that keeps state between
questions (`shutbox check` allows it of a context reader or a stochastic strategy) keeps its one
instance for the unit as before, but now meets the unit's games' turns interleaved: each turn
whole, the games in turn. The failure a run stops on is the same: the one the first game to fail
meets, as if the games before it had been played to their ends first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from shutbox_cli.game import GameInPlay, GameRecord, Rules, TurnContext, turn_rolls
from shutbox_cli.game.terms import GameNumber, Seed
from strategies.player import StrategyError, StrategyPlayer

from .plan import GameSlot
from .seats import AskedTurns, GameFailure, Seat

if TYPE_CHECKING:  # the hosts' code, loaded only for a field with a user's strategy
    from ..referee.remote import RemotePlayer


def play_turn_by_turn(
    rules: Rules, seed: Seed, slots: Sequence[GameSlot], seats: Sequence[Seat], side_by_side: bool = True
) -> list[GameRecord]:
    """Play these games of one matchup (player `p` in `seats[p]`) side by side, or one after another,
    and return them in order; a strategy's failure is a `GameFailure` at the first game that fails."""
    if not side_by_side:
        return [record for slot in slots for record in _side_by_side(rules, seed, [slot], seats)]
    return _side_by_side(rules, seed, slots, seats)


def _side_by_side(rules: Rules, seed: Seed, slots: Sequence[GameSlot], seats: Sequence[Seat]) -> list[GameRecord]:
    """The games played one turn of each per step."""
    games = [GameInPlay(rules, len(seats), slot.first_seat) for slot in slots]
    hosted = [_remote(seat) for seat in seats]
    failure: GameFailure | None = None
    playing = list(range(len(games)))
    while playing:
        if any(hosted):
            _prefetch(seed, [(slots[index], _waiting(games[index])) for index in playing], hosted)
        for index in playing:
            slot, context = slots[index], _waiting(games[index])
            remote = hosted[context.player]
            if remote is None:
                rolls = turn_rolls(seed, slot.dice_game, context.round, context.seat)
            else:  # the dice its host was dealt for the turn, not worked out again
                rolls = remote.rolls(context, seed, slot.dice_game)
            try:
                turn = seats[context.player].play(context, seed, slot.dice_game, rolls)
            except StrategyError as error:
                failure = GameFailure(slot, context, error)
                if index == playing[0] or (remote is not None and not remote.answering):
                    raise failure from None  # no game before it, or its host stopped: nothing plays on
                # The games before this one play on: the first of them to fail is the one to blame.
                playing = playing[: playing.index(index)]
                break
            games[index].play(turn)
        playing = [index for index in playing if games[index].next_turn is not None]
    if failure is not None:
        raise failure
    return [game.record for game in games]


def _waiting(game: GameInPlay) -> TurnContext:
    context = game.next_turn
    if context is None:
        raise RuntimeError("a game that is over was asked for a turn.")
    return context


def _remote(seat: Seat) -> RemotePlayer | None:
    """The player in its host behind a seat asked at each decision, if any."""
    if isinstance(seat, AskedTurns) and not isinstance(seat.player, StrategyPlayer):
        return seat.player
    return None


def _prefetch(
    seed: Seed, waiting: Sequence[tuple[GameSlot, TurnContext]], hosted: Sequence[RemotePlayer | None]
) -> None:
    """Have every host play all the turns its players (`hosted`, by player) have in this step, in
    order of play, in one round trip. A host that fails to answer at all is blamed at the first
    of its turns."""
    asked: dict[int, tuple[RemotePlayer, list[tuple[TurnContext, Seed, GameNumber]], GameSlot]] = {}
    for slot, context in waiting:
        remote = hosted[context.player]
        if remote is not None:
            asked.setdefault(id(remote), (remote, [], slot))[1].append((context, seed, slot.dice_game))
    for remote, starts, first in asked.values():
        try:
            remote.prefetch(starts)
        except StrategyError as error:
            raise GameFailure(first, starts[0][0], error) from None
