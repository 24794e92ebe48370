"""A pool's worker processes, from the main process: started (forked where that is safe, else
spawned), each leading a process group of its own; sent units, heard, and ended with all they
started. A worker gone is said in one sentence naming what it played."""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import os
import signal
import sys
import time
from typing import Any, cast

from ..errors import setting
from ..playing.plan import Plan, WorkUnit
from ..playing.units import timed, unit_title
from ..referee.confine import kill_group
from .held import signals_held
from .messages import Failed, Reply, received, send
from .worker_process import worker_main

GRACE = 1.0
"""How long a worker, or the resource tracker, has to end by itself once told to."""


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


@dataclasses.dataclass
class Worker:
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


def start_workers(pool: list[Worker], context: Any, plan: Plan, count: int, limit: int, forked: bool) -> None:
    """Start `count - 1` workers into `pool` (each one as it starts, so that a failure leaves none
    unseen), each leading a process group of its own."""
    with signals_held():  # a worker starts with them held too, until it is its own group
        for _ in range(count - 1):
            mine, theirs = context.Pipe()
            arguments = (theirs, plan, os.getpid(), limit, forked)
            process = context.Process(target=worker_main, args=arguments, daemon=True)
            pool.append(Worker(process, mine))
            process.start()
            with contextlib.suppress(OSError):  # the worker does it too: whichever comes first
                os.setpgid(process.pid, process.pid)
            theirs.close()


def give(plan: Plan, worker: Worker, unit: WorkUnit | None) -> int:
    """Send a worker another unit (None: nothing left; it idles once its units are played): how many
    were sent."""
    if unit is not None:
        if worker.unit is None:
            worker.timed = timed(plan, unit, loading=not worker.ready)
            worker.started = time.monotonic()
        worker.queued.append(unit)
        with contextlib.suppress(OSError):  # a worker that died just now: its exit status says so
            send(worker.connection, unit)
    return unit is not None


def more(worker: Worker) -> bool:
    """Whether a worker has said more, or ended, since it was last heard (a closed pipe says so too)."""
    try:
        return bool(worker.connection.poll())
    except OSError:
        return True


def reply(plan: Plan, worker: Worker, limit: int) -> Reply:
    """What a worker said, or why it is gone. A worker that has ended may have said why just before
    (a failure it sends, then it exits): its last word is read before its death is reported."""
    try:
        if worker.process.exitcode is None or worker.connection.poll():
            return cast(Reply, received(worker.connection))
    except (EOFError, OSError):
        pass
    return Failed(_death_message(plan, worker, limit))


def _death_message(plan: Plan, worker: Worker, limit: int) -> str:
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


def _exit_code(worker: Worker) -> int | None:
    """The worker's exit status, once it has ended (a moment after its pipe closed); if it is
    still running after that, it is killed and the kill is what is reported."""
    deadline = time.monotonic() + GRACE
    while worker.process.exitcode is None and time.monotonic() < deadline:
        time.sleep(0.01)
    if worker.process.exitcode is None:
        kill(worker)
        worker.process.join()
    code: int | None = worker.process.exitcode
    return code


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return "unknown"


def kill(worker: Worker) -> None:
    """Kill a worker and everything in its process group (which outlives a dead worker while a
    process a strategy started is still in it)."""
    if worker.process.pid is not None:
        kill_group(worker.process.pid)
        worker.process.kill()  # in case it had not made its own group yet


def dismiss(pool: list[Worker]) -> None:
    """Tell the workers the run is over and give them a moment to end by themselves."""
    for worker in pool:
        with contextlib.suppress(OSError):
            send(worker.connection, None)
    deadline = time.monotonic() + GRACE
    while any(worker.process.exitcode is None for worker in pool) and time.monotonic() < deadline:
        time.sleep(0.01)


def stop_workers(pool: list[Worker], tracker: Any) -> None:
    """Kill every worker's process group and reap the workers, and the resource tracker if the
    run started it, so none is left behind. Nothing here waits on a pipe a strategy's process
    may hold open; a signal meanwhile waits until the clean-up is done."""
    with signals_held():
        for worker in pool:
            kill(worker)
        for worker in pool:
            if worker.process.pid is not None:
                worker.process.join()  # waitpid: it was killed, so this returns at once
            worker.connection.close()
        _stop_tracker(tracker)


def idle_resource_tracker() -> Any:
    """The helper process that spawning workers starts, if it is not running yet (else None),
    so that the run can stop and reap it at the end rather than leave it to outlive the pool.
    One already running serves someone else and is left alone. multiprocess has no public
    way to stop it: this relies on its private `_fd`, `_pid` and `_lock`, and does nothing
    without them."""
    from multiprocess import resource_tracker

    tracker = getattr(resource_tracker, "_resource_tracker", None)  # the module's one tracker, private to it
    if getattr(tracker, "_fd", True) is None and hasattr(tracker, "_pid") and hasattr(tracker, "_lock"):
        return tracker
    return None


def _stop_tracker(tracker: Any) -> None:
    """Stop the resource tracker the run started: close its pipe (it then ends by itself), and
    kill it if it has not ended in a moment (a process that escaped its group may hold the pipe)."""
    if tracker is None:
        return
    # Its private `_lock`, `_fd` and `_pid` (`idle_resource_tracker`): multiprocess offers no other way.
    with tracker._lock:  # noqa: SLF001
        fd, pid = tracker._fd, tracker._pid  # noqa: SLF001
        if fd is None or pid is None:
            return
        tracker._fd = tracker._pid = None  # noqa: SLF001
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
