"""At import, starts a child in a process group of its own (not a new session: setpgid), which
sleeps for five minutes; a group kill of its parent's group misses it."""

import os
import time

from strategies import Strategy

if os.fork() == 0:
    os.setpgid(0, 0)
    time.sleep(300)
    os._exit(0)


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
