
from strategies import Strategy

class Fragile(Strategy):
    """Reads the context, so it plays game by game; a bug ends it on a full box and a roll of 12."""
    name = "fragile"
    reads_context = True

    def choose_move(self, view):
        if view.open_mask == 511 and sum(view.dice) == 12 and view.context.score_to_beat == 1:
            raise ValueError("a full box and 12")
        return view.legal_moves[0]
