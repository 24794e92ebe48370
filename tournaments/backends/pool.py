"""The `ProcessPool` backend: work units played by a few worker processes.

The main process plays units too, as one of the pool's workers (so `-j 2` starts one worker
process), and sends each worker its units two ahead, so none waits on it. Each worker loads the
built-in strategies itself from their specs and starts a host for each user's strategy
(`isolation.Host`: a user's code never runs in a worker), plays whole work units and sends back
only tallies (one array of counts a unit; units and replies go down each worker's pipe pickled by
the standard library's pickler, not multiprocess's slower one); the main process plays with the hosts the field was
probed in. The exact strategies' tables are made once, by the main process, and sent to the
workers: no worker builds one. Where the workers are forks, the main process plays its first unit
before it starts them, so they start with what that loaded (the compiled kernel, the engine), but
for a field of a user's strategy with nothing in bulk: its workers start their hosts at once.
The pool is a few `multiprocess` processes, each with its own pipe, forked from the main process
where that is safe (`start_method`), else spawned. Each worker leads a process group of its own,
dies with the main process and has a memory limit (`confine`). The run watches each worker's
pipe and process, so it notices at once when a worker dies, stops a unit that runs past the time
limit, and stops everything promptly on Ctrl-C; and it ends a worker by killing its whole group,
so nothing a strategy started (a fork, a shell's background job) outlives the run or keeps it
waiting.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import gc
import math
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, cast

from strategies.errors import StrategyError
from strategies.limits import TimeUp, time_limit
from strategies.loading import StrategyLoadError
from strategies.shown import cause

from ..errors import ConfigError, TournamentFailure, marked, setting
from ..playing.plan import Plan, WorkUnit
from ..playing.tables import Sent, unwired_tables, wire_tables
from ..playing.units import UnitPlayer, UnitResult, timed, timeout_message, unit_title
from ..referee.confine import confine, kill_group, memory_limit_mib
from .descriptors import chain, make_room, out_of_files, out_of_files_error, pool_files
from .messages import Done, Failed, Ready, Reply

TICK = 0.2
"""The longest the run waits without looking whether a worker has died (a process a strategy
started may hold a dead worker's pipes open, so they never say it)."""
GRACE = 1.0
"""How long a worker, or the resource tracker, has to end by itself once told to."""


@dataclasses.dataclass(frozen=True)
class ProcessPool:
    """Plays the units in `workers` processes, this one and `workers - 1` started (no more than the
    plan has units).
    A strategy that ends its process is reported as a dead worker, not obeyed. Each worker
    may use `plan.config.memory_limit` MiB (None: its share of the machine's memory)."""

    workers: int

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ConfigError(f"a process pool needs at least 1 worker, not {self.workers}.")

    def run(self, plan: Plan, finished: Callable[[UnitResult], None]) -> None:
        count = min(self.workers, plan.unit_count)
        pool = f"a pool of {count} worker process{'es' if count > 1 else ''}"
        make_room(pool_files(count), pool, " or use fewer workers (-j)")
        try:
            _run_pool(plan, count, finished)
        except OSError as error:
            if out_of_files(error):
                raise out_of_files_error(f"running {pool}") from None
            raise


def _worker_main(connection: Any, plan: Plan, parent: int, memory_limit: int, forked: bool) -> None:
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
        tables: Sent = _received(connection)
    except EOFError:  # the main process is gone
        return
    try:
        player = UnitPlayer(plan, unwired_tables(tables, plan.config.rules))
    except StrategyLoadError as error:
        _send(connection, Failed(marked(error)))
        return
    except BaseException as error:  # whatever it is, said rather than lost with the worker
        _send(connection, Failed(f"a strategy failed to load: {cause(error)}"))
        return
    try:
        _send(connection, Ready())
        while True:
            try:
                unit = _received(connection)
            except EOFError:  # the main process is gone
                return
            if unit is None:
                return
            try:
                result = player.play(unit)
            except BaseException as error:  # a failure of the referee's own, or a host's named
                _send(connection, Failed(_failure_message(plan, unit, error, memory_limit)))
                return
            _send(connection, Done(result))
    finally:
        player.close()


def _send(connection: Any, message: object) -> None:
    """Send a message down a pipe, pickled by the standard library (in C: a unit or its tallies take
    a twentieth of the time multiprocess's own pickler, in Python, takes)."""
    connection.send_bytes(pickle.dumps(message, pickle.HIGHEST_PROTOCOL))


def _received(connection: Any) -> Any:
    """The next message `_send` sent down a pipe."""
    return pickle.loads(connection.recv_bytes())


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


@dataclasses.dataclass
class _Worker:
    process: Any
    connection: Any
    queued: collections.deque[WorkUnit] = dataclasses.field(default_factory=collections.deque)
    """The units it was sent and has not finished, the one it plays first."""
    started: float = 0.0
    timed: bool = False
    """Whether its unit may run out of time (`units.timed`)."""
    ready: bool = False
    """Whether it has loaded the strategies: a worker that dies before then died starting up."""

    @property
    def unit(self) -> WorkUnit | None:
        """The unit it plays now (None: idle)."""
        return self.queued[0] if self.queued else None


def _run_pool(plan: Plan, count: int, finished: Callable[[UnitResult], None]) -> None:
    with _signals_held():  # multiprocess's own import turns a KeyboardInterrupt into another error
        import multiprocess
        from multiprocess.connection import wait

    limit = memory_limit_mib(plan.config.memory_limit, count)
    player = _here(plan)
    here: UnitPlayer | None = player
    pool: list[_Worker] = []
    tracker = None
    units = plan.units()
    left = plan.unit_count
    try:
        if start_method() == "fork" and _warms_first(plan) and (first := next(units, None)) is not None:
            left -= 1
            if (failed := _play_here(plan, player, first, finished)) is not None:
                raise TournamentFailure(failed[1])
        method = start_method()
        context = multiprocess.get_context(method)
        tracker = _idle_resource_tracker()
        gc.freeze()  # a forked worker's collections then leave the objects it shares with this process alone
        with _signals_held():  # a worker starts with them held too, until it is its own group
            for _ in range(count - 1):
                mine, theirs = context.Pipe()
                arguments = (theirs, plan, os.getpid(), limit, method == "fork")
                process = context.Process(target=_worker_main, args=arguments, daemon=True)
                pool.append(_Worker(process, mine))
                process.start()
                with contextlib.suppress(OSError):  # the worker does it too: whichever comes first
                    os.setpgid(process.pid, process.pid)
                theirs.close()
        tables = wire_tables(player.tables())  # while the workers start
        for worker in pool:
            with contextlib.suppress(OSError):  # a worker that died just now: its exit status says so
                _send(worker.connection, tables)
        # Units are sent two ahead, so a worker never waits while this process plays one; the last
        # few one at a time, to whichever player is free, so that all of them finish together.
        for ahead in (1, 2):
            for worker in pool:
                if ahead == 1 or left > 2 * count:
                    left -= _give(plan, worker, next(units, None))
        # After a failure no new unit starts, but units before the failed one run to their
        # end: the failure reported is the earliest one, whatever the number of workers.
        failure: tuple[int, str] | None = None
        while True:
            busy = [
                (worker, unit)
                for worker in pool
                if (unit := worker.unit) is not None and (failure is None or unit.number < failure[0])
            ]
            playing = here is not None and failure is None
            if not busy and not playing:
                break
            deadline = min(
                (worker.started + plan.config.timeout for worker, _ in busy if worker.timed), default=math.inf
            )
            watched = [worker.connection for worker, _ in busy] + [worker.process.sentinel for worker, _ in busy]
            wait_for = 0.0 if playing else min(TICK, max(0.0, deadline - time.monotonic()))
            ready = set(wait(watched, timeout=wait_for)) if watched else set()
            for worker, unit in busy:
                reply: Reply
                if worker.connection in ready or worker.process.exitcode is not None:
                    reply = _reply(plan, worker, limit)
                elif worker.timed and time.monotonic() - worker.started > plan.config.timeout:
                    reply = Failed(timeout_message(plan, unit))
                else:
                    continue
                if isinstance(reply, Ready):  # the unit's time starts now; loading the strategies had as long
                    worker.ready = True
                    worker.started = time.monotonic()
                    worker.timed = timed(plan, unit)
                elif isinstance(reply, Failed):
                    worker.queued.clear()
                    _kill(worker)  # now, not at the end: it may be stuck, or have left processes behind
                    if failure is None or unit.number < failure[0]:
                        failure = (unit.number, reply.message)
                else:
                    worker.queued.popleft()
                    finished(reply.result)
                    if failure is None and (worker.unit is None or left > 2 * count):
                        left -= _give(plan, worker, next(units, None))
            if here is not None and failure is None:
                unit = next(units, None)
                if unit is None:
                    here.close()
                    here = None
                else:
                    left -= 1
                    failure = _play_here(plan, here, unit, finished)
        if failure is not None:
            raise TournamentFailure(failure[1])
        _dismiss(pool)
    finally:
        gc.unfreeze()
        if here is not None:
            here.close()
        _stop(pool, tracker)


def _reply(plan: Plan, worker: _Worker, limit: int) -> Reply:
    """What a worker said, or why it is gone. A worker that has ended may have said why just before
    (a failure it sends, then it exits): its last word is read before its death is reported."""
    try:
        if worker.process.exitcode is None or worker.connection.poll():
            return cast(Reply, _received(worker.connection))
    except (EOFError, OSError):
        pass
    return Failed(_death_message(plan, worker, limit))


def start_method() -> str:
    """How this process starts a pool's workers: on Linux, while it runs no other thread, a fork of
    itself, which has at once every module, strategy and table this one loaded; else a fresh
    interpreter (spawn) that imports them again. A fork copies only the thread that forks: a lock
    another thread held (a progress bar's, a library's) would stay locked in the worker for good.
    (The command line keeps numpy's own threads away: `shutbox_cli.entry`.)"""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):
            if len(os.listdir("/proc/self/task")) == 1:
                return "fork"
    return "spawn"


