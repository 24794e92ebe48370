"""Tournaments: config -> field -> plan (matchups, deals, work units) -> a backend plays the units
(this process, a worker pool or a Dask cluster) -> tallies -> summary (statistics) -> report (a TOML
table). Exact games, simulation studies of one strategy (`analyze`), replays, comparisons of
reports and gates live here too; docs/architecture.md says which folder does what.

One call runs a tournament, from a script or a notebook, as `shutbox tournament` runs it:

    summary = run(None, Options(strategies=[Optimal, Target(margin=2), "tips"], games=1000, seed=7))
    summary = run(load_config(None, options))  # or run(config, backend=InProcess())
    write_report("report.toml", summary)       # or run(..., report="report.toml")

A long run given a checkpoint path (`run(config, checkpoint=checkpoint_path(report), report=report)`)
keeps its finished work there every few seconds, and removes it once its report is written;
`resume(path)` finishes an interrupted one, with the results an uninterrupted run gives, and
writes the report the checkpoint records if the checkpoint is the one beside it (else
`resume(path, report=...)` says where).

A field of exact strategies (and keyed ones, as `target` is in a one-round game) can be computed
instead of played (`Options(method="exact")`): `run`
then gives an `ExactSummary`, with chances in place of estimates; `duel_exactly` is one game of
two of them (`shutbox analyze A --against B`).

`tune(TuneSettings(spec, parse_parameters(["margin=0..4"]), field=("optimal",)))` finds the values
of a strategy's parameters that serve it best against a field (`shutbox tune`): exactly where the
strategies allow, else on common dice with a confirmation run (`tuning`).

A command that plays, analyses or checks a strategy seats it with `seat_strategy(spec, rules)`:
a built-in one in this process, a user's in a host process of its own, asked over a socket and
every answer checked, so that no user's code runs in the caller's process.

Imports the engine and the strategies only; it prints nothing and never exits. Its names load
lazily, each from its own module on first use, so that a command loads only what it needs;
`_NAMES` is the one list of them (tests/test_layers.py checks the imports for type checkers agree).
They are what a script or a notebook needs (docs/library.md): run, match, analyze, tune, their
settings and results, reports read, written and compared. What a front end builds on besides
(files written whole, figures' data, gates, checkpoints kept) is in `tournaments.parts`.
"""

from typing import TYPE_CHECKING

from shutbox_cli.game.lazy import lazy_names

if TYPE_CHECKING:  # `name as name`: each re-exported, one statement per module
    # isort: off
    from .backends.base import Backend as Backend, InProcess as InProcess, default_backend as default_backend
    from .backends.dask_cluster import DaskCluster as DaskCluster
    from .backends.pool import ProcessPool as ProcessPool
    from .ci.compare import Change as Change, Comparison as Comparison, compare as compare, read_report as read_report
    from .ci.markdown import MarkdownSummary as MarkdownSummary, summarize_report as summarize_report
    from .errors import (
        Command as Command,
        ConfigError as ConfigError,
        FileWriteError as FileWriteError,
        Interrupted as Interrupted,
        Setting as Setting,
        TournamentError as TournamentError,
        TournamentFailure as TournamentFailure,
    )
    from .exact.analysis import Analysis as Analysis, analyze as analyze
    from .exact.diff import DiffRow as DiffRow, PolicyDiff as PolicyDiff, diff as diff
    from .exact.duel import DuelSeat as DuelSeat, ExactDuel as ExactDuel, duel_exactly as duel_exactly
    from .exact.explain import Explanation as Explanation, explain as explain
    from .exact.fairness import FairRules as FairRules, fair_rules as fair_rules
    from .exact.sampled import SampledExplanation as SampledExplanation
    from .exact.sheet import CheatSheet as CheatSheet, cheat_sheet as cheat_sheet
    from .exact.solution import GameValue as GameValue, solve as solve
    from .exact.tournament import ExactSummary as ExactSummary
    from .field.config import Options as Options, TournamentConfig as TournamentConfig, load_config as load_config
    from .knockout.play import play_knockout as play_knockout
    from .knockout.result import Knockout as Knockout
    from .knockout.ties import Tie as Tie
    from .history import History as History, HistoryError as HistoryError, open_history as open_history
    from .playing.replay import TournamentGame as TournamentGame, find_game as find_game
    from .playing.units import Forfeit as Forfeit
    from .referee.seated import SeatedStrategy as SeatedStrategy, seat_strategy as seat_strategy
    from .results.aggregate import Summary as Summary, TournamentResults as TournamentResults
    from .statistics.standings import HeadToHead as HeadToHead, SeatStanding as SeatStanding, Standing as Standing
    from .results.report import report_table as report_table, write_report as write_report
    from .running.checkpoint import checkpoint_path as checkpoint_path
    from .running.checkpoint_reading import read_checkpoint as read_checkpoint
    from .statistics.elo import Match as Match, Sprt as Sprt, Verdict as Verdict, parse_sprt as parse_sprt
    from .statistics.pairs import Pentanomial as Pentanomial, Versus as Versus
    from .running.runner import Progress as Progress, play_match as play_match, resume as resume, run as run
    from .tuning.records import (
        OBJECTIVES as OBJECTIVES,
        Trial as Trial,
        TuneSettings as TuneSettings,
        Tuning as Tuning,
    )
    from .tuning.reading import read_tune as read_tune
    from .tuning.search import TuneStopped as TuneStopped, tune as tune
    from .tuning.kept import write_tune as write_tune
    from .tuning.space import parse_parameters as parse_parameters
    # isort: on

