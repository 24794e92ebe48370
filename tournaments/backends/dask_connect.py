"""Connecting a run to a Dask cluster: a client of the scheduler at an address, or of a local
cluster started for the run (`dask_local`), and a cluster whose workers run another shutbox refused."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from strategies.shown import cause

from ..errors import ConfigError, TournamentFailure
from ..field.values import LOCAL_SCHEDULER
from ..version import DISTRIBUTION
from .dask_local import start_local
from .dask_shipment import version_mismatch
from .held import ctrl_c_ignored

CONNECT_TIMEOUT = 3.0
"""Seconds to reach the scheduler before giving up."""


@contextlib.contextmanager
def connected(address: str) -> Iterator[Any]:
    """A client of the scheduler at `address`, or of a local cluster started for the run (over
    TLS: `dask_local`); closed (and the local cluster stopped) at the end, a second Ctrl-C
    meanwhile ignored."""
    from distributed import Client

    cluster = None
    try:
        if address == LOCAL_SCHEDULER:
            cluster = start_local()
            client = Client(cluster, set_as_default=False)
        else:
            client = _reached(address)
        try:
            yield client
        finally:
            with ctrl_c_ignored():
                client.close()
    finally:
        if cluster is not None:
            with ctrl_c_ignored():
                cluster.close()


def _reached(address: str) -> Any:
    """A client of the scheduler at `address`; a ConfigError if it is not there in time."""
    from distributed import Client

    try:
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, ValueError):
        raise ConfigError(
            f"cannot reach a Dask scheduler at {address} within {CONNECT_TIMEOUT:g} seconds; "
            f"check the address, or start one there with `dask scheduler` and workers with "
            f"`dask worker {address}`."
        ) from None


def check_versions(client: Any, ours: str) -> None:
    """Refuse a cluster whose workers run another shutbox (a task checks again, for late joiners)."""
    found = client.run(version, DISTRIBUTION, on_error="return")
    for worker, theirs in sorted(found.items()):
        if isinstance(theirs, PackageNotFoundError):
            theirs = None
        elif isinstance(theirs, BaseException):
            raise TournamentFailure(f"Dask worker {worker} could not be asked its shutbox version: {cause(theirs)}")
        if theirs != ours:
            raise ConfigError(version_mismatch(worker, theirs, ours))
