"""The context-reading strategy the benchmarks seat (from a file, as a user's strategy is):
it takes the lowest tiles once a score is posted this round, else the highest."""

from strategies import Move, Strategy, View


class Reader(Strategy):
    """Takes the lowest tiles once a score is posted this round, else the highest."""

    name = "reader"
    reads_context = True

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[0 if view.context.score_to_beat is not None else -1]
