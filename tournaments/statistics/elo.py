"""Elo from a score, with its error bars, and the sequential probability ratio test (SPRT) on game
pairs, as the chess engine testers spell them (fishtest, fastchess, cutechess-cli): logistic Elo,
the generalized SPRT's log-likelihood ratio (LLR) of the pentanomial, Wald's bounds
(docs/statistics.md says the model and where it comes from)."""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Sequence

from ..errors import ConfigError
from .closest import frequencies, of_mean
from .nelo import nelo_estimate, normalized_llr
from .pairs import Pentanomial
from .stats import Z95, Interval, phi

MODELS = ("logistic", "normalized")
"""The SPRT's models: bounds in logistic Elo (the default), or in normalized Elo (docs/statistics.md)."""


def elo(score: float) -> float:
    """The logistic Elo difference of a mean score per game: 400 log10(s / (1 - s)); a score of 0
    or 1 is minus or plus infinity."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1) + 0.0  # not -0.0


def score_of(difference: float) -> float:
    """The expected score per game of a player this many logistic Elo stronger."""
    return 1 / (1 + 10 ** (-difference / 400))


@dataclasses.dataclass(frozen=True)
class EloEstimate:
    """A strength difference in Elo with its 95% interval, and the likelihood of superiority: the
    chance, given the results, that the player is truly the stronger one."""

    elo: float
    interval: Interval
    superiority: float


def elo_estimate(pairs: Pentanomial, z: float = Z95) -> EloEstimate:
    """The Elo of a pentanomial's score, its 95% interval from the pairs, and its likelihood of
    superiority Phi((s - 1/2) / standard error)."""
    low, high = pairs.score_interval(z)
    error = math.sqrt(pairs.variance / pairs.pairs) if pairs.pairs else 0.0
    if error == 0:
        superiority = 0.5 if pairs.score == 0.5 else float(pairs.score > 0.5)
    else:
        superiority = phi((pairs.score - 0.5) / error)
    return EloEstimate(elo(pairs.score), (elo(low), elo(high)), superiority)


class Verdict(enum.Enum):
    """What an SPRT has decided so far."""

    H1 = "H1"
    H0 = "H0"
    UNDECIDED = "undecided"


BOUND_LIMIT = 2000.0
"""The farthest an SPRT bound may be from 0, in either model: a score of 1 / (1 + 10^-5) in logistic
Elo, a t-value of 8.1 per pair in nElo; past it the closest distributions are lost to rounding."""


@dataclasses.dataclass(frozen=True)
class Sprt:
    """H0: the new strategy is `elo0` Elo stronger; H1: `elo1` stronger; `alpha` the chance of
    accepting H1 when H0 holds, `beta` of accepting H0 when H1 holds. The `model` says the bounds'
    unit: logistic Elo, or normalized Elo (`nelo`)."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ConfigError("the SPRT's elo0 must be less than its elo1.")
        if not -BOUND_LIMIT <= self.elo0 < self.elo1 <= BOUND_LIMIT:
            raise ConfigError(f"the SPRT's elo0 and elo1 must be between -{BOUND_LIMIT:g} and {BOUND_LIMIT:g}.")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1 and self.alpha + self.beta < 1):
            raise ConfigError("the SPRT's alpha and beta must be between 0 and 1, and add up to less than 1.")
        if self.model not in MODELS:
            raise ConfigError(f"the SPRT's model is logistic or normalized, not {self.model!r}.")

    @property
    def normalized(self) -> bool:
        """Whether the bounds are in normalized Elo."""
        return self.model == "normalized"

    @property
    def bounds(self) -> Interval:
        """Wald's bounds on the LLR: accept H0 at or below the first, H1 at or above the second."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))

    def llr(self, pairs: Pentanomial) -> float:
        """The generalized log-likelihood ratio of H1 against H0 given these pairs."""
        if not pairs.pairs:
            return 0.0
        if self.normalized:
            return normalized_llr(pairs.counts, self.elo0, self.elo1)
        return llr(pairs.counts, score_of(self.elo0), score_of(self.elo1))

    def verdict(self, llr: float) -> Verdict:
        low, high = self.bounds
        if llr >= high:
            return Verdict.H1
        if llr <= low:
            return Verdict.H0
        return Verdict.UNDECIDED


Look = tuple[int, float]
"""Where a sequential test looked: the games played then, and the LLR after them."""


@dataclasses.dataclass(frozen=True)
class Match:
    """A match of two strategies at a table of two, from the first's side: its pairs, its Elo with
    error bars, and its SPRT (if it ran one): settings, LLR and verdict after its games, and its
    `path`, the LLR at each look in order (the last is `llr`); and its `exact` score, if known."""

    pairs: Pentanomial
    estimate: EloEstimate
    sprt: Sprt | None = None
    llr: float = 0.0
    verdict: Verdict = Verdict.UNDECIDED
    path: tuple[Look, ...] = ()
    exact: float | None = None
    """The first's exact score per game (a shared win half, both seats alike), where both strategies
    can be computed exactly and quickly (`duel.quick_score`); None where not."""

    @property
    def nelo(self) -> tuple[float, Interval]:
        """The normalized Elo of the pairs and its 95% interval (`nelo_estimate`): made when asked, not
        at each of the SPRT's looks."""
        return nelo_estimate(self.pairs)

    @property
    def exact_elo(self) -> float | None:
        """The logistic Elo of the exact score, if known."""
        return None if self.exact is None else elo(self.exact)


def match_of(pairs: Pentanomial, sprt: Sprt | None) -> Match:
    """The match these pairs make, its SPRT asked if it runs one."""
    if sprt is None:
        return Match(pairs, elo_estimate(pairs))
    llr = sprt.llr(pairs)
    return Match(pairs, elo_estimate(pairs), sprt, llr, sprt.verdict(llr))


def parse_sprt(text: str) -> Sprt:
    """An SPRT from `elo0=0 elo1=5 alpha=0.05 beta=0.05`, maybe with `model=normalized` (spaces or
    commas between; a setting not given keeps its default). A ConfigError of one sentence if it is
    not that."""
    values: dict[str, float] = {}
    model = "logistic"
    for word in text.replace(",", " ").split():
        key, equals, value = word.partition("=")
        if equals and key == "model":
            model = value
            continue
        if not equals or key not in ("elo0", "elo1", "alpha", "beta"):
            raise ConfigError(f"the SPRT takes model=, elo0=, elo1=, alpha= and beta=, not {word!r}.")
        try:
            values[key] = float(value)
        except ValueError:
            raise ConfigError(f"the SPRT's {key} is a number, not {value!r}.") from None
        if not math.isfinite(values[key]):
            raise ConfigError(f"the SPRT's {key} is a finite number, not {value!r}.")
    return Sprt(**values, model=model)


def llr(counts: Sequence[float], s0: float, s1: float) -> float:
    """The generalized LLR of a mean pair score (on [0, 1]) of `s1` against `s0`: N times the mean,
    over the observed outcomes, of log(p1 / p0), where p0 and p1 are the distributions closest to
    the observed one (maximum likelihood) whose means are s0 and s1."""
    total, observed, values = frequencies(counts)
    log0 = [math.log(p) for p in of_mean(values, observed, s0)]
    log1 = [math.log(p) for p in of_mean(values, observed, s1)]
    return total * sum(p * (b - a) for p, a, b in zip(observed, log0, log1, strict=True))
