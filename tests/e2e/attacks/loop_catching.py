"""Never finishes importing, and swallows every exception raised to stop it (KeyboardInterrupt
from Ctrl-C, SystemExit from a signal handler, a timeout's exception): it hung every command."""

import time

from strategies import Strategy

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
