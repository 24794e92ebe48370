"""A strategy that reads the whole context, undeclared as keyed: it plays game by game."""

from strategies import Move, Strategy, View


class Reader(Strategy):
    """Takes the lowest tiles once a score is posted this round or in later rounds, else the highest."""

    name = "reader"
    reads_context = True

    def choose_move(self, view: View) -> Move:
        behind = view.context.score_to_beat is not None or view.context.round > 0
        return view.legal_moves[0 if behind else -1]
