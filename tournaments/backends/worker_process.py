"""A pool's worker process: it confines itself, loads the strategies and plays the units it is
sent down its pipe until told to stop, and sends back each unit's tallies or why it failed."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from typing import Any

from strategies.errors import StrategyError
from strategies.loading import StrategyLoadError
from strategies.shown import cause

from ..errors import TournamentFailure, marked, setting
from ..playing.plan import Plan, WorkUnit
from ..playing.tables import Sent, unwired_tables
from ..playing.units import UnitPlayer, unit_title
from ..referee.confine import confine
from .descriptors import chain
from .held import HELD
from .messages import Done, Failed, Ready, received, send


def worker_main(connection: Any, plan: Plan, parent: int, memory_limit: int, forked: bool) -> None:
    """A worker process: confine itself, load the strategies, then play the units it is sent
    until told to stop, exact strategies from the tables it is sent first. It ends with `os._exit`, so
    no thread a strategy left keeps it alive."""
    if forked:
        _close_inherited(connection.fileno())
    confine(memory_limit, parent)
    for number in HELD:  # a fork has the main process's handlers: a worker has the default ones
        signal.signal(number, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process decides what Ctrl-C stops
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)  # held while it started (a Ctrl-C for the old group is gone)
    with contextlib.suppress(BaseException):
        _serve(connection, plan, memory_limit)
    os._exit(0)


def _close_inherited(kept: int) -> None:
    """Close what a forked worker has of the main process's open files but the standard streams,
    stdin's stand-in and `kept`: its hosts' sockets, the other workers' pipes, a caller's own files.
    A worker then holds what a spawned one would, and room for its own hosts. (The objects that held
    them are the main process's, never used here.)"""
    keep = {kept}
    with contextlib.suppress(AttributeError, ValueError, OSError):
        keep.add(sys.stdin.fileno())  # multiprocess gives a worker an empty stdin
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc/self/fd"):
            if int(name) > 2 and int(name) not in keep:
                with contextlib.suppress(OSError):
                    os.close(int(name))


def _serve(connection: Any, plan: Plan, memory_limit: int) -> None:
    try:
        tables: Sent = received(connection)
    except EOFError:  # the main process is gone
        return
    try:
        player = UnitPlayer(plan, unwired_tables(tables, plan.config.rules))
    except StrategyLoadError as error:
        send(connection, Failed(marked(error)))
        return
    except BaseException as error:  # whatever it is, said rather than lost with the worker
        send(connection, Failed(f"a strategy failed to load: {cause(error)}"))
        return
    try:
        send(connection, Ready())
        while True:
            try:
                unit = received(connection)
            except EOFError:  # the main process is gone
                return
            if unit is None:
                return
            try:
                result = player.play(unit)
            except BaseException as error:  # a failure of the referee's own, or a host's named
                send(connection, Failed(_failure_message(plan, unit, error, memory_limit)))
                return
            send(connection, Done(result))
    finally:
        player.close()


def _failure_message(plan: Plan, unit: WorkUnit, error: BaseException, memory_limit: int) -> str:
    """Why a unit failed in a worker, in one sentence: a strategy's failure as it was raised, a
    strategy out of memory named with the limit."""
    where = f"while playing {unit_title(plan, unit)}"
    links = list(chain(error))
    if memory_limit and any(isinstance(link, MemoryError) for link in links):
        who = next((f"strategy {link.name!r}" for link in links if isinstance(link, StrategyError)), "a strategy")
        raise_it = f"raise it with {setting('memory_limit')}"
        return f"{where}, {who} ran out of its memory limit of {memory_limit} MiB ({raise_it})."
    if isinstance(error, TournamentFailure):
        return error.marked
    if isinstance(error, KeyboardInterrupt):  # Ctrl-C is ignored here, so a strategy raised it itself
        return f"{where}, a strategy raised KeyboardInterrupt."
    return f"{where}, a strategy raised {cause(error)}"
