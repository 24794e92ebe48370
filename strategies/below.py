"""`below(threshold=T)`: a built-in with a risk knob worth tuning (`shutbox tune`).

It plays for the highest chance of ending its turn below T points, exactly (the solver's policy
for that goal). Of equally sure moves (chances within 1e-12) it takes the one with the lower
expected score, and of those the first in move order (the solver's tie-break, as `max-shut`'s);
so does its choice of one die or two. A low T gambles: `below(1)` plays
to shut the box and nothing else; a high T plays safe, and above every score the box can end on it
plays like `optimal`. Against a field the best T lies between, and since it is an exact strategy
(its play depends on the open tiles and the dice alone) a tune finds it exactly in one-round games.
"""

from __future__ import annotations

from shutbox_cli.game import Rules, Solution, tiles_of
from shutbox_cli.game.solver import solve_beat

from .base import Move, Strategy, View


class Below(Strategy):
    """The highest chance of ending the turn below `threshold` points (then the lower score).

    `threshold` (a whole number, 1 or more) is a risk knob: 1 plays only to shut the box, higher
    thresholds play safer, and one above every possible score plays like `optimal`.
    """

    name = "below"
    description = "The surest way to end the turn below `threshold` points: a risk knob (1: shut or bust)."

    def __init__(self, threshold: int = 10) -> None:
        if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 1:
            raise ValueError(f"threshold must be a whole number of points, 1 or more, not {threshold!r}")
        self.threshold = threshold

    def choose_move(self, view: View) -> Move:
        assert view.dice is not None
        return tiles_of(_policy(view.rules, self.threshold).best_move(view.open_mask, view.dice))

    def choose_dice(self, view: View) -> int:
        return _policy(view.rules, self.threshold).best_dice(view.open_mask)


def _policy(rules: Rules, threshold: int) -> Solution:
    """The solver's policy for ending below `threshold`: ties to the lower expected score, then to
    the first move in order (`solve_beat`, which keeps the policies it made)."""
    return solve_beat(rules, threshold, lower=True)
