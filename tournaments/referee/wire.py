"""What the referee and a strategy's host (--isolate) say to each other, as typed messages.

Requests go to the host pickled (the referee trusts its own data); the host's replies come back
as JSON objects (the referee trusts nothing the host says), each built here from a typed reply
by `wire`, save a batch of turns played in full: its answers come as plain numbers in a few
bytes each (`ANSWERS`). The referee reads a reply back into its typed form only after checking
every value (`isolation.py`, `remote.py`, `replies.py`)."""

from __future__ import annotations

import array
import dataclasses
import itertools
import struct
import sys
from typing import Any, NamedTuple

from shutbox_cli.game import Rules
from shutbox_cli.game.terms import GameNumber, Mask, Seed
from strategies.names import Registration


class Setup(NamedTuple):
    """The first request: the strategy to load, the rules it plays, the referee's import path,
    what the installed packages on it declare (`names.declared`: the host need not read them)
    and the scratch folder the host may write in (`confinement.py`)."""

    spec: str
    params: dict[str, Any]
    name: str | None
    rules: Rules
    path: list[str]
    declared: tuple[Registration, ...]
    scratch: str


class NewPlayer(NamedTuple):
    """Make player `number`: a fresh instance of the strategy."""

    number: int


class TableAsked(NamedTuple):
    """Player `number`'s table (an exact strategy's answers for every box and throw; a keyed
    strategy's for the key whose feature values are `key`)."""

    number: int
    key: tuple[Any, ...] | None = None


ContextFields = tuple[int, int, int, bool, tuple[int | None, ...], tuple[int, ...], tuple[bool, ...]]
"""A `TurnContext`'s fields, in order: what a turn's context is sent as (a plain tuple)."""


class TurnsAsked(NamedTuple):
    """Play these turns in order with player `number`, recording its every answer: turn t where
    `contexts[t]` says, its dice those of the stream of `seed` and `games[t]` (round and seat
    its context's), every roll it can use dealt as `dealt[t * w : (t + 1) * w]` (one byte each,
    the outcome code `dice.PAIRS` reads; w = tiles + 1: a turn uses at most one roll per tile,
    plus the one that ends it). Plain values, which pickle fast."""

    number: int
    seed: Seed
    contexts: list[ContextFields]
    games: list[GameNumber]
    dealt: bytes


class CheckDeclared(NamedTuple):
    """A check's first question (`strategies.check`): the strategy's declarations, its key under
    the rules of each question sampled from `seed` under `samples` rule sets. `Declared` answers."""

    seed: int
    samples: int


class CheckAnswers(NamedTuple):
    """A check's questions (those of `CheckDeclared`), answered by a fresh instance in `order`,
    the global generators seeded as `strategies.check.answers` says from `offset` (and its own
    too if `stochastic`): the host sends an `Answered` for each, in order, or `StuckAt` where one
    runs past the check's time limit. The referee judges the answers."""

    seed: int
    samples: int
    order: list[int]
    offset: int
    stochastic: bool


Request = NewPlayer | TableAsked | TurnsAsked | CheckDeclared | CheckAnswers
"""What the referee asks a host once it has loaded its strategy."""


@dataclasses.dataclass(frozen=True, slots=True)
class Loaded:
    """The strategy loaded: what it is, where it comes from, and the sha256 of its class's file (None: none)."""

    name: str
    exact: bool
    context_free: bool
    origin: str = ""
    description: str = ""
    sha256: str | None = None
    key: tuple[str, ...] | None = None
    """The features a keyed strategy declares under the rules (None: no key)."""

    def wire(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "exact": self.exact,
            "context_free": self.context_free,
            "origin": self.origin,
            "description": self.description,
            "sha256": self.sha256,
            "key": None if self.key is None else list(self.key),
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
    """Turns played: the number of answers each turn played in full gave (`counts`) and every
    answer in order (`given`); `error` is the failure that ended the batch at the next turn
    (None: every turn asked was played), after the answers it gave in that turn, the last of
    `given`. Every turn played: sent as `ANSWERS` says."""

    counts: list[int]
    given: list[int]
    error: str | None = None

    def wire(self) -> dict[str, Any] | bytes:
        if self.error is None:
            return answers_bytes(self.counts, self.given)
        ends = list(itertools.accumulate(self.counts, initial=0))
        turns = [self.given[start:end] for start, end in itertools.pairwise(ends)]
        return {"turns": turns, "error": self.error, "given": self.given[ends[-1] :]}


ANSWERS = b"\x00"
"""The first byte of a batch's answers sent as numbers (a JSON text never starts with it): then the
number of turns (`ANSWERS_HEADER`), each turn's number of answers (a byte each) and every answer
in order (two bytes each, little-endian: a move's mask or a number of dice)."""
ANSWERS_HEADER = struct.Struct("<cI")


def answers_bytes(counts: list[int], given: list[int]) -> bytes:
    """Turns' answers as `ANSWERS` says (a turn asks fewer than 256 questions; an answer the
    engine took is a move's mask or a number of dice, under 65,536)."""
    answers = array.array("H", given)
    if sys.byteorder == "big":
        answers.byteswap()
    return ANSWERS_HEADER.pack(ANSWERS, len(counts)) + bytes(counts) + answers.tobytes()


@dataclasses.dataclass(frozen=True, slots=True)
class Declared:
    """A strategy's declarations for a check: stochastic, reads_context, tabulable() and its key
    under each question's rules (None: none), of the questions left once those under the rules it
    refuses (`refused`, their numbers among those sampled: a model trained for one box) are left out."""

    stochastic: bool
    reads_context: bool
    tabulable: bool
    keys: list[list[str] | None]
    refused: list[int] = dataclasses.field(default_factory=list)

    def wire(self) -> dict[str, Any]:
        return {
            "declared": {
                "stochastic": self.stochastic,
                "reads_context": self.reads_context,
                "tabulable": self.tabulable,
                "keys": self.keys,
                "refused": self.refused,
            }
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Answered:
    """A check's question answered: its number, the answer (a move's mask or a number of dice),
    or its failure as (message, the declaration missing or None, whether it raised, the features
    it read asked again or None, the old names it read them by), and the seconds it took."""

    number: int
    answer: int | tuple[str, str | None, bool, tuple[str, ...] | None, tuple[str, ...]]
    seconds: float

    def wire(self) -> dict[str, Any]:
        answer = self.answer if isinstance(self.answer, int) else list(self.answer)
        return {"answered": [self.number, answer, self.seconds]}


@dataclasses.dataclass(frozen=True, slots=True)
class StuckAt:
    """A check's question whose answer ran past the check's time limit: the check stops there."""

    number: int

    def wire(self) -> dict[str, Any]:
        return {"stuck": self.number}


@dataclasses.dataclass(frozen=True, slots=True)
class HostFailure:
    """The strategy failed (to load, or to answer): one sentence naming it."""

    error: str

    def wire(self) -> dict[str, Any]:
        return {"error": self.error}


Reply = Loaded | Made | Table | Played | Declared | Answered | StuckAt | HostFailure
"""What a host answers, before it becomes JSON."""
