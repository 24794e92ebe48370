"""At import, sets its referee's limit of processor time to one second (prlimit64 on another
process of the user's: neither Landlock's signal scoping nor the seccomp filter refuses it). The
kernel then sends the referee SIGXCPU, then SIGKILL, once it has used that second: the signals the
host may not send itself. For safety it reaches only processes that carry the test's marker."""

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


if not MARK.endswith("="):  # under test only: the marker keeps the harm within the run
    referee = _parent_of(os.getppid())
    if referee:
        with contextlib.suppress(OSError):
            resource.prlimit(referee, resource.RLIMIT_CPU, (1, 2))


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
