"""The statistics of game pairs, Elo, the SPRT and ratings, against hand-worked answers."""

from __future__ import annotations

import math

import pytest

from tournaments.statistics.elo import Sprt, Verdict, elo, elo_estimate, llr, score_of
from tournaments.statistics.pairs import Pentanomial
from tournaments.statistics.ratings import bradley_terry
from tournaments.statistics.stats import Z95


def test_a_pentanomial_by_hand() -> None:
    # Pair scores 0, 1/2, 1, 3/2, 2 seen 1, 2, 4, 2, 1 times: mean 1 (1/2 a game); the pair score's
    # variance (1 * 1 + 2 * 0.25 + 4 * 0 + 2 * 0.25 + 1 * 1) / 10 = 0.3, which is 0.075 on the
    # scale of one game (a pair's mean: divided by 4).
    pairs = Pentanomial((1, 2, 4, 2, 1), wins=8, draws=4, losses=8)
    assert pairs.pairs == 10 and pairs.games == 20
    assert pairs.score == 0.5
    assert pairs.variance == pytest.approx(0.075)
    low, high = pairs.score_interval()
    assert (low, high) == pytest.approx((0.5 - Z95 * math.sqrt(0.0075), 0.5 + Z95 * math.sqrt(0.0075)))
    # The games one by one: 8 wins, 4 shared, 8 losses: variance (8 + 1) / 20 - 1/4 = 0.2.
    assert pairs.game_interval() == pytest.approx((0.5 - Z95 * math.sqrt(0.01), 0.5 + Z95 * math.sqrt(0.01)))
    difference, (dlow, dhigh) = pairs.difference()
    assert difference == 0 and (dlow, dhigh) == pytest.approx((2 * low - 1, 2 * high - 1))
    assert pairs.mirrored().counts == (1, 2, 4, 2, 1)


def test_pairs_that_always_split_are_certain() -> None:
    # Every pair one win each: the seats decide, the strategies are equal, and the pairs say so
    # exactly where the games one by one leave the widest interval there is.
    pairs = Pentanomial((0, 0, 50, 0, 0), wins=50, draws=0, losses=50)
    assert pairs.score_interval() == (0.5, 0.5)
    low, high = pairs.game_interval()
    assert high - low == pytest.approx(2 * Z95 * 0.5 / 10)


def test_elo_conversions() -> None:
    assert elo(0.5) == 0
    assert elo(0.75) == pytest.approx(400 * math.log10(3))
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf
    for difference in (-300.0, -5.0, 0.0, 12.5, 400.0):
        assert elo(score_of(difference)) == pytest.approx(difference)
    estimate = elo_estimate(Pentanomial((10, 20, 40, 25, 12)))
    assert estimate.interval[0] < estimate.elo < estimate.interval[1]
    assert 0.5 < estimate.superiority < 1


def test_sprt_bounds_and_verdicts() -> None:
    sprt = Sprt(0, 5, 0.05, 0.05)
    assert sprt.bounds == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    assert sprt.verdict(3.0) is Verdict.H1
    assert sprt.verdict(-3.0) is Verdict.H0
    assert sprt.verdict(0.0) is Verdict.UNDECIDED
    with pytest.raises(ValueError, match="elo0 must be less"):
        Sprt(5, 0)
    with pytest.raises(ValueError, match="alpha and beta"):
        Sprt(0, 5, 0.6, 0.5)


def test_the_llr_agrees_with_its_normal_approximation() -> None:
    # Van den Bergh's approximation: N (s1 - s0) (2 s - s0 - s1) / (2 var), close for small
    # differences and many pairs.
    counts = (300, 1200, 2500, 1300, 320)
    pairs = Pentanomial(counts)
    s0, s1 = score_of(0), score_of(5)
    approximate = pairs.pairs * (s1 - s0) * (2 * pairs.score - s0 - s1) / (2 * pairs.variance)
    assert llr(counts, s0, s1) == pytest.approx(approximate, rel=0.02)
    # Its sign: a score between s0 and s1 nearer s1 is for H1.
    assert Sprt(0, 5).llr(pairs) == pytest.approx(approximate, rel=0.02)


def test_ratings_of_two_agree_with_elo() -> None:
    # One level finish is added between the two: 60 + 1/2 of 101.
    first, second = bradley_terry([[0, 60], [40, 0]], [[0, 100], [100, 0]], [0, 1])
    assert first.rating - second.rating == pytest.approx(elo(60.5 / 101))
    assert first.rating == pytest.approx(-second.rating)
    assert first.interval[0] < first.rating < first.interval[1]
    assert first.superiority is not None and first.superiority > 0.95
    assert second.superiority is None


def test_ratings_of_a_field_are_ordered_and_a_winner_finite() -> None:
    scores = [[0, 100, 70], [0, 0, 55], [30, 45, 0]]
    games = [[0, 100, 100], [100, 0, 100], [100, 100, 0]]
    ratings = bradley_terry(scores, games, [0, 1, 2])
    assert ratings[0].rating > ratings[2].rating > ratings[1].rating  # 2 scored 75 in all, 1 only 55
    assert all(math.isfinite(rating.rating) for rating in ratings)
    assert sum(rating.rating for rating in ratings) == pytest.approx(0, abs=1e-6)
