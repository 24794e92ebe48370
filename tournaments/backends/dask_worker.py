"""Playing units on a Dask worker: a task plays a few units with the worker thread's player for
the run (its users' strategies in hosts of their own), telling the run as each starts; a run's
hosts are stopped as it ends, or once idle."""

from __future__ import annotations

import collections
import dataclasses
import shutil
import threading
import time
from pathlib import Path
from typing import Any

from strategies.loading import StrategyLoadError

from ..errors import TournamentFailure, marked
from ..playing.plan import WorkUnit
from ..playing.units import UnitPlayer, unit_title
from ..version import shutbox_version
from .dask_events import TaskNews
from .dask_shipment import Shipment, as_typed, local_plan, run_copies, version_mismatch
from .messages import Done, Failed, Outcome, Refused

IDLE_SECONDS = 60.0
"""A worker stops the hosts of a player that has played nothing for this long: a run whose end
it was not told (its client killed, the scheduler lost), or whose last units it will not play
(another unit of the run starts them again)."""
_ENDED_RUNS = 256
"""Runs a worker remembers as ended, so that a task of one (cancelled, but already running)
starts no hosts."""


def shipment_task(shipment: Shipment) -> Shipment:
    """The task every unit depends on: it holds the shipment on the cluster, and the scheduler
    recomputes it if its worker dies."""
    return shipment


@dataclasses.dataclass
class Kept:
    """A worker thread's player for a run: whether it is playing a unit, and when it last ended one."""

    player: UnitPlayer
    busy: bool = True
    used: float = 0.0


class RunEnded(Exception):
    """A unit of a run that has ended on this worker: its task was cancelled while it ran."""


class Players:
    """On a worker: each run's players, one per worker thread. A host answers one question at a
    time and is given each unit's deadline, and it dies with the thread that started it (the
    kernel's parent-death signal is a thread's): so each thread has hosts of its own, and no
    thread waits for another's. A player is kept for the run's next units on its thread, until
    the run ends (`end`) or it has been idle for `IDLE_SECONDS`; then its hosts are stopped."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.kept: dict[tuple[str, object], Kept] = {}
        """Players by run and thread (a token of the thread's own, never reused as an ident may be)."""
        self.ended: collections.deque[str] = collections.deque(maxlen=_ENDED_RUNS)
        self.local = threading.local()
        self.reaping = False

    def take(self, shipment: Shipment, folder: Path) -> Kept:
        """This thread's player for the run, made on first use (StrategyLoadError if a strategy
        cannot load), busy until `done`; `RunEnded` if the run has ended here."""
        key = (shipment.run, self._thread())
        with self.lock:
            if shipment.run in self.ended:
                raise RunEnded
            kept = self.kept.get(key)
            if kept is not None:
                kept.busy = True
                return kept
            self._reap_soon()
        kept = Kept(UnitPlayer(local_plan(shipment, folder)))
        with self.lock:
            ended = shipment.run in self.ended
            if not ended:
                self.kept[key] = kept
        if ended:
            kept.player.close()
            raise RunEnded
        return kept

    def done(self, kept: Kept) -> None:
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


players = Players()


def end_run_here(run: str, dask_worker: Any) -> None:
    """On a worker (`client.run`, which names the worker `dask_worker`), as a run ends: stop its
    hosts, and remove the copies of its strategy files."""
    players.end(run)
    shutil.rmtree(run_copies(Path(dask_worker.local_directory).resolve(), run), ignore_errors=True)


def play_task(batch: list[WorkUnit], shipment: Shipment) -> list[Outcome]:
    """A task: play a few units on this worker, telling the run as each starts and when the
    task ends; the outcome of each unit, up to the first that fails."""
    from distributed import get_worker

    worker = get_worker()
    task = batch[0].number
    outcomes: list[Outcome] = []
    try:
        for unit in batch:
            worker.log_event(shipment.topic, TaskNews(task, unit.number, worker.address).wire())
            outcomes.append(_play_here(unit, shipment, worker))
            if not isinstance(outcomes[-1], Done):
                break
    finally:
        worker.log_event(shipment.topic, TaskNews(task, None, worker.address).wire())
    return outcomes


def _play_here(unit: WorkUnit, shipment: Shipment, worker: Any) -> Outcome:
    """The unit's tallies, or why it failed (a strategy's failure), or why this worker refuses
    the plan (another shutbox)."""
    here = shutbox_version()
    if here != shipment.version:
        return Refused(version_mismatch(worker.address, here, shipment.version))
    folder = Path(worker.local_directory).resolve()  # as a host names the file it loaded
    try:
        kept = players.take(shipment, folder)
    except StrategyLoadError as error:
        message = as_typed(marked(error), shipment, folder).rstrip(".")
        return Failed(
            f"Dask worker {worker.address} cannot load the strategies: {message}; a module or package "
            "strategy must be installed on every worker."
        )
    except RunEnded:
        return Failed(f"the run ended before {unit_title(shipment.plan, unit)} could play.")
    try:
        return Done(kept.player.play(unit))
    except TournamentFailure as error:
        return Failed(as_typed(error.marked, shipment, folder))
    finally:
        players.done(kept)
