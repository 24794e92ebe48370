"""Tournaments: config -> plan (matchups, deals, work units) -> a backend plays the units (this
process, a worker pool or a Dask cluster) -> tallies -> summary (statistics) -> report (a TOML table).
Simulation studies of one strategy (`analyse`) live here too.

One call runs a tournament, from a script or a notebook:

    config = load_config(None, Options(strategies=["optimal", "tips"], games=1000, seed=7))
    summary = run(config)  # or run(config, backend=InProcess())
    write_report("report.toml", summary)

Imports the engine and the strategies only; it prints nothing and never exits.
"""

from .aggregate import HeadToHead, Standing, Summary
from .analysis import Analysis, analyse
from .backends import Backend, InProcess, default_backend
from .config import Options, TournamentConfig, load_config
from .dask_backend import DaskCluster
from .errors import ConfigError, FileWriteError, Interrupted, TournamentError, TournamentFailure
from .pool import ProcessPool
from .report import report_table, write_report
from .runner import Progress, run

__all__ = [
    "Analysis",
    "Backend",
    "ConfigError",
    "DaskCluster",
    "FileWriteError",
    "HeadToHead",
    "InProcess",
    "Interrupted",
    "Options",
    "ProcessPool",
    "Progress",
    "Standing",
    "Summary",
    "TournamentConfig",
    "TournamentError",
    "TournamentFailure",
    "analyse",
    "default_backend",
    "load_config",
    "report_table",
    "run",
    "write_report",
]
