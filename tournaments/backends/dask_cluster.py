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

Its parts: `dask_connect` reaches the cluster (`dask_local` starts a local one), `dask_logs`
keeps distributed's logs, `dask_events` is what a run waits for, `dask_run` submits the tasks
and collects their results, `dask_shipment` is what every task is given, and `dask_worker` plays
the units on a worker.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Callable

from ..errors import ConfigError
from ..playing.plan import Plan
from ..playing.units import UnitResult
from ..version import shutbox_version
from .dask_connect import check_versions, connected
from .dask_events import Events
from .dask_local import INSTALL
from .dask_logs import logs_kept
from .dask_run import ClusterRun
from .dask_shipment import Shipment, strategy_files
from .descriptors import out_of_files, out_of_files_error


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
        shipment = Shipment(uuid.uuid4().hex, shutbox_version(), plan, strategy_files(plan))
        events = Events()
        with logs_kept(shipment.run):
            try:
                with events.noting_stops(), connected(self.address) as client:
                    events.check()
                    check_versions(client, shipment.version)
                    events.check()
                    ClusterRun(client, self.address, shipment, finished, events).play()
                events.check()  # a stop while the client closed
            except OSError as error:
                if out_of_files(error):
                    raise out_of_files_error(f"playing on the Dask cluster at {self.address}") from None
                raise
