"""The runner's side of strategies: what a program that loads, seats, checks and lists strategies
needs (the face, the tournaments), where `strategies` itself gives what a strategy writer needs.

Its names load lazily, each from its own module on first use, so that showing a name
(`printable`) does not load the loader; `_NAMES` is the one list of them (tests/test_layers.py
checks the imports for type checkers agree).
"""

from typing import TYPE_CHECKING

from shutbox_cli.game.lazy import lazy_names

if TYPE_CHECKING:  # `name as name`: each re-exported, one statement per module
    # isort: off
    from .catalog import (
        REQUIRED as REQUIRED,
        StrategyInfo as StrategyInfo,
        catalog as catalog,
        strategy_info as strategy_info,
    )
    from .check import CheckReport as CheckReport, CheckResult as CheckResult, check_strategy as check_strategy
    from .loading import (
        LoadedStrategy as LoadedStrategy,
        StrategyLoadError as StrategyLoadError,
        load_strategy as load_strategy,
        spec_of as spec_of,
        split_name as split_name,
        split_spec as split_spec,
    )
    from .player import StrategyError as StrategyError, StrategyPlayer as StrategyPlayer
    from .names import BUILTINS as BUILTINS, StrategyNameClash as StrategyNameClash, registry as registry
    from .scaffold import ScaffoldError as ScaffoldError, make_strategy_project as make_strategy_project
    from .shown import answer_text as answer_text, printable as printable, printable_lines as printable_lines
    from .winning import win_chances as win_chances
    # isort: on

_NAMES: dict[str, tuple[str, ...]] = {
    ".catalog": ("REQUIRED", "StrategyInfo", "catalog", "strategy_info"),
    ".check": ("CheckReport", "CheckResult", "check_strategy"),
    ".loading": ("LoadedStrategy", "StrategyLoadError", "load_strategy", "spec_of", "split_name", "split_spec"),
    ".player": ("StrategyError", "StrategyPlayer"),
    ".names": ("BUILTINS", "StrategyNameClash", "registry"),
    ".scaffold": ("ScaffoldError", "make_strategy_project"),
    ".shown": ("answer_text", "printable", "printable_lines"),
    ".winning": ("win_chances",),
}
"""The runner's names, by the module that defines each."""
__all__, _load = lazy_names(__name__, _NAMES, "strategies")

if not TYPE_CHECKING:  # type checkers read the imports above, and flag a name not among them
    __getattr__ = _load