def _here(plan: Plan) -> UnitPlayer:
    """This process's own unit player: it makes the exact strategies' tables for the workers and
    plays units itself, with the hosts the field was probed in (`referee.idle`)."""
    try:
        return UnitPlayer(plan)
    except StrategyLoadError as error:
        raise TournamentFailure(marked(error)) from None


def _play_here(
    plan: Plan, here: UnitPlayer, unit: WorkUnit, finished: Callable[[UnitResult], None]
) -> tuple[int, str] | None:
    """Play one unit in this process, within the time limit if it seats a user's strategy (as
    `InProcess` does): None once played, else the unit's number and why it failed."""
    try:
        if timed(plan, unit):
            with time_limit(plan.config.timeout):
                result = here.play(unit)
        else:
            result = here.play(unit)
    except TimeUp:
        return unit.number, timeout_message(plan, unit)
    except TournamentFailure as error:
        return unit.number, error.marked
    finished(result)
    return None


def _warms_first(plan: Plan) -> bool:
    """Whether this process plays a unit before it forks the workers, so that they start with what
    that loaded (the compiled kernel, the tables, the engine's modules; else each loads them again):
    not for a field of a user's strategy with nothing in bulk, whose workers' longest start is their
    own hosts' (a fresh process each): they start them at once instead."""
    return bool(plan.bulk_matchups) or all(entry.builtin for entry in plan.config.strategies)


