"""Opens a TCP connection to 127.0.0.1 at its first decision (to the port the test listens on,
$SHUTBOX_TEST_PORT, as it would to a Dask scheduler's port found in /proc), and sends a line.
Connected, it changes its play (the last legal move for the first)."""

import os
import socket

from strategies import Strategy

CONNECTED = []


def _harm():
    try:
        with socket.create_connection(("127.0.0.1", int(os.environ["SHUTBOX_TEST_PORT"])), timeout=5) as link:
            link.sendall(b"run this in the referee\n")
            CONNECTED.append(True)
    except (OSError, KeyError, ValueError):
        pass


class Reader(Strategy):
    reads_context = True
    asked = 0

    def choose_move(self, view):
        if Reader.asked == 0:
            _harm()
        Reader.asked += 1
        return view.legal_moves[-1 if CONNECTED else 0]