_NAMES: dict[str, tuple[str, ...]] = {
    ".backends.base": ("Backend", "InProcess", "default_backend"),
    ".backends.dask_cluster": ("DaskCluster",),
    ".backends.pool": ("ProcessPool",),
    ".ci.compare": ("Change", "Comparison", "compare", "read_report"),
    ".ci.markdown": ("MarkdownSummary", "summarize_report"),
    ".errors": (
        "Command",
        "ConfigError",
        "FileWriteError",
        "Interrupted",
        "Setting",
        "TournamentError",
        "TournamentFailure",
    ),
    ".exact.analysis": ("Analysis", "analyze"),
    ".exact.diff": ("DiffRow", "PolicyDiff", "diff"),
    ".exact.duel": ("DuelSeat", "ExactDuel", "duel_exactly"),
    ".exact.explain": ("Explanation", "explain"),
    ".exact.fairness": ("FairRules", "fair_rules"),
    ".exact.sampled": ("SampledExplanation",),
    ".exact.sheet": ("CheatSheet", "cheat_sheet"),
    ".exact.solution": ("GameValue", "solve"),
    ".exact.tournament": ("ExactSummary",),
    ".field.config": ("Options", "TournamentConfig", "load_config"),
    ".knockout.play": ("play_knockout",),
    ".knockout.result": ("Knockout",),
    ".knockout.ties": ("Tie",),
    ".history": ("History", "HistoryError", "open_history"),
    ".playing.replay": ("TournamentGame", "find_game"),
    ".playing.units": ("Forfeit",),
    ".referee.seated": ("SeatedStrategy", "seat_strategy"),
    ".results.aggregate": ("Summary", "TournamentResults"),
    ".statistics.standings": ("HeadToHead", "SeatStanding", "Standing"),
    ".results.report": ("report_table", "write_report"),
    ".running.checkpoint": ("checkpoint_path",),
    ".running.checkpoint_reading": ("read_checkpoint",),
    ".statistics.elo": ("Match", "Sprt", "Verdict", "parse_sprt"),
    ".statistics.pairs": ("Pentanomial", "Versus"),
    ".running.runner": ("Progress", "play_match", "resume", "run"),
    ".tuning.records": ("OBJECTIVES", "Trial", "TuneSettings", "Tuning"),
    ".tuning.reading": ("read_tune",),
    ".tuning.search": ("TuneStopped", "tune"),
    ".tuning.kept": ("write_tune",),
    ".tuning.space": ("parse_parameters",),
}
"""The tournaments' public names (a notebook's: see docs/library.md), by the module that defines each."""
__all__, _load = lazy_names(__name__, _NAMES)

if not TYPE_CHECKING:  # type checkers read the imports above, and flag a name not among them
    __getattr__ = _load