def _give(plan: Plan, worker: _Worker, unit: WorkUnit | None) -> int:
    """Send a worker another unit (None: nothing left; it idles once its units are played): how many
    were sent."""
    if unit is not None:
        if worker.unit is None:
            worker.timed = timed(plan, unit, loading=not worker.ready)
            worker.started = time.monotonic()
        worker.queued.append(unit)
        with contextlib.suppress(OSError):  # a worker that died just now: its exit status says so
            _send(worker.connection, unit)
    return unit is not None


def _death_message(plan: Plan, worker: _Worker, limit: int) -> str:
    """Why a worker is gone, in one sentence naming what it played and, where only one user's
    strategy played there, that strategy."""
    code = _exit_code(worker)
    if code is not None and code < 0:
        how = f"was killed by signal {-code} ({_signal_name(-code)})"
    else:
        how = f"exited with status {code}"
    if not worker.ready:
        return (
            f"a worker process {how} while starting up; a strategy's module may have ended it, or the script "
            'that runs the tournament lacks `if __name__ == "__main__":` (worker processes import the script).'
        )
    if worker.unit is None:
        return f"a worker process {how} while idle; a strategy may have ended the process."
    users = sorted(
        {
            plan.config.names[player]
            for matchup in worker.unit.matchups
            for player in plan.matchups[matchup].players
            if not plan.config.strategies[player].builtin
        }
    )
    who = f"strategy {users[0]!r}" if len(users) == 1 else "a strategy"
    doing = f"a worker process {how} while playing {unit_title(plan, worker.unit)}"
    if code is not None and code < 0 and limit:
        limited = f"its memory limit of {limit} MiB (raise it with {setting('memory_limit')})"
        return f"{doing}; {who} may have ended it, or run out of {limited}."
    return f"{doing}; {who} may have ended the process."


