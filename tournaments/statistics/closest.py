"""The distributions of a pair's outcome closest to the observed one (maximum likelihood) under a
constraint, which the generalized SPRT compares: of a given mean (the logistic model), or of a
given t-value (mean - 1/2) / sigma (the normalized model). Both come from Van den Bergh's notes
behind fishtest (`MLE_expected` and `MLE_t_value` in its `LLRcalc.py`; docs/statistics.md)."""

from __future__ import annotations

import math
from collections.abc import Sequence

REGULAR = 1e-3
"""A pair outcome never seen counts this much, so the likelihood is defined (as fishtest does)."""
ROOT_STEPS = 200
"""The most steps the root of the closest distribution takes (Newton's method converges in a few)."""
ROOT_TOLERANCE = 1e-12
"""The root is found once a step moves it by less than this fraction of itself."""
T_STEPS = 100
"""The most rounds of the t-value's fixed point (a few dozen reach its tolerance)."""
T_TOLERANCE = 1e-12
"""The t-value's distribution is found once no probability moves by more than this in a round."""


def frequencies(counts: Sequence[float]) -> tuple[float, list[float], list[float]]:
    """The counts' total, their observed frequencies (an outcome never seen counting `REGULAR`), and
    the outcomes' values on [0, 1] (a pair's score halved: 0, 1/4, 1/2, 3/4, 1)."""
    regular = [count if count else REGULAR for count in counts]
    total = sum(regular)
    return total, [count / total for count in regular], [k / (len(counts) - 1) for k in range(len(counts))]


def secular(observed: list[float], shifted: list[float]) -> list[float]:
    """The distribution p_i = q_i / (1 + x a_i) that is likeliest given the observed q_i among those
    with sum p_i a_i = 0 (`shifted` the a_i, some below 0 and some above): x the root of
    sum q_i a_i / (1 + x a_i) = 0, found by Newton's method kept inside a bracket that bisection
    narrows (the sum falls as x grows)."""
    low, high = -1 / max(shifted), -1 / min(shifted)
    x = 0.0
    for _ in range(ROOT_STEPS):
        slope = sum(q * a / (1 + x * a) for q, a in zip(observed, shifted, strict=True))
        if slope > 0:
            low = x
        else:
            high = x
        falling = sum(q * a * a / (1 + x * a) ** 2 for q, a in zip(observed, shifted, strict=True))
        step = x + slope / falling if falling else (low + high) / 2
        if not low < step < high:
            step = (low + high) / 2
        if abs(step - x) <= ROOT_TOLERANCE * abs(x):  # converged: what is left is rounding
            x = step
            break
        x = step
    return [q / (1 + x * a) for q, a in zip(observed, shifted, strict=True)]


def of_mean(values: list[float], observed: list[float], mean: float) -> list[float]:
    """The distribution on `values` of this mean that is likeliest given the observed one."""
    return secular(observed, [value - mean for value in values])


def of_t_value(values: list[float], observed: list[float], reference: float, t: float) -> list[float]:
    """The distribution on `values` whose t-value (mean - reference) / sigma is `t` that is likeliest
    given the observed one: the fixed point of p = secular(q, phi(p)), where
    phi_i = a_i - reference - t sigma (1 + ((a_i - mu) / sigma)^2) / 2 and mu, sigma are p's, started
    from the uniform distribution (Van den Bergh, "Comments on normalized Elo", section 4.1)."""
    found = [1 / len(values)] * len(values)
    for _ in range(T_STEPS):
        mu = sum(p * a for p, a in zip(found, values, strict=True))
        sigma = math.sqrt(sum(p * (a - mu) ** 2 for p, a in zip(found, values, strict=True)))
        phi = [a - reference - t * sigma * (1 + ((a - mu) / sigma) ** 2) / 2 for a in values]
        last, found = found, secular(observed, phi)
        if max(abs(a - b) for a, b in zip(last, found, strict=True)) < T_TOLERANCE:
            break
    return found
