"""Strategies that answer with objects which break when the referee looks at them: every dunder
the referee (or its error message) might call raises, returns garbage, or is huge. Each is
loaded by path, `tests/hostile/answers.py:Name`, and plays turn by turn (`reads_context`), so
it answers inside a game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NoReturn

from strategies import Move, Strategy, View


class Exploding(BaseException):
    """Not an Exception: a referee catching only `Exception` lets it through."""


def explode(*args: Any) -> NoReturn:
    raise Exploding("boom")


class BadTile(int):
    """An int whose every comparison, hash, repr and str explodes."""

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = explode  # type: ignore[assignment]
    __hash__ = __repr__ = __str__ = __bool__ = explode  # type: ignore[assignment]
    __index__ = __int__ = explode  # type: ignore[assignment]


class Answer(tuple[int, ...]):
    """A legal-looking move (a tuple of tiles) with some of its methods replaced by `how`."""


def answer_with(*broken: str, garbage: Any = None) -> type:
    """A tuple subclass whose named dunders explode (or return `garbage` when given)."""
    method = explode if garbage is None else (lambda *args: garbage)
    return type("Answer", (Answer,), dict.fromkeys(broken, method))


class Hostile(Strategy):
    """Answers `self.answer(view)` every time: subclasses say what."""

    reads_context = True

    def choose_move(self, view: View) -> Move:
        return self.answer(view)  # type: ignore[no-any-return]

    def answer(self, view: View) -> Any:
        return view.legal_moves[0]


class IndexRaises(Hostile):
    def answer(self, view: View) -> Any:
        return (BadTile(13),)


class IterRaises(Hostile):
    def answer(self, view: View) -> Any:
        return answer_with("__iter__")(view.legal_moves[0])


class ReprRaises(Hostile):
    def answer(self, view: View) -> Any:
        return answer_with("__repr__", "__str__", "__iter__")(view.legal_moves[0])


class EqRaises(Hostile):
    """The right tiles in a tuple whose comparisons and hash explode."""

    def answer(self, view: View) -> Any:
        return answer_with("__eq__", "__ne__", "__hash__", "__lt__")(view.legal_moves[0])


class LenRaises(Hostile):
    def answer(self, view: View) -> Any:
        return answer_with("__len__")(view.legal_moves[0])


class BoolRaises(Hostile):
    def answer(self, view: View) -> Any:
        return answer_with("__bool__", "__len__")(view.legal_moves[0])


class LenHuge(Hostile):
    def answer(self, view: View) -> Any:
        return answer_with("__len__", garbage=10**30)(view.legal_moves[0])


class LenGarbage(Hostile):
    def answer(self, view: View) -> Any:
        return answer_with("__len__", "__repr__", garbage="three")(view.legal_moves[0])


class ReprHuge(Hostile):
    def answer(self, view: View) -> Any:
        return answer_with("__repr__", garbage="x" * 10_000_000)((13,))


class ReprEscapes(Hostile):
    """Answers illegally with a repr full of terminal escape sequences and rich markup."""

    def answer(self, view: View) -> Any:
        return answer_with("__repr__", garbage="\x1b[31mRED\x1b]0;owned\x07\n[bold]fake[/bold]")((13,))


class EndlessIter(Hostile):
    """Says it holds two tiles, then never stops yielding."""

    def answer(self, view: View) -> Any:
        def forever(self: Any) -> Iterator[int]:
            while True:
                yield 1

        return type("Answer", (Answer,), {"__iter__": forever})(view.legal_moves[0])


class ClassRaises(Hostile):
    """An object whose `__class__` explodes: isinstance() asks for it."""

    def answer(self, view: View) -> Any:
        return type("Answer", (), {"__class__": property(explode)})()


class HugeAnswer(Hostile):
    def answer(self, view: View) -> Any:
        return tuple(range(2_000_000))


class NoneAnswer(Hostile):
    def answer(self, view: View) -> Any:
        return None


class Illegal(Hostile):
    def answer(self, view: View) -> Any:
        return (13,)


class Mutates(Hostile):
    """Rewrites its read-only view so that an illegal answer looks legal."""

    def answer(self, view: View) -> Any:
        object.__setattr__(view, "legal_moves", ((13,),))
        object.__setattr__(view, "open_mask", BadTile(3))
        object.__setattr__(view, "dice", "garbage")
        return (13,)


class DiceIndexRaises(Hostile):
    """Answers the dice question as the base class does, with an int whose methods all explode."""

    def choose_dice(self, view: View) -> int:
        return BadTile(super().choose_dice(view))


class DiceGarbage(Hostile):
    def choose_dice(self, view: View) -> int:
        return answer_with("__repr__", garbage=42)((1,))  # type: ignore[no-any-return]
