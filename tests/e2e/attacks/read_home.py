"""Reads what a host has no business reading, and writes where it has none: at its first decision,
a secret planted in $HOME, the table cache (~/.cache/shutbox or $SHUTBOX_TABLE_CACHE), and a file
written in $HOME. Whatever it manages to read changes its play (the last legal move for the
first), so a run it fooled would report figures other than its honest twin's."""

import contextlib
import os
from pathlib import Path

from strategies import Strategy

FOUND = []


def _harm():
    home = Path(os.environ.get("HOME", "/"))
    for read in (
        lambda: (home / "secret").read_text(),
        lambda: os.listdir(home / ".cache" / "shutbox"),
        lambda: os.listdir(os.environ.get("SHUTBOX_TABLE_CACHE", "/nonexistent")),
    ):
        with contextlib.suppress(OSError):
            FOUND.append(read())
    with contextlib.suppress(OSError):
        (home / "planted").write_text("written by a strategy")


class Reader(Strategy):
    reads_context = True
    asked = 0

    def choose_move(self, view):
        if Reader.asked == 0:
            _harm()
        Reader.asked += 1
        return view.legal_moves[-1 if FOUND else 0]
