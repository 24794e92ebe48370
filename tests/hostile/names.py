"""Strategies whose metadata is hostile: names and descriptions that are not strings, or hold
terminal escape sequences, control characters or rich markup; declarations that are not bools."""

from __future__ import annotations

from typing import Any

from strategies import Move, Strategy, View


class Plays(Strategy):
    def choose_move(self, view: View) -> Move:
        return view.legal_moves[0]


class NameNotString(Plays):
    name = 42  # type: ignore[assignment]


class NameObject(Plays):
    name = type("Name", (), {"__str__": lambda self: 1 / 0, "__repr__": lambda self: 1 / 0})()  # type: ignore[assignment]


class NameEscapes(Plays):
    name = "\x1b[31mred\x1b]0;owned\x07"


class NameNewline(Plays):
    name = "two\nlines"


class DescriptionNotString(Plays):
    name = "described"
    description = ("not", "a", "string")  # type: ignore[assignment]


class DescriptionEscapes(Plays):
    name = "described"
    description = "plays \x1b[2J well"


class DeclaresGarbage(Plays):
    stochastic = "yes"  # type: ignore[assignment]


class TabulableRaises(Plays):
    @classmethod
    def tabulable(cls) -> bool:
        raise RuntimeError("who knows")


class Markup(Plays):
    """A [bold]markup[/bold] docstring."""

    name = "[bold]loud[/bold]"
    description = "[red]red[/red] and [link=https://example.com]a link[/link]"


class ParameterDefaults(Plays):
    """A parameter whose default cannot be shown."""

    name = "defaults"

    def __init__(self, odd: Any = type("Odd", (), {"__repr__": lambda self: 1 / 0})()) -> None:
        self.odd = odd


class Docstring(Plays):
    """Plays the first move.\x1b[31m In red.\x07"""

    name = "docstring"
