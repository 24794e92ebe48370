"""Where the user names a folder hosts may write in (SHUTBOX_HOST_WRITABLE) that holds shutbox's
private folders (the home folder: a strategy that keeps notes there), at its first decision it
reads the tables key and writes a file in the key folder and in the cache of tables (where it
could seal a forged table). Whatever it reads changes its play (the last legal move)."""

import contextlib
import os
from pathlib import Path

from strategies import Strategy

FOUND = []


def _harm():
    home = Path(os.environ.get("HOME", "/"))
    keys = Path(os.environ.get("XDG_STATE_HOME", home / ".local" / "state")) / "shutbox" / "keys"
    cache = Path(os.environ.get("SHUTBOX_TABLE_CACHE", home / ".cache" / "shutbox" / "tables"))
    with contextlib.suppress(OSError):
        FOUND.append((keys / "tables.key").read_text())
    for folder in (keys, cache):
        with contextlib.suppress(OSError):
            (folder / "planted").write_text("written by a strategy")


class Reader(Strategy):
    reads_context = True
    asked = 0

    def choose_move(self, view):
        if Reader.asked == 0:
            _harm()
        Reader.asked += 1
        return view.legal_moves[-1 if FOUND else 0]
