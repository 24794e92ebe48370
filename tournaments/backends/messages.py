"""What a worker tells the run, as typed messages: a worker of the pool through its pipe, a Dask
task in its result. Small frozen classes, pickled as they travel (both ends run this shutbox):
the run matches on the class, never on a string."""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any

from ..playing.units import UnitResult


@dataclasses.dataclass(frozen=True, slots=True)
class Ready:
    """A pool worker has loaded the strategies: its first unit's time starts now."""


@dataclasses.dataclass(frozen=True, slots=True)
class Done:
    """A unit played: its tallies."""

    result: UnitResult


@dataclasses.dataclass(frozen=True, slots=True)
class Failed:
    """A unit or a worker failed (a strategy's failure, a death, the time limit): one sentence."""

    message: str


@dataclasses.dataclass(frozen=True, slots=True)
class Refused:
    """A Dask worker cannot run the plan (it runs another shutbox): one sentence, a setting's error."""

    message: str


Reply = Ready | Done | Failed
"""What a pool worker sends: `Ready` once, then a `Done` per unit, or a `Failed` and it stops."""
Outcome = Done | Failed | Refused
"""A unit's outcome in a Dask task's result."""


def send(connection: Any, message: object) -> None:
    """Send a message down a pool worker's pipe, pickled by the standard library (in C: a unit or its
    tallies take a twentieth of the time multiprocess's own pickler, in Python, takes)."""
    connection.send_bytes(pickle.dumps(message, pickle.HIGHEST_PROTOCOL))


def received(connection: Any) -> Any:
    """The next message `send` sent down a pipe."""
    return pickle.loads(connection.recv_bytes())
