"""Confidence intervals of simulated results, against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from tournaments.statistics.stats import Z95, mean_interval, wilson

from helpers.paths import ROOT

Z999 = 3.2905267314919255


def test_wilson_interval_matches_known_values() -> None:
    assert wilson(0, 10) == pytest.approx((0.0, 0.27753), abs=1e-5)
    assert wilson(5, 10) == pytest.approx((0.23659, 0.76341), abs=1e-5)
    assert wilson(50, 100) == pytest.approx((0.40383, 0.59617), abs=1e-5)


def test_wilson_interval_stays_within_0_and_1_and_widens_with_confidence() -> None:
    assert wilson(10, 10) == pytest.approx((0.72247, 1.0), abs=1e-5)
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(5, 10, Z999)
    assert low < 0.23659 and high > 0.76341


def test_wilson_interval_takes_a_fractional_count_of_successes() -> None:
    # 2.5 wins in 5 games (shared wins) is the same rate as 5 in 10, over fewer trials: wider.
    low, high = wilson(2.5, 5)
    assert (low + high) / 2 == pytest.approx(0.5) and high - low > 0.76341 - 0.23659


def test_mean_interval_is_the_normal_interval_of_the_sample_mean() -> None:
    values = [1, 2, 3, 4, 5]  # mean 3, sample variance 2.5
    low, high = mean_interval(sum(values), sum(v * v for v in values), len(values))
    half = Z95 * math.sqrt(2.5 / 5)
    assert (low, high) == pytest.approx((3 - half, 3 + half), abs=1e-12)


def test_mean_interval_of_one_value_is_that_value() -> None:
    assert mean_interval(7, 49, 1) == (7.0, 7.0)


def test_mean_interval_works_from_exact_sums_so_large_values_lose_nothing() -> None:
    values = [10**12 + 1, 10**12 + 2, 10**12 + 3]  # sample variance exactly 1
    low, high = mean_interval(sum(values), sum(v * v for v in values), len(values))
    half = Z95 * math.sqrt(1 / 3)
    assert (high - low) / 2 == pytest.approx(half, rel=1e-3)


def test_fewer_independent_samples_widen_the_intervals_by_the_square_root() -> None:
    low, high = mean_interval(300, 1500, 100)
    low4, high4 = mean_interval(300, 1500, 100, independent=25)
    assert (high4 - low4) == pytest.approx(2 * (high - low))
    assert wilson(50, 100, independent=100) == wilson(50, 100)
    narrow, wide = wilson(50, 100), wilson(50, 100, independent=25)
    assert wide[0] < narrow[0] and wide[1] > narrow[1]


def test_a_mean_interval_never_goes_below_the_floor() -> None:
    values = [0] * 99 + [10_000]  # heavy tail: the normal interval would reach below 0
    total, squares = sum(values), sum(value * value for value in values)
    assert mean_interval(total, squares, len(values))[0] < 0
    low, high = mean_interval(total, squares, len(values), floor=0)
    assert low == 0 and high == mean_interval(total, squares, len(values))[1]


def test_the_statistics_page_gives_the_quantile_the_intervals_use() -> None:
    page = (ROOT / "docs" / "statistics.md").read_text(encoding="utf-8")
    assert f"z = {Z95:.6f}" in page and "1.96 ×" not in page
