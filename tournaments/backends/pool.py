"""The `ProcessPool` backend: work units played by a few worker processes.

The main process plays units too, as one of the pool's workers (so `-j 2` starts one worker
process), and keeps each worker units ahead (about 0.1 s of play, at least two), so none waits
on it while it plays one of its own. Each worker loads the built-in strategies itself from their
specs and starts a host for each user's strategy
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

Its parts: `pool_workers` starts and ends the worker processes, `worker_process` is what runs in
one, `pool_feeding` hands out the units and collects the results, and `held` holds the stopping
signals back while processes start and end.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
from collections.abc import Callable

from ..errors import ConfigError
from ..playing.plan import Plan
from ..playing.tables import wire_tables
from ..playing.units import UnitResult
from ..referee.confine import memory_limit_mib
from .descriptors import make_room, out_of_files, out_of_files_error, pool_files
from .held import signals_held
from .messages import send
from .pool_feeding import Feeding, own_player, warms_first
from .pool_workers import dismiss, idle_resource_tracker, start_method, start_workers, stop_workers


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


def _run_pool(plan: Plan, count: int, finished: Callable[[UnitResult], None]) -> None:
    """Start the workers (after a first unit here, where they fork and it warms them), send them
    the tables, feed the units until all are played or one fails, then end every worker."""
    with signals_held():  # multiprocess's own import turns a KeyboardInterrupt into another error
        import multiprocess
        from multiprocess.connection import wait

    limit = memory_limit_mib(plan.config.memory_limit, count)
    player = own_player(plan)
    feeding = Feeding(plan, count, limit, finished, player)
    tracker = None
    try:
        if start_method() == "fork" and warms_first(plan):
            feeding.warm()
        method = start_method()
        tracker = idle_resource_tracker()
        gc.freeze()  # a forked worker's collections then leave the objects it shares with this process alone
        start_workers(feeding.pool, multiprocess.get_context(method), plan, count, limit, method == "fork")
        tables = wire_tables(player.tables())  # while the workers start
        for worker in feeding.pool:
            with contextlib.suppress(OSError):  # a worker that died just now: its exit status says so
                send(worker.connection, tables)
        feeding.deal()
        feeding.play(wait)
        dismiss(feeding.pool)
    finally:
        gc.unfreeze()
        feeding.close()
        stop_workers(feeding.pool, tracker)
