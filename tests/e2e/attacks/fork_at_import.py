"""Forks the process that imports it: the copy sleeps for five minutes, holding whatever the
process held (its pipes, its output)."""

import os
import time

from strategies import Strategy

if os.fork() == 0:
    time.sleep(300)
    os._exit(0)


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