def _exit_code(worker: _Worker) -> int | None:
    """The worker's exit status, once it has ended (a moment after its pipe closed); if it is
    still running after that, it is killed and the kill is what is reported."""
    deadline = time.monotonic() + GRACE
    while worker.process.exitcode is None and time.monotonic() < deadline:
        time.sleep(0.01)
    if worker.process.exitcode is None:
        _kill(worker)
        worker.process.join()
    code: int | None = worker.process.exitcode
    return code


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return "unknown"


def _kill(worker: _Worker) -> None:
    """Kill a worker and everything in its process group (which outlives a dead worker while a
    process a strategy started is still in it)."""
    if worker.process.pid is not None:
        kill_group(worker.process.pid)
        worker.process.kill()  # in case it had not made its own group yet


def _dismiss(pool: list[_Worker]) -> None:
    """Tell the workers the run is over and give them a moment to end by themselves."""
    for worker in pool:
        with contextlib.suppress(OSError):
            _send(worker.connection, None)
    deadline = time.monotonic() + GRACE
    while any(worker.process.exitcode is None for worker in pool) and time.monotonic() < deadline:
        time.sleep(0.01)


def _stop(pool: list[_Worker], tracker: Any) -> None:
    """Kill every worker's process group and reap the workers, and the resource tracker if the
    run started it, so none is left behind. Nothing here waits on a pipe a strategy's process
    may hold open; a signal meanwhile waits until the clean-up is done."""
    with _signals_held():
        for worker in pool:
            _kill(worker)
        for worker in pool:
            if worker.process.pid is not None:
                worker.process.join()  # waitpid: it was killed, so this returns at once
            worker.connection.close()
        _stop_tracker(tracker)


@contextlib.contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    """Ignore SIGINT for a while (only the main thread can change signal handlers); the Dask
    backend's processes inherit it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


HELD = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
"""Signals that stop a run (Ctrl-C, and those a caller may handle like it)."""


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold back the signals that stop a run for a while: they take effect when it ends, so a
    worker is never half started nor the clean-up cut short. They are blocked (a worker
    started meanwhile inherits that, until it is its own group), and, since another thread of
    this process may take one anyway, their handlers only note them until then."""
    arrived: list[int] = []
    handlers: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for number in HELD:
            if signal.getsignal(number) is not None:
                handlers[number] = signal.signal(number, lambda number, frame: arrived.append(number))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, HELD) if hasattr(signal, "pthread_sigmask") else None
    try:
        yield
    finally:
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for number, handler in handlers.items():
            signal.signal(number, handler)
        for number in dict.fromkeys(arrived):
            signal.raise_signal(number)


def _idle_resource_tracker() -> Any:
    """The helper process that spawning workers starts, if it is not running yet (else None),
    so that the run can stop and reap it at the end rather than leave it to outlive the pool.
    One already running serves someone else and is left alone. multiprocess has no public
    way to stop it: this relies on its private `_fd`, `_pid` and `_lock`, and does nothing
    without them."""
    from multiprocess import resource_tracker

    tracker = resource_tracker._resource_tracker
    if getattr(tracker, "_fd", True) is None and hasattr(tracker, "_pid") and hasattr(tracker, "_lock"):
        return tracker
    return None


def _stop_tracker(tracker: Any) -> None:
    """Stop the resource tracker the run started: close its pipe (it then ends by itself), and
    kill it if it has not ended in a moment (a process that escaped its group may hold the pipe)."""
    if tracker is None:
        return
    with tracker._lock:
        fd, pid = tracker._fd, tracker._pid
        if fd is None or pid is None:
            return
        tracker._fd = tracker._pid = None
        with contextlib.suppress(OSError):
            os.close(fd)
        deadline = time.monotonic() + GRACE
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(pid, os.WNOHANG)[0] == 0:
                if time.monotonic() > deadline:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    break
                time.sleep(0.01)
