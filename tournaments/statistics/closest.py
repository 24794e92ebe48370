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
POLE_TOLERANCE = 1e-9
"""... and by less than this fraction of its distance from the nearest pole x = -1 / a_i."""
T_STEPS = 100
"""The most rounds of the t-value's fixed point (a few dozen reach its tolerance)."""
T_TOLERANCE = 1e-12
"""The t-value's distribution is found once no probability moves by more than this in a round."""
MEAN_GRID = 256
"""The means a t-value's closest distribution is looked for among, where the fixed point fails."""
BISECTIONS = 60
"""The halvings that narrow a mean where the closest distribution's residual changes sign."""


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
    narrows (the sum falls as x grows). Near a pole the root is also found to a fraction
    `POLE_TOLERANCE` of its distance from the pole, on which the p_i there depend."""
    low, high = -1 / max(shifted), -1 / min(shifted)
    poles = (low, high)
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
        moved = abs(step - x)
        if moved <= ROOT_TOLERANCE * abs(x) and moved <= POLE_TOLERANCE * min(x - poles[0], poles[1] - x):
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
    from the uniform distribution (Van den Bergh, "Comments on normalized Elo", section 4.1). Where a
    round's phi has one sign (a t-value far from the uniform's or the observed one's, which fishtest's
    `MLE_t_value` refuses), the likeliest of the mean's stationary points (`by_mean`)."""
    found = [1 / len(values)] * len(values)
    for _ in range(T_STEPS):
        mu = sum(p * a for p, a in zip(found, values, strict=True))
        sigma = math.sqrt(sum(p * (a - mu) ** 2 for p, a in zip(found, values, strict=True)))
        phi = [a - reference - t * sigma * (1 + ((a - mu) / sigma) ** 2) / 2 for a in values]
        if min(phi) >= 0 or max(phi) <= 0:
            return by_mean(values, observed, reference, t)
        last, found = found, secular(observed, phi)
        if max(abs(a - b) for a, b in zip(last, found, strict=True)) < T_TOLERANCE:
            break
    return found


def at_mean(values: list[float], observed: list[float], reference: float, t: float, mu: float) -> list[float] | None:
    """The distribution p_i = q_i / (1 + x phi_i) of the t-value `t` whose phi is taken at mean `mu`
    (so sigma = (mu - reference) / t), or None where that phi has one sign (no such distribution)."""
    sigma = (mu - reference) / t
    phi = [a - reference - t * sigma * (1 + ((a - mu) / sigma) ** 2) / 2 for a in values]
    if min(phi) >= 0 or max(phi) <= 0:
        return None
    return secular(observed, phi)


def by_mean(values: list[float], observed: list[float], reference: float, t: float) -> list[float]:
    """The closest distribution of t-value `t` (not 0) found through its mean: the means mu on the side
    of `reference` that `t` points to where `at_mean`'s distribution has mean mu are its stationary
    points; a grid of `MEAN_GRID` means brackets them, bisection narrows each, the likeliest wins."""
    low, high = (reference, values[-1]) if t > 0 else (values[0], reference)
    means = [low + (high - low) * k / MEAN_GRID for k in range(1, MEAN_GRID)]
    residuals = [_residual(values, observed, reference, t, mu) for mu in means]
    found: list[list[float]] = []
    for k in range(len(means) - 1):
        left, right = residuals[k], residuals[k + 1]
        if left is not None and right is not None and (left > 0) != (right > 0):
            root = _bisect(values, observed, reference, t, means[k], means[k + 1], left > 0)
            candidate = at_mean(values, observed, reference, t, root)
            if candidate is not None:
                found.append(candidate)
    if not found:
        raise ArithmeticError(f"no distribution of t-value {t} is close to the observed one.")
    return max(found, key=lambda p: sum(q * math.log(x) for q, x in zip(observed, p, strict=True)))


def _residual(values: list[float], observed: list[float], reference: float, t: float, mu: float) -> float | None:
    """How far the mean of `at_mean`'s distribution is above `mu` (None where there is none)."""
    found = at_mean(values, observed, reference, t, mu)
    return None if found is None else sum(p * a for p, a in zip(found, values, strict=True)) - mu


def _bisect(
    values: list[float], observed: list[float], reference: float, t: float, low: float, high: float, above: bool
) -> float:
    """The mean between `low` and `high` where the residual changes sign (`above`: positive at `low`)."""
    for _ in range(BISECTIONS):
        middle = (low + high) / 2
        residual = _residual(values, observed, reference, t, middle)
        if residual is None:
            break
        if (residual > 0) == above:
            low = middle
        else:
            high = middle
    return (low + high) / 2
