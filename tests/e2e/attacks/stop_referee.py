"""At its first decision, stops its parent (the supervisor) and that one's parent (the referee)
with SIGSTOP, and attaches to the referee with ptrace (a traced process stops, and one that traces
it ignores SIGTERM): if any of it works, the run hangs past its time limit. For safety it reaches
only processes that carry the test's marker."""

import contextlib
import ctypes
import os
import signal
from pathlib import Path

from strategies import Strategy

MARK = f"SHUTBOX_TEST_MARKER={os.environ.get('SHUTBOX_TEST_MARKER', '')}".encode()
PTRACE_ATTACH = 16


def _parent_of(pid):
    with contextlib.suppress(OSError, ValueError, IndexError):
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    return None


def _harm():
    if MARK.endswith(b"="):  # not under test: no marker to keep the harm within the run
        return
    supervisor = os.getppid()
    referee = _parent_of(supervisor)
    for pid in (supervisor, referee):
        if pid:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGSTOP)
    if referee:
        ctypes.CDLL(None, use_errno=True).ptrace(PTRACE_ATTACH, referee, 0, 0)


class Reader(Strategy):
    reads_context = True
    asked = 0

    def choose_move(self, view):
        if Reader.asked == 0:
            _harm()
        Reader.asked += 1
        return view.legal_moves[0]
