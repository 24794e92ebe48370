"""The `DaskCluster` backend: work units played on a Dask cluster (`distributed`, the
`shutbox[dask]` extra), as tasks of its scheduler.

A task plays a few consecutive work units (so that the scheduler's cost per task stays small
beside the play) and depends on one shared task that holds the plan, which the scheduler can
recompute. Each worker thread keeps a unit player per run, made at its first unit: built-in
strategies load in the worker, and each user's strategy in a host process of its own
(`referee.isolation`), so no user's code ever runs in a worker, whose process outlives the run.
A strategy given as a file travels as its source, written on the worker afresh for each run (a
host could change its copy) for its hosts to load. When the run ends, however it ends, every
worker stops the run's hosts (one that was not told stops them once idle for a while) and
removes its copies. Workers send back only tallies. A worker that dies has
its tasks rescheduled elsewhere by Dask, its hosts dying with it; units are deterministic, so
a retried unit counts the same. A task tells the run as it starts each unit, so a unit that
runs past the time limit is caught as in the pool, and its worker restarted.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import hashlib
import itertools
import logging
import os
import queue
import re
import shutil
import signal
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, NamedTuple

from strategies.loading import StrategyLoadError, spec_file
from strategies.shown import cause

from ..errors import ConfigError, TournamentError, TournamentFailure, marked
from ..field.config import LOCAL_SCHEDULER
from ..playing.plan import Plan, WorkUnit
from ..playing.units import UnitPlayer, UnitResult, timed, timeout_message, unit_title
from ..version import DISTRIBUTION, shutbox_version
from .descriptors import local_cluster_files, make_room, out_of_files, out_of_files_error
from .messages import Done, Failed, Outcome, Refused
from .pool import _ctrl_c_ignored

INSTALL = 'pip install ".[dask]" in shutbox\'s checkout'
CONNECT_TIMEOUT = 3.0
"""Seconds to reach the scheduler before giving up."""
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
IDLE_SECONDS = 60.0
"""A worker stops the hosts of a player that has played nothing for this long: a run whose end
it was not told (its client killed, the scheduler lost), or whose last units it will not play
(another unit of the run starts them again)."""
_ENDED_RUNS = 256
"""Runs a worker remembers as ended, so that a task of one (cancelled, but already running)
starts no hosts."""
_LOGGERS = ("distributed", "asyncio", "tornado")
"""Where distributed and the event loop it runs on log (tornado's accept loop, out of open
files, logs the same error thousands of times a second)."""
_KEPT_RECORDS = 1000
_STOPS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals that stop a run, noted while it is on a cluster."""


@dataclasses.dataclass(frozen=True)
class DaskCluster:
    """Plays the units on the Dask cluster whose scheduler is at `address` (`tcp://HOST:8786`),
    or, with `"local"`, on a cluster of this machine's cores started for the run and torn down
    after it. An external cluster is left running, whatever happens to the run."""

    address: str

    def __post_init__(self) -> None:
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise ConfigError(
                f"running on a Dask scheduler needs Dask's distributed package; install it with: {INSTALL}"
            ) from None

    def run(self, plan: Plan, finished: Callable[[UnitResult], None]) -> None:
        shipment = _Shipment(uuid.uuid4().hex, shutbox_version(), plan, _strategy_files(plan))
        events = _Events()
        with _logs_kept(shipment.run):
            try:
                with events.noting_stops(), _connected(self.address) as client:
                    events.check()
                    _check_versions(client, shipment.version)
                    events.check()
                    _Run(client, self.address, shipment, finished, events).play()
                events.check()  # a stop while the client closed
            except OSError as error:
                if out_of_files(error):
                    raise out_of_files_error(f"playing on the Dask cluster at {self.address}") from None
                raise


class _TaskNews(NamedTuple):
    """A task started a unit (`unit`), or ended (`unit` None), on `worker`. Its wire form is the
    plain dict a worker logs (Dask's events travel as msgpack), read back by `of`."""

    task: int
    unit: int | None
    worker: str

    def wire(self) -> dict[str, Any]:
        return self._asdict()

    @classmethod
    def of(cls, event: Mapping[str, Any]) -> _TaskNews:
        return cls(event["task"], event["unit"], event["worker"])


class _TaskDone(NamedTuple):
    """A task's future is done (told by the client's thread): the task by its first unit's number."""

    task: int


