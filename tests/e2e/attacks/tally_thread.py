"""Attacks the referee's adding of results after its checks: a daemon thread started at import
waits 0.3 s, then gives the run's record (found in the main thread's frames, so no class or
module changes) an adding of its own, which swaps the counts of the two players of every matchup. Its
first decision takes a second, so that results come in after the patch."""

import sys
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


def _swapping(honest):
    def add(result):
        for matchup, counted in result.tallies.items():
            result.tallies[matchup] = _swapped(counted)
        honest(result)

    return add


def _records():
    """The record objects in the main thread's frames."""
    frame = sys._current_frames().get(threading.main_thread().ident)
    while frame is not None:
        for value in list(frame.f_locals.values()):
            kind = type(value)
            if (kind.__module__, kind.__name__) == ("tournaments.running.checkpoint", "Record"):
                yield value
        frame = frame.f_back


def _patch():
    time.sleep(0.3)
    while True:
        for record in _records():
            if "add" not in vars(record):
                record.add = _swapping(record.add)
        time.sleep(0.02)


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
