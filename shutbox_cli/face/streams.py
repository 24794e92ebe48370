"""The standard streams as every command writes them (set up once, by the entry point).

A character the stream's encoding lacks (`PYTHONIOENCODING=ascii`, a Latin-1 locale) is written
as its ASCII look-alike: '–' as '-', '×' as 'x', a box-drawing line as '-' or '|', a bar's block
as '#'; a byte of a name that is not UTF-8 (an undecodable file name) as its escape `\\xff`; any
other character as its `\\u` escape. So no command fails on the terminal's encoding.

A reader that goes away (`shutbox tournament | head -1`) ends the process quietly with status 141,
as a process that SIGPIPE kills (`seq`, `cat`, `grep` in a pipe) ends: the status tells the
pipeline that the output was cut short, and not that a strategy failed or a gate held (1)."""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import re
import select
import sys
import unicodedata

CLOSED_PIPE = 141
"""The reader of stdout went away: 128 + SIGPIPE (13), as shells report a process it killed."""
HANDLER = "shutbox-look-alike"
"""The name the encoding error handler is registered under."""
LOOK_ALIKES = {
    "–": "-",
    "—": "--",
    "−": "-",
    "·": ".",
    "×": "x",
    "±": "+/-",
    "→": "->",
    "←": "<-",
    "…": "...",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "≤": "<=",
    "≥": ">=",
    "≠": "!=",
    "•": "*",
    "µ": "u",
    "\u00a0": " ",
    # Blocks: a bar's cells (a partial cell rounded to whole or none), a sparkline's heights.
    "█": "#",
    "▉": "#",
    "▊": "#",
    "▋": "#",
    "▌": "#",
    "▍": "",
    "▎": "",
    "▏": "",
    "▇": "#",
    "▆": "=",
    "▅": "=",
    "▄": "-",
    "▃": "-",
    "▂": "_",
    "▁": "_",
}
ESCAPE_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?"  # CSI: colours, cursor moves
    r"|\x9b[0-?]*[ -/]*[@-~]?"  # the same, in one 8-bit character
    r"|[\x1b][\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # OSC (the clipboard, a title), DCS, PM, APC
    r"|[\x90\x98\x9d\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # the same, opened by one 8-bit character
    r"|\x1b[ -/]*[0-~]?"  # any other escape
)
"""A terminal's escape sequence, whole, as far as it goes."""
_ESCAPED_BYTES = range(0xDC80, 0xDD00)
"""Lone surrogates that stand for the bytes of an undecodable name (Python's surrogateescape)."""


def look_alike(char: str) -> str:
    """The ASCII that stands for a character an encoding lacks."""
    if char in LOOK_ALIKES:
        return LOOK_ALIKES[char]
    code = ord(char)
    if code in _ESCAPED_BYTES:
        return f"\\x{code - 0xDC00:02x}"
    name = unicodedata.name(char, "")
    if name.startswith("BOX DRAWINGS"):
        return "+" if "VERTICAL" in name and "HORIZONTAL" in name else "|" if "VERTICAL" in name else "-"
    plain = unicodedata.normalize("NFD", char).encode("ascii", "ignore").decode()  # 'é' is 'e'
    if plain and plain.isprintable():
        return plain
    return char.encode("ascii", "backslashreplace").decode()


def _replace(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(look_alike(char) for char in error.object[error.start : error.end]), error.end


def write_what_encodes() -> None:
    """Let stdout and stderr write any text, in look-alikes where their encoding falls short."""
    codecs.register_error(HANDLER, _replace)
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors=HANDLER)


def reader_gone() -> bool:
    """Whether the reader of stdout or stderr went away (a BrokenPipeError may come from elsewhere:
    a pipe to a worker process)."""
    try:
        poller = select.poll()
    except AttributeError:  # no poll() on this platform: take the error's word for it
        return True
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            poller.register(stream.fileno(), select.POLLOUT)
    return any(event & (select.POLLERR | select.POLLHUP) for _, event in poller.poll(0))


def closed_pipe() -> int:
    """The reader of stdout went away: what is still buffered for it, and anything written later,
    goes nowhere (so the interpreter's last flush cannot fail either). The status to end with."""
    with contextlib.suppress(OSError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    return CLOSED_PIPE


def flushed(status: int) -> int:
    """Flush stdout and stderr before the process ends with `status`: CLOSED_PIPE instead of 0
    if the reader of stdout went away before it had everything."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        closed = closed_pipe()
        status = status or closed
    except (OSError, ValueError):  # a full disk, a stdout closed by the code it ran
        pass
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.flush()
    return status


def from_a_file(text: str) -> str:
    """Text read from a file as a terminal may be shown it: every escape sequence, and every control
    or format character but the line break and the tab, left out."""
    text = ESCAPE_SEQUENCE.sub("", text)
    return text if text.isprintable() else "".join(char for char in text if char.isprintable() or char in "\n\t")
