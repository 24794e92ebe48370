"""A strategy in its seat at a table: how it plays its turns on the dice it is dealt (asked at each
decision, or from its table: `bulk.TableTurns`), and what the bulk side asks of the unit player
that seats it, and a strategy's failure in a game (`GameFailure`, whichever engine met it). Both
`units` and `bulk` build on this module, so neither imports the other's."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol, TypeAlias

from shutbox_cli.game import Rules, TurnContext, TurnRecord, play_turn
from strategies.player import StrategyError, StrategyPlayer
from strategies.table import PolicyTable

from ..errors import TournamentFailure
from .plan import GameSlot, Plan

if TYPE_CHECKING:  # the hosts' code, loaded only for a field with a user's strategy
    from ..referee.remote import RemotePlayer

Player: TypeAlias = "StrategyPlayer | RemotePlayer"
"""A strategy at the table: a built-in one loaded in this process, a user's asked in its host."""


class GameFailure(Exception):
    """A strategy failed in a turn of a game: where (the game and its turn) and how."""

    def __init__(self, slot: GameSlot, context: TurnContext, error: StrategyError) -> None:
        super().__init__(slot, context, error)
        self.slot = slot
        self.context = context
        self.error = error


class Seat(Protocol):
    """Plays one seat's turn of a game on the dice it is dealt."""

    def play(self, context: TurnContext, seed: int, game: int, rolls: Iterator[tuple[int, int]]) -> TurnRecord: ...


@dataclasses.dataclass(frozen=True)
class AskedTurns:
    """A strategy asked at each decision, through the general engine."""

    rules: Rules
    player: Player

    def play(self, context: TurnContext, seed: int, game: int, rolls: Iterator[tuple[int, int]]) -> TurnRecord:
        return play_turn(self.rules, rolls, self.player.start_turn(context, seed, game))


class TabulationFailure(TournamentFailure):
    """A strategy failed where no game is to blame (building its table, a turn of a bulk unit):
    the unit player says which unit."""


class Seating(Protocol):
    """What the bulk side asks of the unit player it works for (`units.UnitPlayer`)."""

    plan: Plan
    rules: Rules

    def new_player(self, index: int) -> Player:
        """A new player for a strategy."""
        ...

    def player(self, index: int) -> Player:
        """The strategy's player for this unit."""
        ...

    def policy(self, index: int) -> PolicyTable:
        """An exact strategy's table (a strategy's failure to build it is a `StrategyError`)."""
        ...
