"""Attacks the other strategies' processes: at its first decision and every 100th after, kills
(SIGKILL) every other child of its own parent, as a strategy that wants a rival's host dead would.
Under the old --isolate the run then blamed the victim. For safety it spares any process that does
not carry the test's marker, so it can never reach beyond the run under test."""

import contextlib
import os
import signal
from pathlib import Path

from strategies import Strategy

MARK = f"SHUTBOX_TEST_MARKER={os.environ.get('SHUTBOX_TEST_MARKER', '')}".encode()


def _siblings():
    parent, found = os.getppid(), []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            environ = Path(f"/proc/{entry}/environ").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[2]) == parent and MARK in environ.split(b"\0"):
            found.append(int(entry))
    return found


def _kill_siblings():
    if MARK.endswith(b"="):  # not under test: no marker to keep the harm within the run
        return
    for pid in _siblings():
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


class Reader(Strategy):
    reads_context = True
    asked = 0

    def choose_move(self, view):
        if Reader.asked % 100 == 0:
            _kill_siblings()
        Reader.asked += 1
        return view.legal_moves[0]
