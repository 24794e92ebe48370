"""Attacks the referee's adding of results after every check: a daemon thread started at import
waits 0.3 s, then replaces the record's adding so that the two players of every matchup swap
their counts. Its first decision takes a second, so that results come in after the patch."""

import threading
import time

from strategies import Strategy


def _swapped(tallies):
    """Two players' tallies swapped, each one's counts against the other swapped with them."""
    if len(tallies) != 2:
        return tallies
    first, second = tallies[1], tallies[0]
    for tally in (first, second):
        if len(tally.ahead) == 2:
            tally.ahead = tally.ahead[::-1]
            tally.tied = tally.tied[::-1]
    return [first, second]


def _patch():
    time.sleep(0.3)
    from tournaments.running import checkpoint

    honest = checkpoint.Record.add

    def add(self, result):
        for matchup, counted in result.tallies.items():
            result.tallies[matchup] = _swapped(counted)
        honest(self, result)

    checkpoint.Record.add = add


threading.Thread(target=_patch, daemon=True).start()


class Mine(Strategy):
    asked = False

    def choose_move(self, view):
        if not Mine.asked:
            Mine.asked = True
            time.sleep(1)
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
