"""A strategy that reads the turn without a key: the last legal move on a turn's first roll, the
first after it (so it plays a table a test can work out: from the full box, the last legal move;
from any other box, the first)."""

from strategies import Move, Strategy, View


class FirstRollHigh(Strategy):
    """The last legal move on the first roll of a turn, then the first."""

    name = "first-roll-high"
    reads_context = True

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[-1 if not view.turn else 0]


class FullBoxHigh(Strategy):
    """`FirstRollHigh`'s play without reading anything: the last legal move from the full box, else the first."""

    name = "full-box-high"

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[-1 if view.open_mask == view.rules.full_box else 0]
