"""Ratings for a field: a Bradley-Terry model fitted to who finished ahead of whom, on the Elo
scale, with 95% intervals and the likelihood of superiority between neighbours in the ranking.

Each game gives one comparison per pair of players at the table (at a table of two, the game
itself; at a table of three or more, every pair's finish, `tally.finished_ahead`), a level finish
counting half to each. Strategy i beats j with chance 1 / (1 + 10^((r_j - r_i) / 400)); the ratings
are the maximum-likelihood ones, their mean 0, with one level finish added between every two
strategies that met so that one that always won still has a finite rating. The intervals come from
the curvature of the likelihood (the comparisons taken as independent: at a table of three or more
the comparisons of one game are not, and the intervals are then too narrow)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np

from .stats import Z95, Interval, phi

ELO = 400 / math.log(10)
"""Elo points per unit of the natural-log strength."""


@dataclasses.dataclass(frozen=True)
class Rating:
    """A strategy's rating (Elo, the field's mean 0) with its 95% interval, and `superiority`, the
    likelihood that it is truly stronger than the next in the order rated (None for the last)."""

    rating: float
    interval: Interval
    superiority: float | None


def bradley_terry(
    scores: Sequence[Sequence[float]], games: Sequence[Sequence[float]], order: Sequence[int], z: float = Z95
) -> list[Rating]:
    """Ratings of a field, listed in `order`: `scores[i][j]` is what i scored against j (a finish
    ahead 1, level 1/2) over `games[i][j]` comparisons. A strategy that met no other rates 0."""
    count = len(scores)
    won = np.array(scores, dtype=float) + 0.5 * (np.array(games, dtype=float) > 0)
    met = np.array(games, dtype=float) + 1.0 * (np.array(games, dtype=float) > 0)
    strength = np.zeros(count)
    totals, played = won.sum(axis=1), met.sum(axis=1) > 0
    for _ in range(10_000):  # minorize-maximize (Hunter 2004), each step a better fit
        gamma = np.exp(strength)
        denominator = (met / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        updated = np.where(played, np.log(np.where(played, totals, 1) / np.where(played, denominator, 1)), 0.0)
        updated -= updated[played].mean() if played.any() else 0.0
        change = float(np.abs(updated - strength).max()) if count else 0.0
        strength = updated
        if change < 1e-10:
            break
    chance = 1 / (1 + np.exp(strength[None, :] - strength[:, None]))  # [i, j]: i ahead of j
    information = met * chance * chance.T
    hessian = np.diag(information.sum(axis=1)) - information
    covariance = np.linalg.pinv(hessian) if count else hessian  # the mean held at 0
    ratings = []
    for position, index in enumerate(order):
        error = math.sqrt(max(float(covariance[index, index]), 0.0))
        superiority = None
        if position + 1 < len(order):
            other = order[position + 1]
            spread = covariance[index, index] + covariance[other, other] - 2 * covariance[index, other]
            gap = float(strength[index] - strength[other])
            superiority = phi(gap / math.sqrt(spread)) if spread > 0 else 0.5
        rating = ELO * float(strength[index])
        ratings.append(Rating(rating, (rating - z * ELO * error, rating + z * ELO * error), superiority))
    return ratings
