"""Keeps the process that imports it alive for five minutes after it is done (an atexit handler):
in the referee's process, `shutbox` stayed after writing its report."""

import atexit
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


_record()
atexit.register(time.sleep, 300)


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
