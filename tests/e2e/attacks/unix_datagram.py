"""At its first decision, makes a socket pair of datagram sockets (socketpair is allowed: the
seccomp filter refuses only socket()) and sends a datagram from one to a named Unix socket of the
user's ($SHUTBOX_TEST_SOCKET: a logger's, a desktop service's), which Landlock does not hold (its
ABI 7 scopes abstract sockets only), then connects it there and sends again."""

import contextlib
import os
import socket

from strategies import Strategy


def _harm():
    path = os.environ.get("SHUTBOX_TEST_SOCKET")
    if not path:
        return
    mine, _ = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    with contextlib.suppress(OSError):
        mine.sendto(b"sent by a strategy", path)
    with contextlib.suppress(OSError):
        mine.connect(path)
        mine.send(b"sent by a strategy, connected")


class Reader(Strategy):
    reads_context = True
    asked = 0

    def choose_move(self, view):
        if Reader.asked == 0:
            _harm()
        Reader.asked += 1
        return view.legal_moves[0]
