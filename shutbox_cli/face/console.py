"""The console that results are printed on (stdout, or stderr when stdout holds a report). On a
terminal it wraps to the terminal's width; piped or redirected (a CI log, `| grep`), it wraps
nothing, so no line is broken inside a sentence, a number or a command to copy, and tables keep a
row a line. COLUMNS, when set, is the width either way.

Every rich console of the face is a `ShutboxConsole`: a closed pipe reaches the entry point as the
BrokenPipeError it is (see `streams`), where rich alone would end the process with status 1."""

import os
import re
import sys
from typing import TextIO

from rich.console import Console

PIPED_WIDTH = 1000
"""Wide enough that no table or line wraps; tables take only the width they need."""
_PADDING = re.compile(r" +$", re.MULTILINE)


class ShutboxConsole(Console):
    """rich's console, but a closed pipe is the entry point's to handle, and it draws as for UTF-8
    whatever the stream's encoding: the stream writes look-alikes of what it lacks, which keep a
    table's layout ('-' for a rule) where rich's ASCII boxes would add a grid."""

    @property
    def encoding(self) -> str:
        return "utf-8"

    def on_broken_pipe(self) -> None:
        raise  # called from rich's `except BrokenPipeError:`: its error goes on up


class _Trimmed:
    """stdout without the spaces rich pads lines with to the console's width (it writes whole lines)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(_PADDING.sub("", text))

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return False


def results_console(stderr: bool = False) -> Console:
    """rich's console for stdout (or stderr), wrapped as its destination needs."""
    stream = sys.stderr if stderr else sys.stdout
    if stream.isatty() or os.environ.get("COLUMNS"):
        return ShutboxConsole(highlight=False, stderr=stderr)
    return ShutboxConsole(file=_Trimmed(stream), highlight=False, width=PIPED_WIDTH, soft_wrap=True)  # type: ignore[arg-type]
