"""Normalized Elo (nElo): a score's distance from 1/2 in units of its pairs' standard deviation,
scaled so that small differences read about as logistic Elo does for an even pair of players. It
is fishtest's unit for SPRT bounds and fastchess's default model: a test of nElo bounds needs about
the same number of pairs whatever the share of split pairs, where a logistic test of two close
strategies (whose pairs mostly split) needs far fewer than of two that rarely split. Formulas as
fastchess (`EloPentanomial`, `SPRT::getLLR_normalized`) and fishtest (`LLR_normalized`) compute them
from the pentanomial (docs/statistics.md)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from .closest import frequencies, of_t_value
from .pairs import Pentanomial
from .stats import Z95, Interval

NELO_PER_T = 800 / math.log(10)
"""nElo per unit of the t-value (mean - 1/2) / sigma per game: 347.43558552260146."""


def nelo(score: float, variance: float) -> float:
    """The nElo of a mean score per game whose pairs have this variance (a pair's score halved, as
    `Pentanomial.variance`): (score - 1/2) / sqrt(2 variance) * 800 / ln 10. With no variance, 0 at
    a score of 1/2 and an infinity on either side."""
    if variance <= 0:
        return 0.0 if score == 0.5 else math.copysign(math.inf, score - 0.5)
    return (score - 0.5) / math.sqrt(2 * variance) * NELO_PER_T + 0.0  # not -0.0


def nelo_estimate(pairs: Pentanomial, z: float = Z95) -> tuple[float, Interval]:
    """The nElo of a pentanomial's score and its 95% interval: the score's interval from the pairs
    mapped through the same variance (so it is symmetric, as fastchess's nElo +/- error)."""
    low, high = pairs.score_interval(z)
    return nelo(pairs.score, pairs.variance), (nelo(low, pairs.variance), nelo(high, pairs.variance))


def normalized_llr(counts: Sequence[float], nelo0: float, nelo1: float) -> float:
    """The generalized LLR of nElo `nelo1` against `nelo0` given a pentanomial's counts: N times the
    mean, over the observed outcomes, of log(p1 / p0), where p0 and p1 are the distributions closest
    to the observed one whose t-values per pair are sqrt(2) nelo / (800 / ln 10)."""
    total, observed, values = frequencies(counts)
    t0, t1 = (math.sqrt(2) * bound / NELO_PER_T for bound in (nelo0, nelo1))
    log0 = [math.log(p) for p in of_t_value(values, observed, 0.5, t0)]
    log1 = [math.log(p) for p in of_t_value(values, observed, 0.5, t1)]
    return total * sum(p * (b - a) for p, a, b in zip(observed, log0, log1, strict=True))
