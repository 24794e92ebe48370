"""`StrategyError`: a strategy raised, or answered with something the rules do not allow.

The message is one sentence naming the strategy, the open tiles, the dice and the answer (or
the error raised), then the strategy's own traceback frames as indented lines, so its writer
finds the line: frames of shutbox's own packages and of the standard library are left out.
"""

from __future__ import annotations

import os
import reprlib
import sysconfig
import traceback
from pathlib import Path

from shutbox_cli.game import tiles_of

from .base import Undeclared, View
from .loading import cause

_ROOT = Path(__file__).resolve().parent.parent
_OURS = tuple(f"{_ROOT / package}{os.sep}" for package in ("shutbox_cli", "strategies", "tournaments"))
_PATHS = sysconfig.get_paths()
_STDLIB = tuple({f"{Path(_PATHS[key]).resolve()}{os.sep}" for key in ("stdlib", "platstdlib")})
_INSTALLED = tuple({f"{Path(_PATHS[key]).resolve()}{os.sep}" for key in ("purelib", "platlib")})
"""Installed packages, a strategy's among them: outside a virtual environment they sit inside the stdlib folder."""
MOST_FRAMES = 6
"""The most frames shown, the innermost ones (a runaway recursion has thousands)."""


class _ShortRepr(reprlib.Repr):
    """repr() of an answer, cut short where it is long; a repr that raises is named, not raised."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxtuple = self.maxlist = self.maxset = self.maxfrozenset = self.maxdeque = 16
        self.maxdict = 8
        self.maxstring = self.maxother = 80

    def repr_instance(self, x: object, level: int) -> str:
        try:
            text = repr(x)
        except (Exception, SystemExit):  # a strategy's own class may have a repr that raises
            return f"<{type(x).__name__} object>"
        return text if len(text) <= self.maxother else text[: self.maxother - 3] + "..."


_short_repr = _ShortRepr()


def answer_text(answer: object) -> str:
    """The answer as its repr, at most a line long, whatever its repr does."""
    try:
        return _short_repr.repr(answer)
    except (Exception, SystemExit):
        return f"<{type(answer).__name__} object>"


def move_text(move: tuple[int, ...]) -> str:
    """A move as the board writes it: 1+8."""
    return "+".join(map(str, move))


def _theirs(filename: str) -> bool:
    """Whether a frame's file is the strategy writer's: not ours, not the standard library's."""
    if filename.startswith("<frozen "):
        return False
    try:
        path = str(Path(filename).resolve())
    except (OSError, ValueError):
        return True
    return not path.startswith(_OURS) and (path.startswith(_INSTALLED) or not path.startswith(_STDLIB))


def strategy_frames(error: BaseException) -> list[str]:
    """The traceback of an error a strategy raised, its own frames only, innermost last, two
    indented lines each (where, then the line), as Python prints them."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if _theirs(frame.filename)]
    lines = [f"  ... {len(frames) - MOST_FRAMES} frames before these"] if len(frames) > MOST_FRAMES else []
    for frame in frames[-MOST_FRAMES:]:
        lines.append(f'  File "{frame.filename}", line {frame.lineno}, in {frame.name}')
        if frame.line:
            lines.append(f"    {frame.line.strip()}")
    return lines


class StrategyError(Exception):
    """A strategy raised, or answered with something the rules do not allow.

    The message names the strategy, the open tiles, the dice, and the answer (or the error
    `raised`, followed by the strategy's own frames); `tabulating` says the question was asked
    while its table of answers was being built, not in play.
    """

    def __init__(
        self,
        name: str,
        view: View,
        answer: object,
        problem: str,
        raised: BaseException | None = None,
        *,
        tabulating: bool = False,
    ) -> None:
        dice = "not rolled yet" if view.dice is None else "+".join(map(str, view.dice))
        tiles = " ".join(map(str, tiles_of(view.open_mask))) or "none"
        where = f"with open tiles {tiles} and dice {dice}"
        if tabulating:
            where += " (asked while tabulating its answers)"
        if isinstance(raised, Undeclared):
            problem = f"{raised.used} without declaring {raised.declaration},"
            said = f"add `{raised.declaration}` to its class ({_WHY[raised.declaration]})."
        elif isinstance(raised, SystemExit):
            problem = f"called sys.exit({answer_text(raised.code)})"
            said = "a strategy must answer, not end the program."
        elif raised is not None:
            said = cause(raised)
        else:
            said = f"it answered {answer_text(answer)}"
            if view.dice is not None and view.legal_moves:
                said += f"; the legal moves are {', '.join(map(move_text, view.legal_moves))}"
            said += "."
        lines = [f"strategy {name!r} {problem} {where}: {said}"]
        if raised is not None:
            lines += strategy_frames(raised)
        super().__init__("\n".join(lines))
        self.name = name
        self.view = view
        self.answer = answer
        self.raised = raised


_WHY = {  # what a declaration changes, said where it is missing
    "reads_context = True": "a strategy that reads the game is simulated, not analysed exactly",
    "stochastic = True": "the engine then gives it self.rng, seeded apart from the dice",
}