class _Interrupted(NamedTuple):
    """A stop signal (Ctrl-C, SIGTERM, SIGHUP)."""


_Event = _TaskNews | _TaskDone | _Interrupted


class _Events:
    """What a run waits for: tasks that start and end (told by the workers), units done (told by
    the client's thread), and a stop signal (Ctrl-C, SIGTERM, SIGHUP). A stop is noted by a signal
    handler and raised by the run where it is safe, by the handler the signal had before (the
    caller's, which may note which signal it was), else as a KeyboardInterrupt: one in the middle
    of distributed's own code can leave its client hung."""

    def __init__(self) -> None:
        self.queue: queue.Queue[_Event] = queue.Queue()
        self.stop: tuple[int, Any] | None = None
        """The signal that stopped the run, and the handler it had before the run."""

    def put(self, event: _Event) -> None:
        self.queue.put(event)

    def get(self, timeout: float) -> _Event:
        """The next event; queue.Empty after `timeout` seconds without one; KeyboardInterrupt after a stop."""
        event = self.queue.get(timeout=timeout)
        self.check()
        return event

    def check(self) -> None:
        if self.stop is None:
            return
        number, previous = self.stop
        if callable(previous):
            previous(number, None)
        raise KeyboardInterrupt

    @contextlib.contextmanager
    def noting_stops(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        before: dict[int, Any] = {}

        def note(number: int, frame: Any) -> None:
            if self.stop is None:
                self.stop = (number, before.get(number))
                self.put(_Interrupted())

        for number in _STOPS:
            before[number] = signal.signal(number, note)
        try:
            yield
        finally:
            for number, handler in before.items():
                signal.signal(number, handler)


@dataclasses.dataclass(frozen=True)
class _Shipment:
    """What every task of a run is given: the plan, and the source of each strategy given as a
    file, by its index in the field, as (the file as the spec names it, its text)."""

    run: str
    version: str
    plan: Plan
    files: Mapping[int, tuple[str, str]]

    @property
    def topic(self) -> str:
        """Where the run's tasks say that they have started."""
        return f"shutbox-{self.run}"


def _strategy_files(plan: Plan) -> dict[int, tuple[str, str]]:
    """The source of each user's strategy given as `path/file.py:Class`, read here (never
    imported) to send to the workers."""
    files = {}
    for index, entry in enumerate(plan.config.strategies):
        where = spec_file(entry.spec)
        if entry.builtin or where is None:
            continue
        try:
            files[index] = (where, Path(where).expanduser().read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            message = f"cannot read file {where!r} of strategy {entry.spec!r} to send it: {cause(error)}"
            raise ConfigError(message) from None
    return files


def _loggers() -> list[logging.Logger]:
    """The loggers of `_LOGGERS`, and those below them with handlers of their own (distributed's
    configuration gives some, `distributed.client` among them, a handler of their own)."""
    below = tuple(f"{name}." for name in _LOGGERS)
    return [logging.getLogger(name) for name in _LOGGERS] + [
        logger
        for name, logger in list(logging.Logger.manager.loggerDict.items())
        if isinstance(logger, logging.Logger) and name.startswith(below) and logger.handlers
    ]


class _Log(logging.Handler):
    """The last `_KEPT_RECORDS` warnings and errors of distributed and the event loop it runs on."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.setFormatter(logging.Formatter("%(asctime)s - %(name)s - %(levelname)s - %(message)s"))
        self.lines: collections.deque[str] = collections.deque(maxlen=_KEPT_RECORDS)
        self.errors = False

    def emit(self, record: logging.LogRecord) -> None:
        self.errors = self.errors or record.levelno >= logging.ERROR
        try:
            self.lines.append(self.format(record))
        except Exception:  # a record that cannot be formatted is not worth failing over
            self.handleError(record)


@contextlib.contextmanager
def _logs_kept(run: str) -> Iterator[None]:
    """Keep what distributed logs (and asyncio and tornado, its event loop) off the terminal while
    a run handles what it tells: the run's one sentence is all a user sees. If the run fails
    after an error was logged, the log is written to a file that the failure's sentence names."""
    log = _Log()
    saved = []
    for logger in _loggers():
        saved.append((logger, logger.handlers[:], logger.propagate))
        logger.handlers, logger.propagate = [log], False
    try:
        yield
    except TournamentError as error:
        if log.errors:
            path = Path(tempfile.gettempdir()) / f"shutbox-dask-{run}.log"
            with contextlib.suppress(OSError):
                path.write_text("".join(f"{line}\n" for line in log.lines), encoding="utf-8")
                error.args = (f"{error.marked.rstrip('.')}; Dask's log of the run: {path}.",)
        raise
    finally:
        for logger, handlers, propagate in saved:
            logger.handlers, logger.propagate = handlers, propagate


@contextlib.contextmanager
def _connected(address: str) -> Iterator[Any]:
    """A client of the scheduler at `address`, or of a local cluster started for the run; closed
    (and the local cluster stopped) at the end, a second Ctrl-C meanwhile ignored."""
    from dask.system import CPU_COUNT
    from distributed import Client, LocalCluster

    cluster = None
    try:
        if address == LOCAL_SCHEDULER:
            # Workers inherit an ignored Ctrl-C (and no other handler): this process decides what it
            # stops. Any port for the HTTP server (None would still try 8787, and warn if taken).
            workers = CPU_COUNT  # as many as LocalCluster starts
            make_room(
                local_cluster_files(workers), f"a local Dask cluster of {workers} worker{'s' if workers > 1 else ''}"
            )
            try:
                with _ctrl_c_ignored():
                    cluster = LocalCluster(
                        host="127.0.0.1",
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address="127.0.0.1:0",
                        silence_logs=logging.CRITICAL,  # the workers' own: this process keeps its own (_logs_kept)
                    )
            except Exception as error:  # whatever its worker processes met while starting
                if out_of_files(error):
                    raise out_of_files_error("starting a local Dask cluster") from None
                raise TournamentFailure(
                    f"a local Dask cluster could not start ({cause(error).rstrip('.')}); the script that runs the "
                    'tournament may lack `if __name__ == "__main__":` (worker processes import the script).'
                ) from None
            client = Client(cluster, set_as_default=False)
        else:
            try:
                client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
            except (OSError, ValueError):
                raise ConfigError(
                    f"cannot reach a Dask scheduler at {address} within {CONNECT_TIMEOUT:g} seconds; "
                    f"check the address, or start one there with `dask scheduler` and workers with "
                    f"`dask worker {address}`."
                ) from None
        try:
            yield client
        finally:
            with _ctrl_c_ignored():
                client.close()
    finally:
        if cluster is not None:
            with _ctrl_c_ignored():
                cluster.close()


def _mismatch(worker: str, theirs: str | None, ours: str) -> str:
    has = "has no shutbox installed" if theirs is None else f"runs shutbox {theirs}"
    return (
        f"Dask worker {worker} {has} but this run is shutbox {ours}; every worker needs the same version "
        f"(shutbox {ours} with its dask extra there, from the same checkout or wheel), or reports could differ."
    )


def _check_versions(client: Any, ours: str) -> None:
    """Refuse a cluster whose workers run another shutbox (a task checks again, for late joiners)."""
    found = client.run(version, DISTRIBUTION, on_error="return")
    for worker, theirs in sorted(found.items()):
        if isinstance(theirs, PackageNotFoundError):
            theirs = None
        elif isinstance(theirs, BaseException):
            raise TournamentFailure(f"Dask worker {worker} could not be asked its shutbox version: {cause(theirs)}")
        if theirs != ours:
            raise ConfigError(_mismatch(worker, theirs, ours))


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


class _Run:
    """One run on a cluster: submit the units in tasks, hand on results as they come, and stop at
    the earliest failing unit (units before it play to their end, as in the pool), a unit past
    the time limit, or a cluster left without workers. Before a failure is raised, the tasks
    still running on a worker (cancelled, but a thread cannot be stopped) end or reach the time
    limit, and then their worker is restarted, so no stuck strategy keeps a worker busy."""

    def __init__(
        self, client: Any, address: str, shipment: _Shipment, finished: Callable[[UnitResult], None], events: _Events
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
        self.client.subscribe_topic(self.shipment.topic, lambda event: self.events.put(_TaskNews.of(event[1])))
        try:
            self._submit()
            self.events.check()
            while self._waiting() or (self.failure is not None and self.running):
                self._next()
            if self.failure is not None:
                raise self.failure[1]
        finally:
            with _ctrl_c_ignored():
                self.client.cancel([task.future for task in self.tasks.values()])
                self.client.unsubscribe_topic(self.shipment.topic)
                self._end()

    def _end(self) -> None:
        """Have every worker stop the run's hosts, and start no more (a worker out of reach stops
        them once they are idle)."""
        # Not with the scheduler lost (OSError; RuntimeError: the client's connections closed) or slow (TimeoutError).
        with contextlib.suppress(OSError, RuntimeError):
            self.client.run(_end_here, self.shipment.run, on_error="ignore", callback_timeout=END_TIMEOUT)

    def _submit(self) -> None:
        """Submit the shared task, then the first tasks of units (`_top_up` submits the others)."""
        run = self.shipment.run
        self.shared = self.client.submit(_shared, self.shipment, key=f"shutbox-plan-{run}", pure=False)
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
        futures = self.client.map(_play, batches, shipment=self.shared, key=keys, pure=False)
        for batch, future in zip(batches, futures, strict=True):
            first = batch[0].number
            self.tasks[first] = _Task(future, batch)
            future.add_done_callback(lambda _, first=first: self.events.put(_TaskDone(first)))

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
        if isinstance(event, _TaskNews) and event.unit is not None:
            batch = self.tasks[event.task].units if event.task in self.tasks else []
            limited = any(timed(self.plan, unit) for unit in batch if unit.number == event.unit)
            self.running[event.task] = _Playing(event.unit, time.monotonic(), event.worker, limited)
        elif isinstance(event, _TaskNews):
            self.running.pop(event.task, None)
        elif isinstance(event, _TaskDone) and event.task in self.tasks:
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


def _shared(shipment: _Shipment) -> _Shipment:
    """The task every unit depends on: it holds the shipment on the cluster, and the scheduler
    recomputes it if its worker dies."""
    return shipment


@dataclasses.dataclass
class _Kept:
    """A worker thread's player for a run: whether it is playing a unit, and when it last ended one."""

    player: UnitPlayer
    busy: bool = True
    used: float = 0.0


class _RunEnded(Exception):
    """A unit of a run that has ended on this worker: its task was cancelled while it ran."""


class _Players:
    """On a worker: each run's players, one per worker thread. A host answers one question at a
    time and is given each unit's deadline, and it dies with the thread that started it (the
    kernel's parent-death signal is a thread's): so each thread has hosts of its own, and no
    thread waits for another's. A player is kept for the run's next units on its thread, until
    the run ends (`end`) or it has been idle for `IDLE_SECONDS`; then its hosts are stopped."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.kept: dict[tuple[str, object], _Kept] = {}
        """Players by run and thread (a token of the thread's own, never reused as an ident may be)."""
        self.ended: collections.deque[str] = collections.deque(maxlen=_ENDED_RUNS)
        self.local = threading.local()
        self.reaping = False

    def take(self, shipment: _Shipment, folder: Path) -> _Kept:
        """This thread's player for the run, made on first use (StrategyLoadError if a strategy
        cannot load), busy until `done`; `_RunEnded` if the run has ended here."""
        key = (shipment.run, self._thread())
        with self.lock:
            if shipment.run in self.ended:
                raise _RunEnded
            kept = self.kept.get(key)
            if kept is not None:
                kept.busy = True
                return kept
            self._reap_soon()
        kept = _Kept(UnitPlayer(_local_plan(shipment, folder)))
        with self.lock:
            ended = shipment.run in self.ended
            if not ended:
                self.kept[key] = kept
        if ended:
            kept.player.close()
            raise _RunEnded
        return kept

    def done(self, kept: _Kept) -> None:
        """A unit has ended on this player."""
        with self.lock:
            kept.busy, kept.used = False, time.monotonic()

    def end(self, run: str) -> None:
        """Stop the hosts of the run's players, busy or not (a unit still playing fails, unheard),
        and make no more for it."""
        with self.lock:
            self.ended.append(run)
            ending = [self.kept.pop(key) for key in list(self.kept) if key[0] == run]
        for kept in ending:
            kept.player.close()

    def _thread(self) -> object:
        token = getattr(self.local, "token", None)
        if token is None:
            token = self.local.token = object()
        return token

    def _reap_soon(self) -> None:
        """Start the thread that stops idle players' hosts, once (called with the lock held)."""
        if not self.reaping:
            self.reaping = True
            threading.Thread(target=self._reap, name="shutbox-idle-hosts", daemon=True).start()

    def _reap(self) -> None:
        while True:
            time.sleep(IDLE_SECONDS / 4)
            now = time.monotonic()
            with self.lock:
                idle = [key for key, kept in self.kept.items() if not kept.busy and now - kept.used > IDLE_SECONDS]
                stopping = [self.kept.pop(key) for key in idle]
            for kept in stopping:
                kept.player.close()


_players = _Players()


def _end_here(run: str, dask_worker: Any) -> None:
    """On a worker (`client.run`, which names the worker `dask_worker`), as a run ends: stop its
    hosts, and remove the copies of its strategy files."""
    _players.end(run)
    shutil.rmtree(_copies(Path(dask_worker.local_directory).resolve(), run), ignore_errors=True)


def _play(batch: list[WorkUnit], shipment: _Shipment) -> list[Outcome]:
    """A task: play a few units on this worker, telling the run as each starts and when the
    task ends; the outcome of each unit, up to the first that fails."""
    from distributed import get_worker

    worker = get_worker()
    task = batch[0].number
    outcomes: list[Outcome] = []
    try:
        for unit in batch:
            worker.log_event(shipment.topic, _TaskNews(task, unit.number, worker.address).wire())
            outcomes.append(_play_here(unit, shipment, worker))
            if not isinstance(outcomes[-1], Done):
                break
    finally:
        worker.log_event(shipment.topic, _TaskNews(task, None, worker.address).wire())
    return outcomes


def _play_here(unit: WorkUnit, shipment: _Shipment, worker: Any) -> Outcome:
    """The unit's tallies, or why it failed (a strategy's failure), or why this worker refuses
    the plan (another shutbox)."""
    here = shutbox_version()
    if here != shipment.version:
        return Refused(_mismatch(worker.address, here, shipment.version))
    folder = Path(worker.local_directory).resolve()  # as a host names the file it loaded
    try:
        kept = _players.take(shipment, folder)
    except StrategyLoadError as error:
        message = _as_typed(marked(error), shipment, folder).rstrip(".")
        return Failed(
            f"Dask worker {worker.address} cannot load the strategies: {message}; a module or package "
            "strategy must be installed on every worker."
        )
    except _RunEnded:
        return Failed(f"the run ended before {unit_title(shipment.plan, unit)} could play.")
    try:
        return Done(kept.player.play(unit))
    except TournamentFailure as error:
        return Failed(_as_typed(error.marked, shipment, folder))
    finally:
        _players.done(kept)


def _as_typed(message: str, shipment: _Shipment, folder: Path) -> str:
    """A message with each file strategy named as its spec names it, not by its copy on this
    worker (in the error and in the strategy's traceback lines)."""
    for where, source in shipment.files.values():
        message = message.replace(str(_local_file(folder, shipment.run, where, source)), where)
    return re.sub(r"(?<=-s )(\S+)=\1(?=\s)", r"\1", message)  # a replay's `-s SPEC=SPEC` is `-s SPEC`


def _copies(folder: Path, run: str) -> Path:
    """Where a run's strategy files are written on a worker: written afresh for each run, so
    that no file a host of an earlier run may have changed is loaded again."""
    return folder / "shutbox-strategies" / run


def _local_file(folder: Path, run: str, where: str, source: str) -> Path:
    """Where a file strategy's source is written on a worker: in a folder named by its content."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    return _copies(folder, run) / digest / Path(where).name


def _local_plan(shipment: _Shipment, folder: Path) -> Plan:
    """The plan with each file strategy's spec pointing at its source written on this worker,
    and every user's strategy hosted in a process of its own (`isolate`)."""
    plan = shipment.plan
    entries = list(plan.config.strategies)
    for index, (where, source) in shipment.files.items():
        path = _local_file(folder, shipment.run, where, source)
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
            partial.write_text(source, encoding="utf-8")
            partial.replace(path)
        entry = entries[index]
        entries[index] = dataclasses.replace(entry, spec=str(path) + entry.spec[len(where) :])
    config = dataclasses.replace(plan.config, strategies=tuple(entries))
    return dataclasses.replace(plan, config=config)
