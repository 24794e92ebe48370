"""Strategies that raise what a referee may not expect: BaseExceptions of every kind, and
exceptions whose message cannot be shown. Loaded by path, `tests/hostile/raises.py:Name`; each
plays turn by turn (`reads_context`), so it raises inside a game."""

from __future__ import annotations

import sys
from typing import Any, NoReturn

from strategies import Move, Strategy, View


class Custom(BaseException):
    """Not an Exception."""


class Unprintable(Exception):
    def __str__(self) -> str:
        raise Custom("no message for you")


class NameRaises(type):
    """A metaclass whose class names explode."""

    @property
    def __name__(cls) -> str:  # type: ignore[override]
        raise Custom("no name either")


class Nameless(Exception, metaclass=NameRaises):
    pass


class Hostile(Strategy):
    """Raises `self.error()` from choose_move after `self.calls` questions."""

    reads_context = True
    calls = 0

    def __init__(self) -> None:
        self.asked = 0

    def choose_move(self, view: View) -> Move:
        self.asked += 1
        if self.asked > self.calls:
            self.fail()
        return view.legal_moves[0]

    def fail(self) -> NoReturn:
        raise ZeroDivisionError("no luck today")


class RaisesFirst(Hostile):
    pass


class RaisesThousandth(Hostile):
    calls = 999


class RaisesBase(Hostile):
    def fail(self) -> NoReturn:
        raise Custom("a BaseException of its own")


class RaisesGeneratorExit(Hostile):
    def fail(self) -> NoReturn:
        raise GeneratorExit


class RaisesKeyboardInterrupt(Hostile):
    def fail(self) -> NoReturn:
        raise KeyboardInterrupt


class Exits(Hostile):
    def fail(self) -> NoReturn:
        sys.exit(0)


class ExitsWithGarbage(Hostile):
    def fail(self) -> NoReturn:
        raise SystemExit(type("Code", (), {"__repr__": lambda self: explode(), "__str__": lambda self: explode()})())


class UnprintableError(Hostile):
    def fail(self) -> NoReturn:
        raise Unprintable


class NamelessError(Hostile):
    def fail(self) -> NoReturn:
        raise Nameless("who am I")


class EscapingError(Hostile):
    def fail(self) -> NoReturn:
        raise ValueError("\x1b[2J\x1b]0;owned\x07cleared [red]your[/red] screen\r\nand more")


class HugeError(Hostile):
    def fail(self) -> NoReturn:
        raise ValueError("x" * 10_000_000)


class Recurses(Hostile):
    def fail(self) -> NoReturn:
        self.fail()


class RaisesInDice(Hostile):
    """Raises a BaseException when asked how many dice to roll (and answers every move)."""

    calls = 10**9

    def choose_dice(self, view: View) -> int:
        raise Custom("no dice")


class RaisesInInit(Strategy):
    def __init__(self) -> None:
        raise Custom("cannot even start")

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[0]


class ExitsInInit(Strategy):
    def __init__(self) -> None:
        sys.exit(0)

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[0]


class InterruptsInInit(Strategy):
    def __init__(self) -> None:
        raise KeyboardInterrupt

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[0]


def explode(*args: Any) -> NoReturn:
    raise Custom("boom")


class TabulableRaisesBase(Strategy):
    """Context-free: it fails while its table of answers is built."""

    def choose_move(self, view: View) -> Move:
        raise Custom("no table for you")


class TabulableExits(Strategy):
    def choose_move(self, view: View) -> Move:
        sys.exit(0)


class TabulableMutates(Strategy):
    def choose_move(self, view: View) -> Move:
        object.__setattr__(view, "legal_moves", ((13,),))
        return (13,)
