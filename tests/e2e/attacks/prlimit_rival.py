"""At its first decision, finds the hosts of the other strategies of its run (the processes its
referee's other supervisors started) and sets their address space limit to nothing (prlimit64 on
another process of the same user: neither Landlock nor the seccomp filter refuses it). A rival's
next allocation fails: the run fails naming the victim, not the attacker. For safety it reaches
only processes that carry the test's marker."""

import contextlib
import os
import resource
from pathlib import Path

from strategies import Strategy

MARK = f"SHUTBOX_TEST_MARKER={os.environ.get('SHUTBOX_TEST_MARKER', '')}"


def _parent_of(pid):
    with contextlib.suppress(OSError, ValueError, IndexError):
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    return None


def _harm():
    if MARK.endswith("="):  # not under test: no marker to keep the harm within the run
        return
    mine = os.getppid()
    referee = _parent_of(mine)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        pid = int(entry.name)
        supervisor = _parent_of(pid)
        if supervisor in (None, mine) or _parent_of(supervisor) != referee:
            continue
        with contextlib.suppress(OSError):
            if b"tournaments.referee.host" in Path(f"/proc/{pid}/cmdline").read_bytes():
                resource.prlimit(pid, resource.RLIMIT_AS, (0, 0))


class Reader(Strategy):
    reads_context = True
    asked = 0

    def choose_move(self, view):
        if Reader.asked == 0:
            _harm()
        Reader.asked += 1
        return view.legal_moves[0]
