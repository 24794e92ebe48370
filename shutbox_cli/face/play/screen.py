"""The table's terminal: lines out (styled only where the terminal takes it), answers in, pauses.

Answers are read a line at a time from standard input, so a script can pipe a whole game
in; bytes the input's encoding cannot read come in written out (`\xff`), a wrong entry like
any other, asked again. When input is not a terminal each answer is echoed after its prompt, so the transcript
reads like a session at the keyboard. At a terminal, keys typed before a prompt appears (while
a computer played, say) are neither shown nor kept: they were not meant as an answer to it (see keys).
"""

from __future__ import annotations

import io
import os
import sys
import time
from collections.abc import Iterable

from rich.text import Text

from strategies.runner import printable

from ..console import ShutboxConsole
from .keys import Keys
from .wrap import wrap

QUIT_WORDS = ("q", "quit")
TERMINAL_DELAY = 0.6
"""Seconds to pause (before a computer seat's roll, after a forced shut) when a person is watching."""


class Quit(Exception):
    """The player typed q."""


class EndOfInput(Exception):
    """Input ended: Ctrl-D at the keyboard, or the end of a piped script."""


class Screen:
    """Where the table writes and asks."""

    def __init__(self, delay: float | None = None) -> None:
        self.stdin = sys.stdin
        if isinstance(self.stdin, io.TextIOWrapper):
            self.stdin.reconfigure(errors="backslashreplace")
        no_color = bool(os.environ.get("NO_COLOR"))
        self.console = ShutboxConsole(
            highlight=False,
            markup=False,
            emoji=False,
            color_system=None if no_color else "auto",
        )
        # A terminal gets long lines broken between words (see wrap); a transcript keeps one line per sentence.
        self.console.soft_wrap = not self.console.is_terminal
        watched = self.stdin.isatty() and self.console.is_terminal
        self.delay = delay if delay is not None else (TERMINAL_DELAY if watched else 0.0)
        self.echo = not self.stdin.isatty()
        self.keys = Keys(self.stdin)
        self.quit_question: str | None = None
        """Set while a game is in progress: q asks it before quitting."""

    @property
    def width(self) -> int | None:
        """The terminal's width in cells; None for a transcript, whose lines are never broken."""
        return None if self.console.soft_wrap else self.console.width

    def _fit(self, line: str | Text) -> list[Text]:
        """The line as the terminal should show it: broken to its width, or whole for a transcript."""
        text = Text(printable(line)) if isinstance(line, str) else line
        return [text] if self.width is None else wrap(text, self.width)

    def say(self, line: str | Text = "", style: str | None = None) -> None:
        """Write one line (on a terminal, as many as it takes)."""
        for part in self._fit(line):
            self.console.print(part, style=style)

    def say_lines(self, lines: Iterable[str], style: str | None = None) -> None:
        """Write several lines."""
        for line in lines:
            self.say(line, style)

    @property
    def unicode(self) -> bool:
        """Whether the output can show characters beyond ASCII (a chart's bars)."""
        return self.console.encoding.lower().replace("-", "").startswith("utf")

    def say_rows(self, rows: list[Text]) -> None:
        """Write lines already laid out for this terminal's width (a box of tiles)."""
        for row in rows:
            self.console.print(row)

    def ask(self, prompt: str | Text) -> str:
        """Show a prompt and return the answer, stripped; `q` raises Quit (once confirmed, while
        `quit_question` is set), end of input EndOfInput."""
        while True:
            answer = self._answer(prompt)
            if answer.lower() not in QUIT_WORDS:
                return answer
            if self.quit_question is None or self._sure(self.quit_question):
                raise Quit

    def _sure(self, question: str) -> bool:
        """Whether the player confirms (y, or q again; input ending counts as yes)."""
        try:
            return self._answer(question).lower() in ("y", "yes", *QUIT_WORDS)
        except EndOfInput:
            self.console.print()
            return True

    def _answer(self, prompt: str | Text) -> str:
        """Show a prompt and read a line; raise EndOfInput when input ends."""
        self.keys.prompt_waits()
        *before, last = self._fit(prompt)
        for part in before:
            self.console.print(part, style="bold")
        self.console.print(last, end="", style="bold")
        self.console.file.flush()
        try:
            line = self.stdin.readline()
        finally:
            self.keys.answered()
        if not line:
            raise EndOfInput
        answer = line.strip()
        if self.echo:
            self.console.print(printable(answer))
        return answer

    def pause(self) -> None:
        """Let a watcher follow a computer seat's play."""
        if self.delay > 0:
            time.sleep(self.delay)
