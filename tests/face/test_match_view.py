"""How a match's SPRT verdict reads: which hypothesis the data favour, with the LLR against the
bound it crossed and the bounds [elo0, elo1], never a claim that the difference is at least elo1."""

from __future__ import annotations

import pytest

from shutbox_cli.face.match_view import verdict
from tournaments import Sprt
from tournaments.statistics.elo import match_of
from tournaments.statistics.pairs import Pentanomial

STRONGER = Pentanomial((225, 59, 7516, 66, 326))
"""optimal's pairs against fewest-tiles (seed 10): Elo +4.4, its interval well below +5 at the top."""


def test_h1_says_the_data_favour_the_stronger_side_not_that_it_is_elo1_better() -> None:
    match = match_of(STRONGER, Sprt(0, 5))
    said = verdict(match, "optimal")
    assert said == f"H1 accepted (LLR {match.llr:.2f} >= 2.94, elo0=0 elo1=5): the data favour optimal being stronger"
    assert "or better" not in said


def test_h0_with_a_positive_elo1_says_the_data_favour_elo0_over_elo1() -> None:
    match = match_of(Pentanomial((0, 0, 5000, 0, 0)), Sprt(0, 5))
    assert verdict(match, "new") == (
        f"H0 accepted (LLR {match.llr:.2f} <= -2.94, elo0=0 elo1=5): the data favour new at elo0 (+0 Elo) "
        "over elo1 (+5 Elo)"
    )


@pytest.mark.parametrize(
    ("sprt", "pairs", "favoured"),
    [
        (Sprt(-5, 0), STRONGER, "new at elo1 (+0 Elo) over elo0 (-5 Elo)"),
        (Sprt(-5, 0), STRONGER.mirrored(), "new being weaker"),
    ],
)
def test_a_test_below_zero_says_its_bounds(sprt: Sprt, pairs: Pentanomial, favoured: str) -> None:
    match = match_of(pairs, sprt)
    assert verdict(match, "new").endswith(f": the data favour {favoured}")


def test_undecided_says_where_the_llr_stood() -> None:
    match = match_of(Pentanomial((1, 0, 10, 0, 2)), Sprt(0, 5))
    assert verdict(match, "new") == (
        f"undecided (LLR {match.llr:.2f} between -2.94 and 2.94, elo0=0 elo1=5): the games ran out before the "
        "test decided"
    )
