"""One run on a Dask cluster, from the client: the units submitted in tasks a few at a time,
results handed on as they come, units past the time limit stopped, and the earliest failure kept."""

from __future__ import annotations

import contextlib
import itertools
import queue
import time
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from strategies.shown import cause

from ..errors import ConfigError, TournamentError, TournamentFailure
from ..playing.plan import WorkUnit
from ..playing.units import UnitResult, timed, timeout_message, unit_title
from .dask_events import Events, TaskDone, TaskNews
from .dask_shipment import Shipment
from .dask_worker import end_run_here, play_task, shipment_task
from .held import ctrl_c_ignored
from .messages import Done, Outcome, Refused

WORKER_WAIT = 10.0
"""Seconds the run waits for a worker when the cluster has none (a restarting worker rejoins sooner)."""
RESTART_TIMEOUT = 10.0
"""Seconds to wait for a worker stuck in a strategy to restart."""
_TASKS_PER_THREAD = 16
"""Tasks a run makes per worker thread at least, where it has units enough (the last ones to
finish leave threads idle for at most about one task)."""
_MOST_UNITS_PER_TASK = 16
"""Units one task plays at most (a task's results come back together: progress in steps)."""
_QUEUED_PER_THREAD = 4 * _TASKS_PER_THREAD
"""Tasks a run keeps on the cluster per worker thread at most: more are submitted as they end,
so a plan of any size costs the client and the scheduler the same."""
_POLL = 1.0
"""Seconds between looks at the cluster's workers while no unit finishes."""
END_TIMEOUT = 10.0
"""Seconds a run waits for its workers to stop its hosts as it ends."""


class _Task(NamedTuple):
    """A task submitted: its future, and the units it plays in order."""

    future: Any
    units: list[WorkUnit]


class _Playing(NamedTuple):
    """A task a worker is playing: the unit it started last, when it started (here), the worker,
    and whether the unit may run out of time (`units.timed`)."""

    unit: int
    started: float
    worker: str
    limited: bool


