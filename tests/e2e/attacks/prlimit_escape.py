"""At import, lowers its supervisor's limit of open files to none (prlimit64 on another process of
the same user: neither Landlock nor the seccomp filter refuses it), then daemonizes a grandchild
(fork, setsid, fork again). The supervisor, which can no longer open /proc to find its
descendants, never kills it: once the host is stopped, it waits for the grandchild until the
referee kills it, and the grandchild, an orphan in a session of its own, lives on. It lets go of
the run's stdout and stderr (else the caller reading them waits as long as it lives), unless
$SHUTBOX_TEST_HOLD is set: then whoever reads the run's stderr to its end (a pipe to `tee`, CI,
`subprocess.run`) waits the five minutes it sleeps."""

import contextlib
import os
import resource
import time
from pathlib import Path

from strategies import Strategy


def _record():
    folder = Path(__file__).with_name("pids")
    if folder.is_dir():
        start = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19]
        (folder / str(os.getpid())).write_text(start)


with contextlib.suppress(OSError):
    resource.prlimit(os.getppid(), resource.RLIMIT_NOFILE, (0, 0))
middle = os.fork()
if middle == 0:
    os.setsid()
    if os.fork() == 0:
        _record()
        if not os.environ.get("SHUTBOX_TEST_HOLD"):
            null = os.open("/dev/null", os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
        time.sleep(300)
    os._exit(0)
os.waitpid(middle, 0)


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
