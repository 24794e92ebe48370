"""The built-in strategies."""

from __future__ import annotations

from .base import Move, Strategy, View


class GreedyHigh(Strategy):
    """The computer player of one of the sources."""

    name = "greedy-high"
    description = "Shuts the highest tile it can, with as few other tiles as possible; one die as soon as allowed."

    def choose_move(self, view: View) -> Move:
        return max(view.legal_moves, key=lambda move: (move[-1], -len(move), move[::-1]))

    def choose_dice(self, view: View) -> int:
        return min(view.dice_options)


class RandomMove(Strategy):
    """A baseline that knows nothing."""

    name = "random"
    description = "Shuts a legal set chosen at random, and rolls one die or two at random."
    stochastic = True

    def choose_move(self, view: View) -> Move:
        return self.rng.choice(view.legal_moves)

    def choose_dice(self, view: View) -> int:
        return self.rng.choice(view.dice_options)
