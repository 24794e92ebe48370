"""The choices a strategy makes in sampled turns, each costed exactly (`sampled`'s explanations):
a player is watched as it plays, and each answer it gives where it has a choice is costed against
the best play for the turn's situation, a solver's `Solution` (the lowest expected score, or the
highest chance of winning from the situation it saw), then counted by state."""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from shutbox_cli.game import Solution
from shutbox_cli.game.exact_regret import TIED, Decision
from shutbox_cli.game.terms import Mask
from shutbox_cli.game.turn import Chooser, Roll

from ..statistics.stats import Z95, Interval

State = tuple[tuple[Any, ...], Mask, tuple[int, ...] | None, int]
"""A sampled decision: the situation's key (empty alone), the box, the throw (None: the choice of
how many dice) and the choice made."""


@dataclasses.dataclass(frozen=True)
class SampledDecision(Decision):
    """A decision state met in the sample where the choice made was not the best (`Decision`, its
    `key` the situation: the seat and what the game showed, in a game): its `reach` is how often a
    game met it, `met` times in the sample's games."""

    met: int = 0


class ChoiceCosts:
    """The choices of a strategy's turns, each costed exactly against the best play for the turn's
    situation (`situation`): counted by state, and the loss of the turn in hand (in the measure's
    units, 0 or more)."""

    def __init__(self) -> None:
        self.met: Counter[State] = Counter()
        self.cost: dict[State, tuple[int, float]] = {}  # the best choice there and the cost of the one made
        self.decisions = 0
        self._loss = 0.0
        self._key: tuple[Any, ...] = ()
        self._solution: Solution | None = None
        self._tied = 0.0

    def situation(self, key: tuple[Any, ...], solution: Solution) -> None:
        """The next turns' situation: its key, and the best play for it."""
        if solution is not self._solution:
            self._tied = TIED * max(1.0, *map(abs, solution.terminal))  # a choice as good as the best is the best
        self._key, self._solution = key, solution

    def watch(self, chooser: Chooser) -> Chooser:
        """The strategy's player, every answer seen here."""
        return _Watched(chooser, self)

    def turn_loss(self) -> float:
        """The loss of the turn just played (and start the next at none)."""
        loss, self._loss = self._loss, 0.0
        return loss

    def seen(self, mask: Mask, throw: tuple[int, ...] | None, played: int) -> None:
        """A choice made: counted, its cost added to the turn's loss."""
        state = (self._key, mask, throw, played)
        self.decisions += 1
        known = self.cost.get(state)
        if known is None:
            known = self.cost[state] = self._costed(mask, throw, played)
        if known[1] > self._tied:
            self.met[state] += 1
            self._loss += known[1]

    def _costed(self, mask: Mask, throw: tuple[int, ...] | None, played: int) -> tuple[int, float]:
        """The best choice, and what the one made loses against it."""
        solution = self._solution
        assert solution is not None, "a situation is set before any turn"
        sign = -1.0 if solution.minimize else 1.0
        if throw is None:
            values = solution.dice_values(mask)
            best = solution.best_dice(mask)
            return best, sign * (values[best] - values[played])
        best = solution.best_move(mask, throw)
        return best, sign * (solution.values[mask & ~best] - solution.values[mask & ~played])

    def rows(self, games: int) -> tuple[SampledDecision, ...]:
        """Every state met where the choice was not the best, the largest loss (met * cost) first, its
        reach `met` over `games` (every seat's, where the seats' games are averaged)."""
        found = []
        for (key, mask, throw, played), met in self.met.items():
            best, cost = self.cost[key, mask, throw, played]
            found.append(SampledDecision(mask, throw, played, best, cost, met / games, key, met=met))
        return tuple(sorted(found, key=_order))


def _order(row: SampledDecision) -> tuple[Any, ...]:
    """The largest loss first; among equal ones by key (none before any value), box, throw, choice."""
    key = tuple(-1 if value is None else value for value in row.key)
    return (-row.met * row.cost, key, -row.mask, row.throw or (), row.played)


class _Watched:
    """A player whose every answer is told to `ChoiceCosts` before it is played (a throw as the
    strategy sees it, lowest die first)."""

    def __init__(self, chooser: Chooser, costs: ChoiceCosts) -> None:
        self.chooser, self.costs = chooser, costs

    def choose_dice(self, open_mask: Mask, history: Sequence[Roll]) -> int:
        count = self.chooser.choose_dice(open_mask, history)
        if count in (1, 2):  # anything else is refused as it is played
            self.costs.seen(open_mask, None, count)
        return count

    def choose_move(
        self, open_mask: Mask, dice: tuple[int, ...], moves: tuple[Mask, ...], history: Sequence[Roll]
    ) -> Mask:
        move = self.chooser.choose_move(open_mask, dice, moves, history)
        if move in moves:  # anything else is refused as it is played
            self.costs.seen(open_mask, tuple(sorted(dice)), move)
        return move


def mean_interval(values: Sequence[float]) -> Interval:
    """The normal-approximation 95% interval of the mean of `values` (at least two), never below 0:
    no game loses less than nothing."""
    count = len(values)
    mean = math.fsum(values) / count
    variance = math.fsum((value - mean) ** 2 for value in values) / (count - 1)
    half = Z95 * math.sqrt(variance / count)
    return (max(0.0, mean - half), mean + half)
