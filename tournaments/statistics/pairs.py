"""Game pairs: a duplicate deal at a table of two is played twice, the seats swapped, so the two
games share their dice and differ only in who sits first. A pair's outcome for one player is its
score over the two games (a win 1, a shared win 1/2, a loss 0): 0, 1/2, 1, 3/2 or 2, and the counts
of those five outcomes are the pentanomial. The pairs are independent where the games of a pair are
not, so intervals and tests from the pairs are sound and (the dice being shared) much tighter than
from the games taken one by one (docs/statistics.md)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from ..playing.tally import Tally
from .stats import Z95, Interval

OUTCOMES = 5
"""A pair's outcomes: its score over two games in halves, 0 to 4."""


@dataclasses.dataclass(frozen=True)
class Pentanomial:
    """How many pairs one player scored 0, 1/2, 1, 3/2 and 2 points in (`counts[k]`: k halves),
    with how many games it won, shared and lost over them."""

    counts: tuple[int, int, int, int, int]
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def games(self) -> int:
        return 2 * self.pairs

    @property
    def score(self) -> float:
        """The player's mean score per game (a shared win 1/2)."""
        return _mean(self.counts) / 2 if self.pairs else 0.5

    @property
    def variance(self) -> float:
        """The variance of a pair's score on the scale of one game (the pair's mean), as the
        engine tools take it: the population variance of the counts."""
        if not self.pairs:
            return 0.0
        mean = _mean(self.counts)
        return sum(count * (k / 2 - mean) ** 2 for k, count in enumerate(self.counts)) / self.pairs / 4

    def score_interval(self, z: float = Z95) -> Interval:
        """The 95% interval of the score per game, from the pairs."""
        half = z * math.sqrt(self.variance / self.pairs) if self.pairs else 0.5
        return (max(0.0, self.score - half), min(1.0, self.score + half))

    def game_interval(self, z: float = Z95) -> Interval:
        """The same interval from the games taken one by one (the trinomial: win, shared, loss), as
        if the games of a pair were independent: what an unpaired comparison gives."""
        games = self.wins + self.draws + self.losses
        if not games:
            return (0.0, 1.0)
        score = (self.wins + self.draws / 2) / games
        variance = (self.wins + self.draws / 4) / games - score * score
        half = z * math.sqrt(variance / games)
        return (max(0.0, score - half), min(1.0, score + half))

    def difference(self, z: float = Z95) -> tuple[float, Interval]:
        """One player's win rate minus the other's, with its 95% interval from the pairs: at a table
        of two, with shared wins split, it is 2 * score - 1."""
        low, high = self.score_interval(z)
        return 2 * self.score - 1, (2 * low - 1, 2 * high - 1)

    def mirrored(self) -> Pentanomial:
        """The other player's pentanomial."""
        counts = self.counts
        return Pentanomial((counts[4], counts[3], counts[2], counts[1], counts[0]), self.losses, self.draws, self.wins)


def _mean(counts: tuple[int, ...]) -> float:
    return sum(k / 2 * count for k, count in enumerate(counts)) / sum(counts)


def pentanomial(tally: Tally) -> Pentanomial:
    """A player's pentanomial at a table of two from its tally, with its games won, shared and lost
    (at a table of two, finishing ahead is winning outright, and level is sharing the win)."""
    counts = (*tally.pairs, 0, 0, 0, 0, 0)
    wins, shared = (tally.ahead[1], tally.tied[1]) if len(tally.ahead) == 2 else (0, 0)
    return Pentanomial(
        (counts[0], counts[1], counts[2], counts[3], counts[4]), wins, shared, tally.games - wins - shared
    )


@dataclasses.dataclass(frozen=True)
class Versus:
    """Two versions (the players of a gauntlet of two) against one opponent of the field at a table
    of two: each one's pairs against it, dealt the same deals."""

    opponent: str
    first: Pentanomial
    second: Pentanomial

    def difference(self, z: float = Z95) -> tuple[float, Interval]:
        """The first's score against the opponent minus the second's, with its 95% interval: each
        score's error from its own pairs, the two added as if independent. They share their dice,
        which moves them together, so the interval is conservative (wider than a joint one)."""
        return _difference([self], z)


def field_difference(versus: Sequence[Versus], z: float = Z95) -> tuple[float, Interval]:
    """The first version's score minus the second's, averaged over the field, with its 95% interval
    (each opponent counting alike)."""
    return _difference(versus, z)


def _difference(versus: Sequence[Versus], z: float) -> tuple[float, Interval]:
    count = len(versus)
    if not count:
        return 0.0, (0.0, 0.0)
    gap = sum(one.first.score - one.second.score for one in versus) / count
    spread = sum(_error(one.first) + _error(one.second) for one in versus) / count**2
    half = z * math.sqrt(spread)
    return gap, (gap - half, gap + half)


def _error(pairs: Pentanomial) -> float:
    """The squared standard error of a pentanomial's score."""
    return pairs.variance / pairs.pairs if pairs.pairs else 0.0
