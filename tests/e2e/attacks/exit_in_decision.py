"""Ends its process with status 0 at its first decision: `shutbox check` then said that every
check holds."""

import os

from strategies import Strategy


class Mine(Strategy):
    def choose_move(self, view):
        os._exit(0)


class Reader(Mine):
    reads_context = True
