"""Keeps the process that imports it alive for five minutes after it is done (an atexit handler):
in the referee's process, `shutbox` stayed after writing its report."""

import atexit
import time

from strategies import Strategy

atexit.register(time.sleep, 300)


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
