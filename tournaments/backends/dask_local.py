"""Starting a local Dask cluster for one run: a worker process per core of this machine, on
127.0.0.1, over TLS with a key and certificate made for the run."""

from __future__ import annotations

import logging
from typing import Any

from strategies.shown import cause

from ..errors import ConfigError, TournamentFailure
from .descriptors import local_cluster_files, make_room, out_of_files, out_of_files_error
from .held import ctrl_c_ignored

INSTALL = 'pip install ".[dask]" in shutbox\'s checkout'


def start_local() -> Any:
    """A local cluster of this machine's cores, started for the run (TLS: `local_security`); a
    TournamentFailure of one sentence if it cannot start."""
    from dask.system import CPU_COUNT
    from distributed import LocalCluster

    # Workers inherit an ignored Ctrl-C (and no other handler): this process decides what it
    # stops. Any port for the HTTP server (None would still try 8787, and warn if taken).
    workers = CPU_COUNT  # as many as LocalCluster starts
    make_room(local_cluster_files(workers), f"a local Dask cluster of {workers} worker{'s' if workers > 1 else ''}")
    security = local_security()
    try:
        with ctrl_c_ignored():
            return LocalCluster(
                host="127.0.0.1",
                threads_per_worker=1,
                processes=True,
                dashboard_address="127.0.0.1:0",
                silence_logs=logging.CRITICAL,  # the workers' own: this process keeps its own (logs_kept)
                security=security,
            )
    except Exception as error:  # whatever its worker processes met while starting
        if out_of_files(error):
            raise out_of_files_error("starting a local Dask cluster") from None
        raise TournamentFailure(
            f"a local Dask cluster could not start ({cause(error).rstrip('.')}); the script that runs the "
            'tournament may lack `if __name__ == "__main__":` (worker processes import the script).'
        ) from None


def local_security() -> Any:
    """The local cluster's security: TLS both ways, with a key and certificate made for the run and
    held in memory (this process's and its workers'). The scheduler lives in this process and runs
    what its clients ask: only a client with the run's certificate is one, never a host of a user's
    strategy that finds the port (hosts run on the workers, but are given nothing of theirs)."""
    from distributed import Security

    try:
        return Security.temporary()
    except ImportError:
        raise ConfigError(
            f"a local Dask cluster needs the cryptography package for its TLS; install it with: {INSTALL}"
        ) from None
