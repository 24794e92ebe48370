"""Never finishes importing, and swallows every exception raised to stop it (KeyboardInterrupt
from Ctrl-C, SystemExit from a signal handler, a timeout's exception): it hung every command."""

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
while True:
    try:  # noqa: SIM105 - a bare except is the attack
        time.sleep(0.01)
    except BaseException:
        pass


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
