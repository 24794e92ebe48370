"""A strategy that reads the turn without a key: the highest tiles on a turn's first roll, the
lowest after it (so it plays a table a test can work out: from the full box, the last legal move;
from any other box, the first)."""

from strategies import Move, Strategy, View


class FirstRollHigh(Strategy):
    """Shuts the highest tiles on the first roll of a turn, then the lowest."""

    name = "first-roll-high"
    reads_context = True

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[-1 if not view.turn else 0]


class FullBoxHigh(Strategy):
    """`FirstRollHigh`'s play without reading anything: the highest tiles from the full box, else the lowest."""

    name = "full-box-high"

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[-1 if view.open_mask == view.rules.full_box else 0]
