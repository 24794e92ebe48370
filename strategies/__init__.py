"""Strategies for shutbox: what a strategy writer needs, and nothing else.

Subclass `Strategy`, answer `choose_move(view)` with one of `view.legal_moves` (a `Move`), and
declare `stochastic` or `reads_context` if it is either. `strategies.testing` checks a strategy
against the contract in a unit test. What a program that runs strategies needs (loading one from
its spec, seating it, checking it, listing them) is `strategies.runner`.
"""

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
