"""Ends the process that imports it with status 0, as if all went well: in the referee's process
this ended `shutbox tournament` with status 0, no output and no report."""

import os

from strategies import Strategy

os._exit(0)


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
