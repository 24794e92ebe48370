"""The honest twin of every attacker here: the same play, no harm."""

from strategies import Strategy


class Mine(Strategy):
    """Plays the first legal move; context-free, so its answers are tabulated."""

    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    """The same moves, asked turn by turn."""

    reads_context = True
