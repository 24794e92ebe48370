"""A small JSON file of the player's in the data folder: read once, written whole, never lost.

A file that is not what it should be (not JSON, the wrong shape, too big or nested too deep)
is renamed aside (`best-scores.corrupt.json`, then `-2`, ...) and a new one is started, so a
bad write or a hand edit costs nothing that was in it; a file that cannot be read at all, or is
not a regular file (a folder, a device, a pipe), is left alone and never written over. Every
write goes to a temporary file that is then renamed, so a crash never leaves half a file.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tournaments.parts import DATA_SETTING, data_folder, reason, write_atomically

DATA_DIR_VARIABLE = DATA_SETTING
MOST_BYTES = 1 << 20
"""The largest data file read: a best-score file of a hundred rule sets is a few kilobytes."""


class NotRegular(OSError):
    """The path is a folder, a device or a pipe: nothing to read a table from, nor to write over."""


def read_regular(path: Path, most: int) -> bytes:
    """At most `most` + 1 bytes of a regular file. The file is opened without waiting (a pipe
    with no writer would block a plain open) and checked before a byte is read: NotRegular for
    a folder, a device or a pipe; FileNotFoundError if there is nothing there."""
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise NotRegular(f"{path} is not a regular file")
        with os.fdopen(handle, "rb", closefd=False) as file:
            return file.read(most + 1)
    finally:
        os.close(handle)


def data_dir() -> Path:
    """The folder for shutbox's data: $SHUTBOX_DATA_DIR, or the platform's user data folder."""
    return data_folder()


class DataFile:
    """One JSON file: `{"format": N, KEY: table}`, where `check` accepts the table."""

    def __init__(self, path: Path, what: str, key: str, form: int, check: Callable[[Any], bool]) -> None:
        self.path = path
        self.what = what
        self.key = key
        self.form = form
        self.check = check
        self.writable = True

    def read(self) -> tuple[dict[str, Any], str | None]:
        """The table (empty if there is no file) and a sentence if the file was set aside or left alone."""
        try:
            content = read_regular(self.path, MOST_BYTES)
        except FileNotFoundError:
            return {}, None
        except NotRegular:
            self.writable = False
            return {}, f"The {self.what} {self.path} is not a regular file; it is left alone, unchanged."
        except OSError as error:
            self.writable = False
            return {}, f"The {self.what} {self.path} could not be read ({reason(error)}); it is left alone, unchanged."
        if len(content) > MOST_BYTES:
            return {}, self._set_aside(f"is larger than {MOST_BYTES >> 20} MiB, too big for a {self.what}")
        try:
            data = json.loads(content.decode("utf-8"))
            table = data[self.key]
            if data.get("format") != self.form or not isinstance(table, dict) or not self.check(table):
                raise ValueError(f"not a {self.what}")
        except RecursionError:
            return {}, self._set_aside(f"is nested too deep for a {self.what}")
        except (ValueError, TypeError, KeyError, AttributeError) as error:  # UnicodeDecodeError too
            return {}, self._set_aside(f"is not a {self.what} ({reason(error)})")
        return table, None

    def write(self, table: dict[str, Any]) -> str | None:
        """Write the file whole or not at all; return the reason on failure."""
        if not self.writable:
            return "the file there could not be read, so it is left alone"
        text = json.dumps({"format": self.form, self.key: table}, indent=2, sort_keys=True) + "\n"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(self.path, text.encode())
        except OSError as error:
            return reason(error)
        return None

    def remove(self) -> str | None:
        """Delete the file; return the reason on failure."""
        if not self.writable:
            return "the file could not be read, so it is left alone"
        try:
            self.path.unlink(missing_ok=True)
        except OSError as error:
            return reason(error)
        return None

    def _set_aside(self, what: str) -> str:
        """Rename a bad file out of the way, so nothing in it is lost; say where it went."""
        message = f"The {self.what} {self.path} {what}"
        aside = self._aside_path()
        try:
            os.rename(self.path, aside)
        except OSError as error:
            self.writable = False
            return f"{message}; it could not be set aside ({reason(error)}), so it is left alone, unchanged."
        return f"{message}; it was kept as {aside} and a new one is started."

    def _aside_path(self) -> Path:
        """`name.corrupt.json`, or `name.corrupt-2.json` and so on if that is taken."""
        stem, suffix = self.path.stem, self.path.suffix
        number = 1
        while True:
            tag = "corrupt" if number == 1 else f"corrupt-{number}"
            aside = self.path.with_name(f"{stem}.{tag}{suffix}")
            if not aside.exists():
                return aside
            number += 1
