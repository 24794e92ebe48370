"""The built-in strategies that play from the exact solver.

The solver caches its solutions per rule set (and target), so a strategy asks it at
every decision without solving anything twice.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from functools import lru_cache

from shutbox_cli.game import Rules, Solution, Ties, score, solve_beat, solve_expected_score, solve_shut, tiles_of

from .base import Move, Strategy, View

SAME = 1e-9
"""Chances closer than this are the same chance (they differ by rounding only)."""


class _Solved(Strategy):
    """Plays the solver's optimal policy for one objective."""

    solve: Callable[[Rules], Solution]

    def choose_move(self, view: View) -> Move:
        assert view.dice is not None
        return tiles_of(self.solve(view.rules).best_move(view.open_mask, view.dice))

    def choose_dice(self, view: View) -> int:
        return self.solve(view.rules).best_dice(view.open_mask)


class Optimal(_Solved):
    """The lowest expected score, exactly, for whatever rules are in force."""

    name = "optimal"
    description = "The lowest expected score under the rules in force, exactly (one-die choice included)."
    solve = staticmethod(solve_expected_score)


class MaxShut(_Solved):
    """The highest chance of shutting the box, exactly, for whatever rules are in force."""

    name = "max-shut"
    description = "The highest chance of shutting the box under the rules in force, exactly (one-die choice included)."
    solve = staticmethod(solve_shut)


@lru_cache(maxsize=64)
def _scores(rules: Rules) -> tuple[int, ...]:
    """Every score a turn can end with under these rules, lowest first."""
    return tuple(sorted({score(rules, mask) for mask in range(rules.full_box + 1)}))


def chance_below(rules: Rules, target: int) -> Solution | None:
    """The policy with the highest chance of a score below `target`, or None when every
    turn scores below it (nothing to play for but a low score) or none can."""
    scores = _scores(rules)
    at = bisect.bisect_left(scores, target)
    if at == 0 or at == len(scores):
        return None
    # Only the scores a turn can reach matter, so every target between two of them is the same goal.
    return solve_beat(rules, scores[at])


class Target(Strategy):
    """Plays to win the game it is in, from what the context shows.

    It aims at a goal: a score strictly below some target T. Where that chance ties
    between moves (or no goal applies) it plays for the lowest expected score, so with
    no goal it plays exactly like `optimal`.

    - One round (and every playoff round): T is the best score already posted this
      round. Under every tie rule it plays to beat it strictly: a tie loses under
      `seat` (the posted score sits earlier) and is worth about half a win under
      `share` and `playoff`, and counted so, aiming strictly does better than aiming
      for a tie too for most targets, and never worse by more than 0.2 points in 100
      (computed exactly for the standard game). When the best posted score is 0, a
      tie is the most it can get: it plays to shut the box, unless ties go by seat.
    - Several rounds: in the last round, T is the lowest final total posted so far
      minus its own total (to finish strictly below it); earlier rounds, `optimal`.
    - Drop-out: T is the room left under the limit (limit - own total) less `margin`
      points of cushion (the whole room if the cushion leaves none), so it stays in
      the game first and keeps its total low second.
    """

    name = "target"
    description = (
        "Plays to win: to beat the best score posted this round (by totals in the last of several rounds), "
        "or to stay under the drop-out limit by margin points; else like optimal."
    )
    reads_context = True

    def __init__(self, margin: int = 0) -> None:
        if isinstance(margin, bool) or not isinstance(margin, int) or margin < 0:
            raise ValueError(f"margin must be a whole number of points, 0 or more, not {margin!r}")
        self.margin = margin

    def goal(self, view: View) -> int | None:
        """The target T to score strictly below, or None to play for the lowest expected score."""
        rules, context = view.rules, view.context
        me = context.player
        if context.playoff or not rules.multi_round:
            return self._beat(rules, context.score_to_beat)
        if rules.drop_out is not None:
            room = rules.drop_out - context.totals[me]
            return room - self.margin if room > self.margin else room
        if context.round < rules.rounds - 1:
            return None
        finals = [
            total + posted
            for player, (total, posted) in enumerate(zip(context.totals, context.scores, strict=True))
            if posted is not None and player != me
        ]
        return self._beat(rules, min(finals) - context.totals[me] if finals else None)

    def _beat(self, rules: Rules, to_beat: int | None) -> int | None:
        if to_beat is None or to_beat < 0:
            return None
        if to_beat == 0:  # a tie at 0 is the best there is
            return None if rules.ties is Ties.SEAT else 1
        return to_beat

    def choose_move(self, view: View) -> Move:
        assert view.dice is not None
        mask, dice = view.open_mask, view.dice
        expected = solve_expected_score(view.rules)
        aim = self._aim(view)
        if aim is None:
            return tiles_of(expected.best_move(mask, dice))
        return tiles_of(_surest(aim.move_values(mask, dice), expected.move_values(mask, dice)))

    def choose_dice(self, view: View) -> int:
        mask = view.open_mask
        expected = solve_expected_score(view.rules)
        aim = self._aim(view)
        if aim is None:
            return expected.best_dice(mask)
        return _surest(aim.dice_values(mask), expected.dice_values(mask))

    def _aim(self, view: View) -> Solution | None:
        """The policy with the best chance of reaching this view's goal, or None to play optimal
        (no goal, or one that every turn or no turn reaches)."""
        target = self.goal(view)
        return None if target is None else chance_below(view.rules, target)


def _surest(chances: dict[int, float], means: dict[int, float]) -> int:
    """The option with the best chance of reaching the goal; of those, the one with the lowest expected score."""
    best = max(chances.values())
    return min((option for option in chances if chances[option] >= best - SAME), key=means.__getitem__)
