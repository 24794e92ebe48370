"""`StrategyError`: a strategy raised, or answered with something the rules do not allow.

The message is one sentence naming the strategy, the open tiles, the dice and the answer (or
the error raised), then the strategy's own traceback frames as indented lines, so its writer
finds the line: frames of shutbox's own packages and of the standard library are left out.
"""

from __future__ import annotations

import os
import sysconfig
import traceback
from pathlib import Path
from typing import Any

from shutbox_cli.game import tiles_of

from .base import Undeclared, View
from .shown import answer_text, cause, printable, printable_lines

_ROOT = Path(__file__).resolve().parent.parent
_OURS = tuple(f"{_ROOT / package}{os.sep}" for package in ("shutbox_cli", "strategies", "tournaments"))
_PATHS = sysconfig.get_paths()
_STDLIB = tuple({f"{Path(_PATHS[key]).resolve()}{os.sep}" for key in ("stdlib", "platstdlib")})
_INSTALLED = tuple({f"{Path(_PATHS[key]).resolve()}{os.sep}" for key in ("purelib", "platlib")})
"""Installed packages, a strategy's among them: outside a virtual environment they sit inside the stdlib folder."""
MOST_FRAMES = 6
"""The most frames shown, the innermost ones (a runaway recursion has thousands)."""


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
        lines.append(printable(f'  File "{frame.filename}", line {frame.lineno}, in {frame.name}'))
        if frame.line:
            lines.append(printable(f"    {frame.line.strip()}"))
    return lines


class StrategyLoadError(ValueError):
    """A strategy spec that cannot be turned into a strategy; the message is one sentence."""


class StrategyError(Exception):
    """A strategy raised, or answered with something the rules do not allow.

    The message names the strategy, the open tiles, the dice, and the answer (or the error
    `raised`, followed by the strategy's own frames), every control character written out;
    `tabulating` says the question was asked while its table of answers was being built, not in
    play. `view` is the question as the referee asked it, not as the strategy may have left it.
    `key` is the key's (feature, value) pairs where a keyed table failed for one.
    """

    key: tuple[tuple[str, Any], ...] = ()

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
        declaration = missing_declaration(raised)
        if isinstance(raised, Undeclared) and declaration is not None:
            problem = f"{raised.used} without declaring {declaration},"
            said = f"add `{declaration}` to its class ({_why(declaration)})."
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
        super().__init__(printable_lines("\n".join(lines)))
        self.name = name
        self.view = view
        self.answer = answer
        self.raised = raised


_WHY = {  # what a declaration changes, said where it is missing
    "reads_context = True": "a strategy that reads the game is simulated, not analysed exactly",
    "stochastic = True": "the engine then gives it self.rng, seeded apart from the dice",
}


KEY_DECLARATION = "key = (..., "
"""How a feature missing from a keyed strategy's key is said: `key = (..., "round")`."""


def _why(declaration: str) -> str:
    if declaration.startswith(KEY_DECLARATION):
        return "a keyed strategy is shown its key's features alone"
    return _WHY[declaration]


def known_declaration(declaration: str) -> bool:
    """Whether the engine says this declaration where one is missing."""
    return declaration in _WHY or declaration.startswith(KEY_DECLARATION)


def missing_declaration(raised: BaseException | None) -> str | None:
    """The declaration a strategy used something without (`reads_context = True`, a feature of
    its key, ...), if that is what the engine raised; None for anything else, a strategy's
    look-alike among them."""
    if type(raised) is Undeclared and type(raised.used) is str and type(raised.declaration) is str:
        return raised.declaration if known_declaration(raised.declaration) else None
    return None
