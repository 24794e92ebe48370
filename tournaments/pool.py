"""The `ProcessPool` backend: work units played by a few worker processes.

Each worker loads the strategies itself from their specs (a class from a user's file does
not travel well between processes), plays whole work units and sends back only tallies.
The pool is a few `multiprocess` processes, each with its own pipe, started with an explicit
start method. Watching each worker's pipe and process sentinel lets the run notice at once
when a worker dies, stop a unit that runs past the time limit, and stop everything promptly
on Ctrl-C; a plain `Pool` would wait forever for a task whose worker died.
"""

from __future__ import annotations

import contextlib
import dataclasses
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from strategies.loading import StrategyLoadError

from .errors import ConfigError, TournamentFailure
from .plan import Plan, WorkUnit
from .units import UnitPlayer, UnitResult, timeout_message, unit_title

START_METHOD = "spawn"
"""How worker processes start: a fresh interpreter on every platform, never a fork of a
process that may be running a progress-bar thread."""


@dataclasses.dataclass(frozen=True)
class ProcessPool:
    """Plays the units in `workers` spawned processes (no more than the plan has units).
    A strategy that ends its process is reported as a dead worker, not obeyed."""

    workers: int

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ConfigError(f"a process pool needs at least 1 worker, not {self.workers}.")

    def run(self, plan: Plan, finished: Callable[[UnitResult], None]) -> None:
        _run_pool(plan, min(self.workers, plan.unit_count), finished)


def _worker_main(connection: Any, plan: Plan) -> None:
    """A worker process: load the strategies, then play the units it is sent until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process decides what Ctrl-C stops
    try:
        player = UnitPlayer(plan)
    except StrategyLoadError as error:
        connection.send(("failed", str(error)))
        return
    connection.send(("ready", None))
    while True:
        try:
            unit = connection.recv()
        except EOFError:  # the main process is gone
            return
        if unit is None:
            return
        try:
            result = player.play(unit)
        except TournamentFailure as error:
            connection.send(("failed", str(error)))
            return
        except KeyboardInterrupt:  # Ctrl-C is ignored here, so a strategy raised it itself
            connection.send(("failed", f"while playing {unit_title(plan, unit)}, a strategy raised KeyboardInterrupt."))
            return
        connection.send(("done", result))


@dataclasses.dataclass
class _Worker:
    process: Any
    connection: Any
    unit: WorkUnit | None = None
    started: float = 0.0
    ready: bool = False
    """Whether it has loaded the strategies: a worker that dies before then died starting up."""


def _run_pool(plan: Plan, count: int, finished: Callable[[UnitResult], None]) -> None:
    import multiprocess
    from multiprocess.connection import wait

    context = multiprocess.get_context(START_METHOD)
    tracker = _idle_resource_tracker()
    pool: list[_Worker] = []
    units = plan.units()
    try:
        with _ctrl_c_ignored():  # inherited: workers ignore Ctrl-C, only this process handles it
            for _ in range(count):
                mine, theirs = context.Pipe()
                process = context.Process(target=_worker_main, args=(theirs, plan), daemon=True)
                process.start()
                theirs.close()
                pool.append(_Worker(process, mine))
        for worker in pool:
            _give(worker, next(units, None))
        # After a failure no new unit starts, but units before the failed one run to their
        # end: the failure reported is the earliest one, whatever the number of workers.
        failure: tuple[int, str] | None = None
        while True:
            busy = [
                (worker, worker.unit)
                for worker in pool
                if worker.unit is not None and (failure is None or worker.unit.number < failure[0])
            ]
            if not busy:
                break
            deadline = min(worker.started for worker, _ in busy) + plan.config.timeout
            watched = [worker.connection for worker, _ in busy] + [worker.process.sentinel for worker, _ in busy]
            ready = set(wait(watched, timeout=max(0.0, deadline - time.monotonic())))
            for worker, unit in busy:
                if worker.connection in ready:
                    try:
                        kind, payload = worker.connection.recv()
                    except (EOFError, OSError):
                        kind, payload = "failed", _death_message(plan, worker)
                elif worker.process.sentinel in ready:
                    kind, payload = "failed", _death_message(plan, worker)
                elif time.monotonic() - worker.started > plan.config.timeout:
                    kind, payload = "failed", timeout_message(plan, unit)
                else:
                    continue
                if kind == "ready":
                    worker.ready = True
                    continue
                if kind == "failed":
                    worker.unit = None
                    if failure is None or unit.number < failure[0]:
                        failure = (unit.number, payload)
                    continue
                finished(payload)
                _give(worker, None if failure else next(units, None))
        if failure is not None:
            raise TournamentFailure(failure[1])
        for worker in pool:
            worker.connection.send(None)
        for worker in pool:
            worker.process.join(timeout=5)
    finally:
        _stop(pool, tracker)


def _give(worker: _Worker, unit: WorkUnit | None) -> None:
    """Send a worker its next unit (None: nothing left; it idles until the pool closes)."""
    worker.unit = unit
    if unit is not None:
        worker.connection.send(unit)
        worker.started = time.monotonic()


def _death_message(plan: Plan, worker: _Worker) -> str:
    worker.process.join(timeout=1)
    code = worker.process.exitcode
    how = f"was killed by signal {-code}" if code is not None and code < 0 else f"exited with status {code}"
    if not worker.ready:
        return (
            f"a worker process {how} while starting up; a strategy's module may have ended it, or the script "
            'that runs the tournament lacks `if __name__ == "__main__":` (worker processes import the script).'
        )
    doing = f"while playing {unit_title(plan, worker.unit)}" if worker.unit is not None else "while idle"
    return f"a worker process {how} {doing}; a strategy may have ended the process."


def _stop(pool: list[_Worker], tracker: Any) -> None:
    """Stop every worker still running and wait for it, and the resource tracker if the run
    started it, so none is left behind (a second Ctrl-C meanwhile is ignored rather than
    cutting the clean-up short)."""
    with _ctrl_c_ignored():
        for worker in pool:
            if worker.process.is_alive():
                worker.process.terminate()
        for worker in pool:
            worker.process.join(timeout=2)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.connection.close()
        if tracker is not None:
            tracker._stop()


@contextlib.contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    """Ignore SIGINT for a while (only the main thread can change signal handlers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _idle_resource_tracker() -> Any:
    """The helper process that spawning workers starts, if it is not running yet (else None),
    so that the run can stop and reap it at the end rather than leave it to outlive the pool.
    One already running serves someone else and is left alone. multiprocess has no public
    way to stop it: this relies on its private `_fd` and `_stop`, and does nothing without them."""
    from multiprocess import resource_tracker

    tracker = resource_tracker._resource_tracker
    if getattr(tracker, "_fd", True) is None and hasattr(tracker, "_stop"):
        return tracker
    return None
