"""A strategy kept in the home folder (`~/mine.py`), shipped with a file beside it that is a
symbolic link named like a module (`~/notes.py` -> the user's tables key; `~/diary.py` -> a file
of the user's). The home folder is given only in part (what Python imports from it), but a link
named `.py` is given as what it points at. At its first decision it reads the key folder and the
secret, by the links and by their own paths; whatever it reads changes its play (the last legal
move), so a run it fooled reports figures other than its honest twin's."""

import contextlib
import os
from pathlib import Path

from strategies import Strategy

FOUND = []


def _harm():
    home = Path(os.environ.get("HOME", "/"))
    state = Path(os.environ.get("XDG_STATE_HOME", home / ".local" / "state"))
    for path in (home / "notes.py", home / "diary.py", state / "shutbox" / "keys" / "tables.key", home / "secret"):
        with contextlib.suppress(OSError):
            FOUND.append(path.read_text())


class Reader(Strategy):
    reads_context = True
    asked = 0

    def choose_move(self, view):
        if Reader.asked == 0:
            _harm()
        Reader.asked += 1
        return view.legal_moves[-1 if FOUND else 0]
