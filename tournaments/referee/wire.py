"""What the referee and a strategy's host (--isolate) say to each other, as typed messages.

Requests go to the host pickled (the referee trusts its own data); the host's replies come back
as JSON objects (the referee trusts nothing the host says), each built here from a typed reply
by `wire`. The referee reads a reply back into its typed form only after checking every value
(`isolation.py`)."""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

from shutbox_cli.game import Rules, TurnContext
from shutbox_cli.game.terms import GameNumber, Mask, Seed


class Setup(NamedTuple):
    """The first request: the strategy to load, the rules it plays, the referee's import path
    and the host's memory limit in MiB."""

    spec: str
    params: dict[str, Any]
    name: str | None
    rules: Rules
    path: list[str]
    memory_limit: int


class NewPlayer(NamedTuple):
    """Make player `number`: a fresh instance of the strategy."""

    number: int


class TableAsked(NamedTuple):
    """Player `number`'s table (an exact strategy's answers for every box and throw)."""

    number: int


class DealtTurn(NamedTuple):
    """A turn as the host is sent it: where it is played, its dice stream, and every roll it can use."""

    context: TurnContext
    seed: Seed
    game: GameNumber
    rolls: list[tuple[int, int]]


class TurnsAsked(NamedTuple):
    """Play these turns in order with player `number`, recording its every answer."""

    number: int
    turns: list[DealtTurn]


Request = NewPlayer | TableAsked | TurnsAsked
"""What the referee asks a host once it has loaded its strategy."""


@dataclasses.dataclass(frozen=True, slots=True)
class Loaded:
    """The strategy loaded: what it is, where it comes from, and the sha256 of its class's file (None: none)."""

    name: str
    exact: bool
    context_free: bool
    origin: str = ""
    sha256: str | None = None

    def wire(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "exact": self.exact,
            "context_free": self.context_free,
            "origin": self.origin,
            "sha256": self.sha256,
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Made:
    """A player made."""

    def wire(self) -> dict[str, Any]:
        return {}


@dataclasses.dataclass(frozen=True, slots=True)
class Table:
    """A player's table: the box after each throw from each box, and the dice it rolls there."""

    next_mask: list[Mask]
    dice: list[int]

    def wire(self) -> dict[str, Any]:
        return {"next_mask": self.next_mask, "dice": self.dice}


@dataclasses.dataclass(frozen=True, slots=True)
class Played:
    """The turns played, each as the strategy's answers in order; `error` is the failure that
    ended the batch at the next turn (None: every turn asked was played)."""

    turns: list[list[int]]
    error: str | None = None

    def wire(self) -> dict[str, Any]:
        return {"turns": self.turns} if self.error is None else {"turns": self.turns, "error": self.error}


@dataclasses.dataclass(frozen=True, slots=True)
class HostFailure:
    """The strategy failed (to load, or to answer): one sentence naming it."""

    error: str

    def wire(self) -> dict[str, Any]:
        return {"error": self.error}


Reply = Loaded | Made | Table | Played | HostFailure
"""What a host answers, before it becomes JSON."""
