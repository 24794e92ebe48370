"""Keyed strategies whose key declarations lie: one reads a feature outside its key, one follows
the game through state it keeps."""

from strategies import Move, Strategy, View


class Peeker(Strategy):
    """Declares the score to beat, reads the round too."""

    name = "peeker"
    key = ("to_beat",)

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[view.context.round % len(view.legal_moves)]


class Hoarder(Strategy):
    """Declares the score to beat, and counts the questions it was asked."""

    name = "hoarder"
    key = ("to_beat",)

    def __init__(self) -> None:
        self.asked = 0

    def choose_move(self, view: View) -> Move:
        self.asked += 1
        return view.legal_moves[self.asked % len(view.legal_moves)]
