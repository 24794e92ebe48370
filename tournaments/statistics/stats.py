"""Confidence intervals for simulated results: the share of turns or games with some outcome,
and the mean of a score, both at 95% unless told otherwise. Pure math, shared by strategy
analysis and tournaments so the two report the same figures the same way."""

from __future__ import annotations

import math
from fractions import Fraction

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""

Interval = tuple[float, float]
"""An interval (low, high)."""


def phi(x: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * math.erfc(-x / math.sqrt(2))


def wilson(successes: float, trials: int, z: float = Z95, independent: float | None = None) -> Interval:
    """The Wilson score interval of a proportion: sound near 0 and 1, unlike the normal one.
    `successes` may be fractional (a shared win counts in part); no trials gives (0, 1).
    `independent` is how many of the trials count as independent (all, unless told less)."""
    if trials == 0:
        return (0.0, 1.0)
    rate = successes / trials
    size = trials if independent is None else independent
    spread = z * z / size
    centre = (rate + spread / 2) / (1 + spread)
    half = z * math.sqrt(rate * (1 - rate) / size + spread / (4 * size)) / (1 + spread)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(
    total: int, squares: int, count: int, z: float = Z95, independent: float | None = None, floor: float = -math.inf
) -> Interval:
    """The normal-approximation interval of a mean, from the exact sum of the values and of their
    squares (the sample variance is computed exactly, rounded once); one value gives (mean, mean).
    `independent` is how many of the values count as independent (all, unless told less); no
    value is below `floor`, so neither is the interval (scores: 0)."""
    mean = total / count
    if count < 2:
        return (mean, mean)
    variance = Fraction(count * squares - total * total, count * (count - 1))
    half = z * math.sqrt(variance / (count if independent is None else independent))
    return (max(floor, mean - half), mean + half)
