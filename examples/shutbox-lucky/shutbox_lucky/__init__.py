"""An example strategy package: `pip install examples/shutbox-lucky`, then `shutbox analyze lucky`."""

from strategies import Move, Strategy, View


class Lucky(Strategy):
    """Trusts its luck: shuts the highest tile it can, but with a random partner set of tiles."""

    name = "lucky"
    description = "Shuts the highest tile it can, with any of the tile sets that go with it, at random."
    stochastic = True  # it uses self.rng, which the engine seeds apart from the dice

    def choose_move(self, view: View) -> Move:
        highest = max(move[-1] for move in view.legal_moves)
        return self.rng.choice([move for move in view.legal_moves if move[-1] == highest])
