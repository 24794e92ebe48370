"""Tournaments: config -> plan (matchups, deals, work units) -> a backend plays the units (this
process, a worker pool or a Dask cluster) -> tallies -> summary (statistics) -> report (a TOML table).
Simulation studies of one strategy (`analyse`) live here too.

One call runs a tournament, from a script or a notebook:

    config = load_config(None, Options(strategies=["optimal", "tips"], games=1000, seed=7))
    summary = run(config)  # or run(config, backend=InProcess())
    write_report("report.toml", summary)

A long run given a checkpoint path (`run(config, checkpoint=checkpoint_path(report), report=report)`)
keeps its finished work there every few seconds, and removes it once its report is written;
`resume(path)` finishes an interrupted one, with the results an uninterrupted run gives, and
writes the report the checkpoint records.

A field of exact strategies can be computed instead of played (`Options(method="exact")`): `run`
then gives an `ExactSummary`, with chances in place of estimates; `duel_exactly` is one game of
two of them (`shutbox analyze A --against B`).

Imports the engine and the strategies only; it prints nothing and never exits.
"""

from .backends.base import Backend, InProcess, default_backend
from .backends.dask_cluster import DaskCluster
from .backends.pool import ProcessPool
from .errors import ConfigError, FileWriteError, Interrupted, TournamentError, TournamentFailure
from .exact.analysis import Analysis, analyse
from .exact.duel import DuelSeat, ExactDuel, duel_exactly
from .exact.tournament import ExactSummary, run_exact
from .field.config import Options, TournamentConfig, load_config
from .results.aggregate import HeadToHead, SeatStanding, Standing, Summary, TournamentResults
from .results.report import report_table, write_report
from .running.checkpoint import checkpoint_path, read_checkpoint
from .running.runner import Progress, resume, run

__all__ = [
    "Analysis",
    "Backend",
    "ConfigError",
    "DaskCluster",
    "DuelSeat",
    "ExactDuel",
    "ExactSummary",
    "FileWriteError",
    "HeadToHead",
    "InProcess",
    "Interrupted",
    "Options",
    "ProcessPool",
    "Progress",
    "SeatStanding",
    "Standing",
    "Summary",
    "TournamentConfig",
    "TournamentError",
    "TournamentFailure",
    "TournamentResults",
    "analyse",
    "checkpoint_path",
    "default_backend",
    "duel_exactly",
    "load_config",
    "read_checkpoint",
    "report_table",
    "resume",
    "run",
    "run_exact",
    "write_report",
]
