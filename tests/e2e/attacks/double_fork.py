"""At import, daemonizes a grandchild the classic way (fork, setsid, fork again, the middle one
exits): the grandchild, an orphan in a session of its own, sleeps for five minutes."""

import os
import time

from strategies import Strategy

middle = os.fork()
if middle == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(300)
    os._exit(0)
os.waitpid(middle, 0)


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
