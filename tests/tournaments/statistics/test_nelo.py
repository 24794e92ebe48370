"""Normalized Elo and the SPRT's normalized model against the engine testers' published figures:
fastchess's tests (`app/tests/elo_test.cpp`, `app/tests/sprt_test.cpp`, each figure to 1%) and
fishtest's worked example (`stat_util.py`: bounds of nElo 0.764 to 3.439 are its logistic 0.2 to
0.9 for that pentanomial, so both models give the same LLR). fastchess counts a pentanomial as
LL, LD, WL, DD, WD, WW; shutbox's pairs scoring 1 are WL and DD together."""

from __future__ import annotations

import math

import pytest

from tournaments.statistics.elo import Sprt, elo_estimate, parse_sprt
from tournaments.statistics.nelo import NELO_PER_T, nelo, nelo_estimate, normalized_llr
from tournaments.statistics.pairs import Pentanomial


def fastchess(ll: int, ld: int, wl: int, dd: int, wd: int, ww: int) -> Pentanomial:
    """fastchess's `Stats(ll, ld, wl, dd, wd, ww)` as shutbox's pairs."""
    return Pentanomial((ll, ld, wl + dd, wd, ww))


@pytest.mark.parametrize(
    ("stats", "nelo_", "nelo_error", "elo_", "elo_error"),
    [
        ((34, 54, 31, 32, 64, 75), 57.94, 28.28, 55.58, 27.65),
        ((332, 433, 457, 41, 333, 334), -9.17, 10.96, -8.64, 10.33),
        ((7895, 8757, 5485, 200, 568, 9999), -19.01, 2.65, -21.04, 2.95),
    ],
)
def test_nelo_and_elo_with_their_errors_as_fastchess_gives_them(
    stats: tuple[int, int, int, int, int, int], nelo_: float, nelo_error: float, elo_: float, elo_error: float
) -> None:
    pairs = fastchess(*stats)
    estimate = elo_estimate(pairs)
    normalized, (low, high) = nelo_estimate(pairs)
    assert normalized == pytest.approx(nelo_, rel=0.01)
    assert (high - low) / 2 == pytest.approx(nelo_error, rel=0.01)
    assert estimate.elo == pytest.approx(elo_, rel=0.01)
    assert (estimate.interval[1] - estimate.interval[0]) / 2 == pytest.approx(elo_error, rel=0.01)


@pytest.mark.parametrize(
    ("stats", "bounds", "model", "expected"),
    [
        ((365, 16618, 36029, 200, 16974, 390), (0, 2), "normalized", 2.25),
        ((127, 4883, 10311, 401, 5150, 104), (-1.75, 0.25), "normalized", 3.01),
        ((223, 9863, 20279, 1000, 10037, 246), (0.5, 2.5), "logistic", -3.07),
        ((871, 26175, 55003, 980, 26678, 821), (0, 2), "logistic", -4.98),
    ],
)
def test_the_llr_of_either_model_as_fastchess_gives_it(
    stats: tuple[int, int, int, int, int, int], bounds: tuple[float, float], model: str, expected: float
) -> None:
    sprt = Sprt(*bounds, model=model)
    assert sprt.llr(fastchess(*stats)) == pytest.approx(expected, rel=0.01)


def test_fishtests_equivalent_bounds_give_the_same_llr() -> None:
    # fishtest's stat_util.py works one pentanomial under logistic bounds 0.2 to 0.9 and under
    # normalized bounds 0.764 to 3.439, the same bounds for that pentanomial's variance.
    pairs = Pentanomial((39, 2226, 31451, 2412, 40))
    sigma = math.sqrt(2 * pairs.variance)
    for logistic, normalized in ((0.2, 0.764), (0.9, 3.439)):  # the conversion fishtest's tests use
        assert 400 * math.log10(1 / (normalized / NELO_PER_T * sigma + 0.5) - 1) == pytest.approx(-logistic, rel=0.01)
    logistic_llr = Sprt(0.2, 0.9).llr(pairs)
    assert Sprt(0.764, 3.439, model="normalized").llr(pairs) == pytest.approx(logistic_llr, rel=0.01)


def test_the_normalized_llr_agrees_with_its_approximation() -> None:
    # fishtest's LLR_normalized_alt (Van den Bergh, section 4.2): (games / 2) log((1 + (t - t0)^2) /
    # (1 + (t - t1)^2)), t the observed t-value per game; close for small differences.
    counts = (900, 4100, 10200, 4300, 1000)
    pairs = Pentanomial(counts)
    t = (pairs.score - 0.5) / math.sqrt(2 * pairs.variance)
    t0, t1 = 0 / NELO_PER_T, 5 / NELO_PER_T
    approximate = pairs.games / 2 * math.log((1 + (t - t0) ** 2) / (1 + (t - t1) ** 2))
    assert normalized_llr(counts, 0, 5) == pytest.approx(approximate, rel=0.02)


def test_nelo_of_pairs_that_never_vary() -> None:
    assert nelo(0.5, 0.0) == 0.0
    assert nelo(0.75, 0.0) == math.inf and nelo(0.25, 0.0) == -math.inf


def test_the_model_is_a_setting_of_the_sprt() -> None:
    assert parse_sprt("model=normalized elo0=0 elo1=2") == Sprt(0, 2, model="normalized")
    assert parse_sprt("elo1=2").model == "logistic"
    with pytest.raises(ValueError, match=r"the SPRT's model is logistic or normalized, not 'bayes'\."):
        parse_sprt("model=bayes")
