"""`shutbox play`'s table in process for tests: the screen writes to a string, and a function answers
each prompt from all the screen has shown so far (it returns None to end the input)."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence

from rich.console import Console

from shutbox_cli.face.play.coach import Coaching
from shutbox_cli.face.play.screen import Screen
from shutbox_cli.face.play.seats import make_seats
from shutbox_cli.face.play.table import Table, play_table
from shutbox_cli.game import Rules

Answer = Callable[[str], "str | None"]

SHUT = re.compile(r"Shut (?:tiles )?for [^:]*: $")
HINTED = re.compile(r"Hint: shut ([\d +]+)\.[^\n]*\n(?:(?!Shut |Roll )[^\n]*\n)*Shut (?:tiles )?for [^:]*: $")


class Keyboard:
    """Standard input that is not a terminal: each line is the answer to what the screen shows."""

    def __init__(self, shown: io.StringIO, answer: Answer) -> None:
        self.shown = shown
        self.answer = answer

    def readline(self) -> str:
        line = self.answer(self.shown.getvalue())
        return "" if line is None else line + "\n"

    def isatty(self) -> bool:
        return False


def screen_for(answer: Answer, width: int | None = None) -> tuple[Screen, io.StringIO]:
    """A screen answered by `answer`: a transcript (`width` None) or a terminal `width` cells wide."""
    shown = io.StringIO()
    screen = Screen(0.0)
    screen.console = Console(
        file=shown, width=width or 80, highlight=False, markup=False, emoji=False, color_system=None
    )
    screen.console.soft_wrap = width is None
    screen.stdin = Keyboard(shown, answer)  # type: ignore[assignment]
    screen.echo = True
    return screen, shown


def run_table(
    rules: Rules,
    answer: Answer,
    players: Sequence[str] = (),
    computers: Sequence[str] = (),
    seed: int = 1,
    coaching: Coaching = Coaching.GAME,
    width: int | None = None,
) -> tuple[int, str]:
    """Play at a table with these seats until it stops; return the exit status and the transcript."""
    screen, shown = screen_for(answer, width)
    table = Table(screen, rules, make_seats(rules, players, computers), seed, coaching=coaching)
    return play_table(table), shown.getvalue()


def by_hints(shown: str, again: str = "n", worst_for: Sequence[str] = ()) -> str | None:
    """Roll on Enter, shut what the hint says (asking for it first), answer `again` to another game;
    the players named in `worst_for` shut the move the hint ranks last."""
    if SHUT.search(shown):
        hinted = HINTED.search(shown)
        if hinted is None:
            return "h"
        move = hinted.group(1)
        turns = re.findall(r"^(.+)'s turn\.$", shown, re.MULTILINE)
        if turns and turns[-1] in worst_for:
            rows = [line for line in hinted.group(0).splitlines() if line.startswith("  ")]
            move = re.split(r"  +", rows[-1].strip())[0]
        return move.replace(" + ", " ")
    if shown.endswith("[y/N]: "):
        return again
    return ""
