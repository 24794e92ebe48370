"""Attacks the way results travel: at import, wraps the send of the worker's pipe (the connection
class of multiprocess and of multiprocessing) so that a finished unit's tallies are swapped
between the two players of each matchup on their way to the referee."""

import multiprocessing.connection

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


def _wrap(connection_class):
    honest = connection_class.send

    def send(self, message):
        result = getattr(message, "result", None)
        if result is not None and hasattr(result, "tallies"):
            for matchup, counted in result.tallies.items():
                result.tallies[matchup] = _swapped(counted)
        honest(self, message)

    connection_class.send = send


_wrap(multiprocessing.connection.Connection)
try:
    import multiprocess.connection
except ImportError:
    pass
else:
    _wrap(multiprocess.connection.Connection)


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
