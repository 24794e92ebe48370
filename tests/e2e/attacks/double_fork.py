"""At import, daemonizes a grandchild the classic way (fork, setsid, fork again, the middle one
exits): the grandchild, an orphan in a session of its own, sleeps for five minutes."""

import os
import time
from pathlib import Path

from strategies import Strategy


def _record():
    """Leaves this process's id, and its start time, in pids/ beside this file, for the test."""
    folder = Path(__file__).with_name("pids")
    if folder.is_dir():
        start = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19]
        (folder / str(os.getpid())).write_text(start)


middle = os.fork()
if middle == 0:
    os.setsid()
    if os.fork() == 0:
        _record()
        time.sleep(300)
    os._exit(0)
os.waitpid(middle, 0)


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
