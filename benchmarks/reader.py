"""The strategies the benchmarks seat (from a file, as a user's strategy is): `Reader` reads the
context, taking the lowest tiles once a score is posted this round, else the highest; `Chancer`
reads nothing of the game but is stochastic, so it too is asked every decision, never tabulated."""

from strategies import Move, Strategy, View


class Reader(Strategy):
    """Takes the lowest tiles once a score is posted this round, else the highest."""

    name = "reader"
    reads_context = True

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[0 if view.context.score_to_beat is not None else -1]


class Chancer(Strategy):
    """Takes the highest tiles, or one time in ten the lowest, by its own generator."""

    name = "chancer"
    stochastic = True

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[0 if self.rng.random() < 0.1 else -1]
