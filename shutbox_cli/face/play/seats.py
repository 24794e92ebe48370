"""The seats of a table from the command line: people by name, computers by strategy spec."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Protocol

from shutbox_cli.game.terms import GameNumber, Seed

from ...game import Rules, Turn, TurnContext, TurnRecord
from .screen import Screen

DEFAULT_PLAYER = "You"
SELF = frozenset({"you", "me", "i", "myself"})
"""Names a person gives to mean themselves: the table calls them "You" (`Your turn`, `You roll`)."""


class Seat(Protocol):
    """Anyone who can take a turn at the table."""

    name: str
    computer: bool

    def play_turn(
        self, screen: Screen, turn: Turn, context: TurnContext, seed: Seed, game: GameNumber
    ) -> TurnRecord: ...


class SeatError(ValueError):
    """A --player or --computer value that cannot make a seat; the message is one sentence."""


class SeatFailure(SeatError):
    """A computer's strategy that failed as it loaded (its process ended, or hung); one sentence."""


def make_seats(
    rules: Rules,
    players: Sequence[str],
    computers: Sequence[str],
    stack: contextlib.ExitStack | None = None,
    timeout: float | None = None,
) -> list[Seat]:
    """People first, in the order given, then the computers; with neither, one person called "You"
    (computers alone play while the people watch). A person named Me (or I, or you) is "You" too.
    A user's strategy plays from a process of its own, ended with `stack` (None: as this process
    ends), each answer within `timeout` seconds (None: the library's default)."""
    from strategies.runner import StrategyLoadError, split_name
    from tournaments import TournamentFailure
    from tournaments.parts import STRATEGY_TIMEOUT, seat_strategies

    from ..settings import said
    from .computer import ComputerSeat
    from .human import HumanSeat

    seats: list[Seat] = []
    taken: set[str] = set()

    def unique(name: str) -> str:
        found, number = name, 1
        while found.casefold() in taken:
            number += 1
            found = f"{name} {number}"
        taken.add(found.casefold())
        return found

    for name in players or ([] if computers else [DEFAULT_PLAYER]):
        if not name.strip():
            raise SeatError("a --player name is empty; give each player a name.")
        name = DEFAULT_PLAYER if name.strip().casefold() in SELF else name.strip()
        seats.append(HumanSeat(unique(name)))
    given: list[tuple[str, dict[str, object], str | None]] = [
        (spec, {}, display) for display, spec in map(split_name, computers)
    ]
    try:
        table = len(seats) + len(given)
        seated = seat_strategies(given, rules, timeout=timeout or STRATEGY_TIMEOUT, table=table) if given else []
    except StrategyLoadError as error:
        raise SeatError(said(error)) from None
    except TournamentFailure as error:
        raise SeatFailure(said(error)) from None
    for one in seated:
        if stack is not None:
            stack.enter_context(one)
        seats.append(ComputerSeat(unique(one.name), one.player()))
    return seats
