"""At import, starts a child in a session of its own (out of the process group a group kill
reaches), which sleeps for five minutes."""

import os
import time

from strategies import Strategy

if os.fork() == 0:
    os.setsid()
    time.sleep(300)
    os._exit(0)


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
