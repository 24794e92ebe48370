"""Never finishes importing, in a loop inside C where no Python signal handler ever runs."""

import collections
import itertools

from strategies import Strategy

collections.deque(itertools.count(), maxlen=0)


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
