"""The SPRT's settings as a library caller gives them: a mistake is a ConfigError of one sentence
(what every other setting raises, and what the face says with exit status 2), not a bare ValueError."""

from __future__ import annotations

import pytest

from tournaments import ConfigError
from tournaments.statistics.elo import Sprt, parse_sprt


@pytest.mark.parametrize(
    ("settings", "said"),
    [
        ("elo0=5 elo1=0", r"the SPRT's elo0 must be less than its elo1\."),
        ("alpha=0.6 beta=0.5", "the SPRT's alpha and beta must be between 0 and 1"),
        ("elo2=1", "not 'elo2=1'"),
        ("alpha=x", "the SPRT's alpha is a number, not 'x'."),
        ("elo1=inf", "the SPRT's elo1 is a finite number"),
    ],
)
def test_a_bad_sprt_is_a_config_error_of_one_sentence(settings: str, said: str) -> None:
    with pytest.raises(ConfigError, match=said) as caught:
        parse_sprt(settings)
    assert str(caught.value).count(". ") == 0 and str(caught.value).endswith(".")


def test_an_sprt_made_directly_is_checked_alike() -> None:
    with pytest.raises(ConfigError, match="elo0 must be less than its elo1"):
        Sprt(2, 1)