class ClusterRun:
    """One run on a cluster: submit the units in tasks, hand on results as they come, and stop at
    the earliest failing unit (units before it play to their end, as in the pool), a unit past
    the time limit, or a cluster left without workers. Before a failure is raised, the tasks
    still running on a worker (cancelled, but a thread cannot be stopped) end or reach the time
    limit, and then their worker is restarted, so no stuck strategy keeps a worker busy."""

    def __init__(
        self, client: Any, address: str, shipment: Shipment, finished: Callable[[UnitResult], None], events: Events
    ) -> None:
        self.client = client
        self.address = address
        self.shipment = shipment
        self.plan = shipment.plan
        self.finished = finished
        self.events = events
        self.tasks: dict[int, _Task] = {}
        """Tasks whose results are still to come, by their first unit's number."""
        self.running: dict[int, _Playing] = {}
        """Tasks a worker is playing, by first unit."""
        self.failure: tuple[int, TournamentError] | None = None
        self.without_workers: float | None = None
        self.looked = time.monotonic()
        self.played = 0
        """Units played so far."""
        self.batches: Iterator[list[WorkUnit]] = iter(())
        """The tasks' units still to submit, in order."""
        self.shared: Any = None
        self.queued = 1
        """The most tasks on the cluster at once."""

    def play(self) -> None:
        self.client.subscribe_topic(self.shipment.topic, lambda event: self.events.put(TaskNews.of(event[1])))
        try:
            self._submit()
            self.events.check()
            while self._waiting() or (self.failure is not None and self.running):
                self._next()
            if self.failure is not None:
                raise self.failure[1]
        finally:
            with ctrl_c_ignored():
                self.client.cancel([task.future for task in self.tasks.values()])
                self.client.unsubscribe_topic(self.shipment.topic)
                self._end()

    def _end(self) -> None:
        """Have every worker stop the run's hosts, and start no more (a worker out of reach stops
        them once they are idle)."""
        # Not with the scheduler lost (OSError; RuntimeError: the client's connections closed) or slow (TimeoutError).
        with contextlib.suppress(OSError, RuntimeError):
            self.client.run(end_run_here, self.shipment.run, on_error="ignore", callback_timeout=END_TIMEOUT)

    def _submit(self) -> None:
        """Submit the shared task, then the first tasks of units (`_top_up` submits the others)."""
        run = self.shipment.run
        self.shared = self.client.submit(shipment_task, self.shipment, key=f"shutbox-plan-{run}", pure=False)
        threads = sum(self.client.nthreads().values()) or 1
        size = max(1, min(_MOST_UNITS_PER_TASK, self.plan.unit_count // (threads * _TASKS_PER_THREAD)))
        units = self.plan.units()
        self.batches = iter(lambda: list(itertools.islice(units, size)), [])
        self.queued = threads * _QUEUED_PER_THREAD
        self._top_up()

    def _top_up(self) -> None:
        """Submit tasks in order until the cluster holds `queued` of them (none after a failure)."""
        if self.failure is not None:
            return
        batches = list(itertools.islice(self.batches, max(0, self.queued - len(self.tasks))))
        if not batches:
            return
        keys = [f"shutbox-units-{self.shipment.run}-{batch[0].number}" for batch in batches]  # two task groups
        futures = self.client.map(play_task, batches, shipment=self.shared, key=keys, pure=False)
        for batch, future in zip(batches, futures, strict=True):
            first = batch[0].number
            self.tasks[first] = _Task(future, batch)
            future.add_done_callback(lambda _, first=first: self.events.put(TaskDone(first)))

    def _waiting(self) -> list[int]:
        """The tasks whose results are still needed: all, or after a failure those that start before it."""
        return [first for first in self.tasks if self.failure is None or first < self.failure[0]]

    def _next(self) -> None:
        """Wait for one event (a unit started, a task ended or done) or the next look at time limits and workers."""
        deadlines = [task.started + self.plan.config.timeout for task in self.running.values() if task.limited]
        wait = min([self.looked + _POLL, *deadlines]) - time.monotonic()
        try:
            event = self.events.get(timeout=max(0.0, wait))
        except queue.Empty:
            self._look()
            return
        if isinstance(event, TaskNews) and event.unit is not None:
            batch = self.tasks[event.task].units if event.task in self.tasks else []
            limited = any(timed(self.plan, unit) for unit in batch if unit.number == event.unit)
            self.running[event.task] = _Playing(event.unit, time.monotonic(), event.worker, limited)
        elif isinstance(event, TaskNews):
            self.running.pop(event.task, None)
        elif isinstance(event, TaskDone) and event.task in self.tasks:
            self._done(event.task)
            self._top_up()
        if time.monotonic() >= self.looked + _POLL:
            self._look()

    def _done(self, first: int) -> None:
        future, batch = self.tasks.pop(first)
        if future.status == "finished":
            outcomes: list[Outcome] = future.result()
            for unit, outcome in zip(batch, outcomes, strict=False):
                if isinstance(outcome, Done):
                    self.finished(outcome.result)
                    self.played += 1
                else:
                    error = ConfigError if isinstance(outcome, Refused) else TournamentFailure
                    self._fail(unit.number, error(outcome.message))
                    return
            return
        unit = self._current(first, batch)
        if future.status == "error":
            self._fail(unit.number, TournamentFailure(self._error_message(unit, future.exception())))
        else:
            title = unit_title(self.plan, unit)
            self._fail(unit.number, TournamentFailure(f"the Dask cluster at {self.address} dropped {title}."))

    def _current(self, first: int, batch: list[WorkUnit]) -> WorkUnit:
        """The unit a task was playing last, as far as the run has heard."""
        number = self.running[first].unit if first in self.running else first
        return next(unit for unit in batch if unit.number == number)

    def _error_message(self, unit: WorkUnit, error: BaseException) -> str:
        from distributed import KilledWorker

        title = unit_title(self.plan, unit)
        if isinstance(error, KilledWorker):
            return (
                f"Dask workers died {error.allowed_failures + 1} times while playing {title}, the last "
                f"{error.last_worker.address}; a strategy may have ended the process."
            )
        return f"the Dask cluster at {self.address} failed to play {title}: {cause(error)}"

    def _fail(self, number: int, error: TournamentError) -> None:
        """Keep the earliest failure; cancel the tasks after it."""
        if self.failure is not None and self.failure[0] < number:
            return
        self.failure = (number, error)
        self.client.cancel([self.tasks.pop(first).future for first in list(self.tasks) if first > number])

    def _look(self) -> None:
        """Stop units past the time limit, forget tasks of workers gone, and stop the run when the
        cluster has had no workers for long."""
        now = self.looked = time.monotonic()
        for first, (number, started, worker, limited) in list(self.running.items()):
            if limited and now - started > self.plan.config.timeout and first in self.running:
                if first in self._waiting():
                    task = self.tasks.pop(first)
                    self.client.cancel([task.future])
                    self._fail(number, TournamentFailure(timeout_message(self.plan, self._current(first, task.units))))
                self._restart(worker)
        try:
            workers = self.client.nthreads()
        except OSError as error:
            raise TournamentFailure(f"lost the Dask scheduler at {self.address}: {cause(error)}") from None
        self.running = {first: task for first, task in self.running.items() if task.worker in workers}
        if workers:
            self.without_workers = None
        elif self.without_workers is None:
            self.without_workers = now
        elif now - self.without_workers > WORKER_WAIT and self.failure is None:
            unplayed = self.plan.unit_count - self.played
            raise TournamentFailure(
                f"the Dask cluster at {self.address} has had no workers for {WORKER_WAIT:g} seconds, with "
                f"{unplayed} of {self.plan.unit_count} work units unplayed; start workers with "
                f"`dask worker {self.address}`."
            )

    def _restart(self, worker: str) -> None:
        """Restart a worker stuck in a strategy (where a nanny watches it: a thread cannot be
        stopped otherwise); its other tasks start again elsewhere."""
        self.client.restart_workers([worker], timeout=RESTART_TIMEOUT, raise_for_error=False)
        self.running = {first: task for first, task in self.running.items() if task.worker != worker}
