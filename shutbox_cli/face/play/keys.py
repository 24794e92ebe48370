"""The keyboard of a terminal while the table runs: keys typed when no prompt waits (while a computer
plays, during a pause) are neither echoed into the lines being written nor kept as an answer.

The terminal's echo is off while the table runs and on only while a prompt waits; what was typed
ahead is thrown away as each prompt appears, and when the table stops, however it stops, before the
terminal's own settings are given back. Piped input is left alone, every line of it kept.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, TextIO

try:
    import termios
except ImportError:  # not a POSIX system: a terminal there keeps its own ways
    termios = None  # type: ignore[assignment]


class Keys:
    """The echo and the typed-ahead keys of standard input, when it is a terminal."""

    def __init__(self, stdin: TextIO) -> None:
        self.fd: int | None = None
        if termios is not None and stdin.isatty():
            with contextlib.suppress(OSError, ValueError):
                self.fd = stdin.fileno()
        self.saved: list[Any] | None = None

    def _echo(self, on: bool) -> None:
        if self.fd is None or self.saved is None:
            return
        with contextlib.suppress(OSError, termios.error):
            mode = termios.tcgetattr(self.fd)
            mode[3] = mode[3] | termios.ECHO if on else mode[3] & ~termios.ECHO
            termios.tcsetattr(self.fd, termios.TCSANOW, mode)

    @contextlib.contextmanager
    def hidden(self) -> Iterator[None]:
        """Keep keys from echoing while no prompt waits, for as long as this lasts."""
        if self.fd is not None:
            with contextlib.suppress(OSError, termios.error):
                self.saved = termios.tcgetattr(self.fd)
        self._echo(False)
        try:
            yield
        finally:
            if self.fd is not None and self.saved is not None:
                with contextlib.suppress(OSError, termios.error):
                    termios.tcflush(self.fd, termios.TCIFLUSH)  # not for the shell to read either
                    termios.tcsetattr(self.fd, termios.TCSANOW, self.saved)
            self.saved = None

    def prompt_waits(self) -> None:
        """A prompt is about to wait for an answer: throw away what was typed before it, echo what comes."""
        if self.fd is None:
            return
        with contextlib.suppress(OSError, termios.error):
            termios.tcflush(self.fd, termios.TCIFLUSH)
        self._echo(True)

    def answered(self) -> None:
        """The answer is in: keys typed from now on are not shown."""
        self._echo(False)
