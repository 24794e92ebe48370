"""`prlimit_escape`'s grandchild (its supervisor blinded by a limit of no open files, so it
outlives the run), put to use: it holds the run's stderr, which is the run's output file when the
user sends both there (`shutbox tournament --report - > results.json 2>&1`, as CI does). Once the
referee has written its report and ended, it writes a report of its own over the file, the same
open file the referee wrote: the file's mode and path do not matter, Landlock never sees it."""

import contextlib
import os
import resource
import time
from pathlib import Path

from strategies import Strategy

FORGED = b'{"forged": "the report a strategy wrote after the run ended"}\n'


def _record():
    folder = Path(__file__).with_name("pids")
    if folder.is_dir():
        start = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19]
        (folder / str(os.getpid())).write_text(start)


def _parent_of(pid):
    with contextlib.suppress(OSError, ValueError, IndexError):
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    return None


supervisor = os.getppid()
referee = _parent_of(supervisor)
with contextlib.suppress(OSError):
    resource.prlimit(supervisor, resource.RLIMIT_NOFILE, (0, 0))
middle = os.fork()
if middle == 0:
    os.setsid()
    if os.fork() == 0:
        _record()
        deadline = time.monotonic() + 50
        while referee and Path(f"/proc/{referee}").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        with contextlib.suppress(OSError):
            if not os.isatty(2):
                os.ftruncate(2, 0)
                os.pwrite(2, FORGED, 0)
    os._exit(0)
os.waitpid(middle, 0)


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
