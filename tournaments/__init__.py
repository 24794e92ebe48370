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
    from .ci.gates import (
        Gate as Gate,
        check_names as check_names,
        compare_failures as compare_failures,
        parse_compare_gate as parse_compare_gate,
        parse_tournament_gate as parse_tournament_gate,
        tournament_failures as tournament_failures,
    )
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
    from .exact.duel import DuelSeat as DuelSeat, ExactDuel as ExactDuel, duel_exactly as duel_exactly
    from .exact.tournament import ExactSummary as ExactSummary
    from .field.config import Options as Options, TournamentConfig as TournamentConfig, load_config as load_config
    from .files import (
        check_writable as check_writable,
        dumps as dumps,
        format_of as format_of,
        reason as reason,
        write_atomically as write_atomically,
        write_table_atomically as write_table_atomically,
    )
    from .playing.replay import TournamentGame as TournamentGame, find_game as find_game
    from .referee.confinement import Confinement as Confinement, on_first_host as on_first_host
    from .referee.seated import (
        STRATEGY_TIMEOUT as STRATEGY_TIMEOUT,
        SeatedStrategy as SeatedStrategy,
        seat_strategies as seat_strategies,
        seat_strategy as seat_strategy,
    )
    from .results.aggregate import (
        HeadToHead as HeadToHead,
        SeatStanding as SeatStanding,
        Standing as Standing,
        Summary as Summary,
        TournamentResults as TournamentResults,
    )
    from .results.figures import (
        Confirmed as Confirmed,
        Distribution as Distribution,
        DuelChances as DuelChances,
        Figures as Figures,
        HeadToHeadGrid as HeadToHeadGrid,
        MatchScore as MatchScore,
        SeatRates as SeatRates,
        SprtPath as SprtPath,
        TuneCurve as TuneCurve,
        TuneGrid as TuneGrid,
        TuneRanking as TuneRanking,
        WinRates as WinRates,
        read_figures as read_figures,
        report_figures as report_figures,
    )
    from .results.report import report_table as report_table, result_table as result_table, write_report as write_report
    from .results.schema import header as header, rules_table as rules_table
    from .running.checkpoint import (
        CHECKPOINT_SECONDS as CHECKPOINT_SECONDS,
        checkpoint_path as checkpoint_path,
        read_checkpoint as read_checkpoint,
        recorded_report as recorded_report,
        resumed_report as resumed_report,
    )
    from .results.elo import Match as Match, Sprt as Sprt, Verdict as Verdict, parse_sprt as parse_sprt
    from .results.pairs import Pentanomial as Pentanomial, Versus as Versus, field_difference as field_difference
    from .running.runner import Progress as Progress, play_match as play_match, resume as resume, run as run
    from .tuning.records import (
        OBJECTIVES as OBJECTIVES,
        Trial as Trial,
        TuneSettings as TuneSettings,
        Tuning as Tuning,
    )
    from .tuning.reading import read_tune as read_tune
    from .tuning.search import TuneStopped as TuneStopped, tune as tune
    from .tuning.kept import (
        Resumable as Resumable,
        TuneKeeper as TuneKeeper,
        read_resumable as read_resumable,
        tune_checkpoint_path as tune_checkpoint_path,
        write_tune as write_tune,
    )
    from .tuning.config import read_tune_file as read_tune_file
    from .tuning.space import parse_parameters as parse_parameters
    # isort: on

_NAMES: dict[str, tuple[str, ...]] = {
    ".backends.base": ("Backend", "InProcess", "default_backend"),
    ".backends.dask_cluster": ("DaskCluster",),
    ".backends.pool": ("ProcessPool",),
    ".ci.compare": ("Change", "Comparison", "compare", "read_report"),
    ".ci.markdown": ("MarkdownSummary", "summarize_report"),
    ".ci.gates": (
        "Gate",
        "check_names",
        "compare_failures",
        "parse_compare_gate",
        "parse_tournament_gate",
        "tournament_failures",
    ),
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
    ".exact.duel": ("DuelSeat", "ExactDuel", "duel_exactly"),
    ".exact.tournament": ("ExactSummary",),
    ".field.config": ("Options", "TournamentConfig", "load_config"),
    ".files": ("check_writable", "dumps", "format_of", "reason", "write_atomically", "write_table_atomically"),
    ".playing.replay": ("TournamentGame", "find_game"),
    ".referee.confinement": ("Confinement", "on_first_host"),
    ".referee.seated": ("STRATEGY_TIMEOUT", "SeatedStrategy", "seat_strategies", "seat_strategy"),
    ".results.aggregate": ("HeadToHead", "SeatStanding", "Standing", "Summary", "TournamentResults"),
    ".results.figures": (
        "Confirmed",
        "Distribution",
        "DuelChances",
        "Figures",
        "HeadToHeadGrid",
        "MatchScore",
        "SeatRates",
        "SprtPath",
        "TuneCurve",
        "TuneGrid",
        "TuneRanking",
        "WinRates",
        "read_figures",
        "report_figures",
    ),
    ".results.report": ("report_table", "result_table", "write_report"),
    ".results.schema": ("header", "rules_table"),
    ".running.checkpoint": (
        "CHECKPOINT_SECONDS",
        "checkpoint_path",
        "read_checkpoint",
        "recorded_report",
        "resumed_report",
    ),
    ".results.elo": ("Match", "Sprt", "Verdict", "parse_sprt"),
    ".results.pairs": ("Pentanomial", "Versus", "field_difference"),
    ".running.runner": ("Progress", "play_match", "resume", "run"),
    ".tuning.records": ("OBJECTIVES", "Trial", "TuneSettings", "Tuning"),
    ".tuning.reading": ("read_tune",),
    ".tuning.search": ("TuneStopped", "tune"),
    ".tuning.kept": ("Resumable", "TuneKeeper", "read_resumable", "tune_checkpoint_path", "write_tune"),
    ".tuning.config": ("read_tune_file",),
    ".tuning.space": ("parse_parameters",),
}
"""The tournaments' public names, by the module that defines each."""
__all__, _load = lazy_names(__name__, _NAMES)

if not TYPE_CHECKING:  # type checkers read the imports above, and flag a name not among them
    __getattr__ = _load
