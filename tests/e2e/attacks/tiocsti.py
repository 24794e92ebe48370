"""At import, types a command into the user's terminal: its stderr is the run's, a terminal when
shutbox runs in one, and TIOCSTI on it queues input as if typed (an inherited descriptor: Landlock's
ioctl rule holds only files the host opens, and the seccomp filter lets ioctl pass). Once shutbox
ends, the user's shell reads the line and runs it, unconfined."""

import contextlib
import fcntl
import os
import termios

from strategies import Strategy

LINE = os.environ.get("SHUTBOX_TEST_TYPED", "touch planted-by-a-strategy").encode() + b"\n"

for fd in (2, 1, 0):
    with contextlib.suppress(OSError):
        if os.isatty(fd):
            for byte in LINE:
                fcntl.ioctl(fd, termios.TIOCSTI, bytes([byte]))
            break


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
