"""The SPRT at bounds far from 0: the normalized model's closest distributions where the fixed point
from the uniform distribution has phi of one sign (a t-value past about 0.94 per pair), and bounds
past `BOUND_LIMIT` refused in one sentence rather than a traceback, an infinity or a NaN."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import ConfigError
from tournaments.statistics.closest import frequencies, of_t_value
from tournaments.statistics.elo import BOUND_LIMIT, Sprt, parse_sprt
from tournaments.statistics.pairs import Pentanomial

from helpers.command import shutbox

MATCH = ("match", "optimal", "random", "-n", "20000", "--seed", "1", "--sprt")


def t_value(values: list[float], found: list[float]) -> float:
    """The t-value (mean - 1/2) / sigma of a distribution on `values`."""
    mu = sum(p * a for p, a in zip(found, values, strict=True))
    return (mu - 0.5) / math.sqrt(sum(p * (a - mu) ** 2 for p, a in zip(found, values, strict=True)))


@pytest.mark.parametrize("counts", [(2, 0, 62, 6, 58), (1, 1, 1, 1, 1), (0, 1, 1, 8757106, 0)])
@pytest.mark.parametrize("t", [-8.0, -1.2211, 1.02, 1.22, 8.0])
def test_the_closest_distribution_has_the_t_value_asked_for_where_phi_starts_one_signed(
    counts: tuple[int, ...], t: float
) -> None:
    _, observed, values = frequencies(counts)
    found = of_t_value(values, observed, 0.5, t)
    assert all(p > 0 for p in found) and sum(found) == pytest.approx(1, abs=1e-6)
    assert t_value(values, found) == pytest.approx(t, abs=1e-5)


@pytest.mark.slow
@pytest.mark.parametrize("bounds", ["elo0=250 elo1=300", "elo0=0 elo1=300"])
def test_a_match_with_realistic_normalized_bounds_decides(bounds: str) -> None:
    done = shutbox(*MATCH, f"model=normalized {bounds}")
    assert done.returncode in (0, 3), done.stderr  # decided: H1 or H0, no traceback
    assert "accepted (LLR" in done.stdout and "nan" not in done.stdout.lower()


@pytest.mark.slow
def test_far_negative_normalized_bounds_give_json_without_nan() -> None:
    done = shutbox(*MATCH, "model=normalized elo0=-2000 elo1=-1000", "--format", "json")
    assert done.returncode in (0, 3, 4), done.stderr

    def refuse(word: str) -> float:
        raise AssertionError(f"{word} in the JSON")

    llr = json.loads(done.stdout, parse_constant=refuse)["match"]["sprt"]["llr"]
    assert math.isfinite(llr)


@pytest.mark.slow
def test_a_knockout_with_realistic_normalized_bounds_decides() -> None:
    done = shutbox(
        "tournament", "--system", "knockout", "-s", "optimal", "-s", "random", "-n", "20000", "--seed", "1",
        "--sprt", "model=normalized elo0=0 elo1=300",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Winner: optimal." in done.stdout


@pytest.mark.parametrize("settings_", ["elo0=0 elo1=1e308", "model=normalized elo0=0 elo1=1e308", "elo0=-2001"])
def test_bounds_past_the_limit_are_refused_in_one_sentence(settings_: str) -> None:
    with pytest.raises(ConfigError, match=r"^the SPRT's elo0 and elo1 must be between -2000 and 2000\.$"):
        parse_sprt(settings_)
    done = shutbox(*MATCH, settings_)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().endswith("must be between -2000 and 2000.")


@settings(max_examples=60, deadline=None)
@given(
    counts=st.lists(st.integers(0, 10**7), min_size=5, max_size=5).filter(any),
    bounds=st.lists(st.floats(-BOUND_LIMIT, BOUND_LIMIT), min_size=2, max_size=2, unique=True).map(sorted),
    model=st.sampled_from(["logistic", "normalized"]),
)
@pytest.mark.slow
def test_the_llr_is_finite_for_any_pairs_and_bounds_within_the_limit(
    counts: list[int], bounds: list[float], model: str
) -> None:
    pairs = Pentanomial((counts[0], counts[1], counts[2], counts[3], counts[4]))
    assert math.isfinite(Sprt(bounds[0], bounds[1], model=model).llr(pairs))
