"""What a front end builds on besides the notebook's surface (`tournaments`): files written whole
or not at all, a report's tables and figures' data, gates, the checkpoints a run or a tune keeps,
strategies' confinement and seats. The face (`shutbox_cli.face`) takes these from here, loaded
lazily as the package's own names are; `_NAMES` is the one list of them. The top room of the
tournaments: it names what the rooms below define, and defines nothing."""

from typing import TYPE_CHECKING

from shutbox_cli.game.lazy import lazy_names

if TYPE_CHECKING:  # `name as name`: each re-exported, one statement per module
    # isort: off
    from ..ci.gates import (
        Gate as Gate,
        check_names as check_names,
        compare_failures as compare_failures,
        parse_compare_gate as parse_compare_gate,
        parse_tournament_gate as parse_tournament_gate,
        tournament_failures as tournament_failures,
    )
    from ..files import (
        check_writable as check_writable,
        dumps as dumps,
        format_of as format_of,
        reason as reason,
        write_atomically as write_atomically,
        write_table_atomically as write_table_atomically,
    )
    from ..referee.confinement import Confinement as Confinement, on_first_host as on_first_host
    from ..folders import (
        DATA_SETTING as DATA_SETTING,
        HISTORY_SETTING as HISTORY_SETTING,
        PlaceError as PlaceError,
        data_folder as data_folder,
        history_place as history_place,
        masked as masked,
    )
    from ..history import (
        Appearance as Appearance,
        RunList as RunList,
        RunShown as RunShown,
        StrategyHistory as StrategyHistory,
    )
    from ..referee.seated import STRATEGY_TIMEOUT as STRATEGY_TIMEOUT, seat_strategies as seat_strategies
    from ..ci.figures import read_figures as read_figures, report_figures as report_figures
    from ..ci.panels import (
        Confirmed as Confirmed,
        Distribution as Distribution,
        DuelChances as DuelChances,
        Figures as Figures,
        HeadToHeadGrid as HeadToHeadGrid,
        LossBars as LossBars,
        MatchScore as MatchScore,
        SeatRates as SeatRates,
        SprtPath as SprtPath,
        TuneCurve as TuneCurve,
        TuneGrid as TuneGrid,
        TuneRanking as TuneRanking,
        WinRates as WinRates,
    )
    from ..records.schema import header as header, rules_table as rules_table
    from ..results.pointers import alike as alike, exact_pointer as exact_pointer
    from ..results.report import result_table as result_table
    from ..statistics.pairs import field_difference as field_difference
    from ..running.checkpoint import CHECKPOINT_SECONDS as CHECKPOINT_SECONDS
    from ..running.checkpoint_reading import recorded_report as recorded_report, resumed_report as resumed_report
    from ..tuning.config import read_tune_file as read_tune_file
    from ..knockout.play import is_knockout_report as is_knockout_report
    from ..tuning.kept import (
        Resumable as Resumable,
        TuneKeeper as TuneKeeper,
        read_resumable as read_resumable,
        tune_checkpoint_path as tune_checkpoint_path,
    )
    # isort: on

_NAMES: dict[str, tuple[str, ...]] = {
    "..ci.gates": (
        "Gate",
        "check_names",
        "compare_failures",
        "parse_compare_gate",
        "parse_tournament_gate",
        "tournament_failures",
    ),
    "..files": ("check_writable", "dumps", "format_of", "reason", "write_atomically", "write_table_atomically"),
    "..referee.confinement": ("Confinement", "on_first_host"),
    "..folders": ("DATA_SETTING", "HISTORY_SETTING", "PlaceError", "data_folder", "history_place", "masked"),
    "..history": ("Appearance", "RunList", "RunShown", "StrategyHistory"),
    "..referee.seated": ("STRATEGY_TIMEOUT", "seat_strategies"),
    "..ci.figures": ("read_figures", "report_figures"),
    "..ci.panels": (
        "Confirmed",
        "Distribution",
        "DuelChances",
        "Figures",
        "HeadToHeadGrid",
        "LossBars",
        "MatchScore",
        "SeatRates",
        "SprtPath",
        "TuneCurve",
        "TuneGrid",
        "TuneRanking",
        "WinRates",
    ),
    "..records.schema": ("header", "rules_table"),
    "..results.pointers": ("alike", "exact_pointer"),
    "..results.report": ("result_table",),
    "..statistics.pairs": ("field_difference",),
    "..running.checkpoint": ("CHECKPOINT_SECONDS",),
    "..running.checkpoint_reading": ("recorded_report", "resumed_report"),
    "..tuning.config": ("read_tune_file",),
    "..knockout.play": ("is_knockout_report",),
    "..tuning.kept": ("Resumable", "TuneKeeper", "read_resumable", "tune_checkpoint_path"),
}
"""A front end's names, by the module of the tournaments that defines each."""
__all__, _load = lazy_names(__name__, _NAMES)

if not TYPE_CHECKING:  # type checkers read the imports above, and flag a name not among them
    __getattr__ = _load
