"""Strategies: the contract a strategy implements, the built-ins, and loading a user's own."""

from .base import Move, Strategy, View
from .loading import LoadedStrategy, StrategyLoadError, load_strategy, registry
from .player import StrategyError, StrategyPlayer

__all__ = [
    "LoadedStrategy",
    "Move",
    "Strategy",
    "StrategyError",
    "StrategyLoadError",
    "StrategyPlayer",
    "View",
    "load_strategy",
    "registry",
]
