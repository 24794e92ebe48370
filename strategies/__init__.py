"""Strategies for shutbox: what a strategy writer needs, and nothing else.

Subclass `Strategy`, answer `choose_move(view)` with one of `view.legal_moves` (a `Move`), and
declare `stochastic` or `reads_context` if it is either. `strategies.testing` checks a strategy
against the contract in a unit test. The runner's own parts live in the submodules
(`strategies.loading`, `strategies.player`, `strategies.table`, `strategies.check`).
"""

import importlib
import warnings
from typing import Any

from shutbox_cli.game import FirstRoll, OneDie, OneDieMode, Roll, Rules, Scoring, ShutRule, Ties, TurnContext

from .base import Move, Strategy, View

__all__ = [
    "FirstRoll",
    "Move",
    "OneDie",
    "OneDieMode",
    "Roll",
    "Rules",
    "Scoring",
    "ShutRule",
    "Strategy",
    "Ties",
    "TurnContext",
    "View",
]

_MOVED = {
    "LoadedStrategy": "loading",
    "StrategyLoadError": "loading",
    "load_strategy": "loading",
    "registry": "loading",
    "StrategyError": "player",
    "StrategyPlayer": "player",
}


def __getattr__(name: str) -> Any:
    """The runner's parts at their old address, for shutbox's own modules that still import them
    from here (tournaments/ and the tournament and analyze commands, until they import from the
    submodules); a DeprecationWarning names each one. Remove once none does."""
    module = _MOVED.get(name)
    if module is None:
        raise AttributeError(f"module 'strategies' has no attribute {name!r}")
    warnings.warn(f"import {name} from strategies.{module}, not from strategies", DeprecationWarning, stacklevel=2)
    return getattr(importlib.import_module(f"strategies.{module}"), name)
