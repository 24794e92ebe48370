"""Backends: what plays a plan's work units. The tournament runner hands a backend the plan
and a callback; the backend plays every unit once and hands back each unit's result.

Three backends today: `InProcess` (this process), `ProcessPool` (worker processes) and
`DaskCluster` (a Dask cluster). More (a numpy bulk engine) are further classes with the same
one method; nothing above this module changes when one is added.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from strategies.loading import StrategyLoadError

from .dask_backend import DaskCluster
from .errors import TournamentFailure
from .plan import Plan
from .pool import ProcessPool
from .units import UnitPlayer, UnitResult, timeout_message

Finished = Callable[[UnitResult], None]
"""Told each unit's result as it finishes."""


class Backend(Protocol):
    """Plays a plan's work units.

    `run` plays every unit of `plan.units()` exactly once, in any order and anywhere, and
    calls `finished` with each unit's `UnitResult`, in the calling thread, as units finish.
    Tallies add up exactly in any order, so a backend cannot change the results. It raises
    `TournamentFailure` (one sentence naming the unit, as `units.unit_title` does) when a
    strategy fails to load or play, a worker dies, or a unit runs past `plan.config.timeout`
    seconds; on Ctrl-C it lets `KeyboardInterrupt` through. Either way it stops its work and
    leaves no process behind before it returns or raises.
    """

    def run(self, plan: Plan, finished: Finished) -> None: ...


class _UnitTimeout(BaseException):
    """Raised in this process when a unit runs past the limit; a BaseException so that no
    strategy's `except Exception` swallows it."""


@dataclasses.dataclass(frozen=True)
class InProcess:
    """Plays the units one after another in this process: no start-up cost, but a strategy
    that ends its process (os._exit) ends the caller too. The time limit is an interval
    timer (SIGALRM), where the platform has one and this is the main thread."""

    def run(self, plan: Plan, finished: Finished) -> None:
        try:
            player = UnitPlayer(plan)
        except StrategyLoadError as error:
            raise TournamentFailure(str(error)) from None
        for unit in plan.units():
            try:
                with _time_limit(plan.config.timeout):
                    result = player.play(unit)
            except _UnitTimeout:
                raise TournamentFailure(timeout_message(plan, unit)) from None
            finished(result)


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise _UnitTimeout in this process after `seconds`, where the platform has interval timers."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise _UnitTimeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def default_workers() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def default_backend(workers: int | None, plan: Plan) -> Backend:
    """The Dask cluster of `plan.config.scheduler` if it names one; else this process for one
    worker or a plan of one unit; else a pool of `workers` processes (None: one per core)."""
    if plan.config.scheduler is not None:
        return DaskCluster(plan.config.scheduler)
    count = default_workers() if workers is None else workers
    if count <= 1 or plan.unit_count == 1:
        return InProcess()
    return ProcessPool(count)
