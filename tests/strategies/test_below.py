"""`below(threshold=T)`: the surest way to end the turn below T; its two ends are known strategies."""

from __future__ import annotations

import pytest

from shutbox_cli.game import Rules
from strategies.loading import StrategyLoadError, load_strategy
from tournaments import analyze, seat_strategy

RULES = Rules()


def test_a_threshold_of_one_shuts_as_often_as_max_shut() -> None:
    below, most = (analyze(seat_strategy(spec, RULES)) for spec in ("below(threshold=1)", "max-shut"))
    assert below.method == "exact"
    assert below.shut_probability == pytest.approx(most.shut_probability, abs=1e-12)


def test_a_threshold_above_every_score_scores_as_low_as_optimal() -> None:
    below, optimal = (analyze(seat_strategy(spec, RULES)) for spec in ("below(threshold=46)", "optimal"))
    assert below.expected_score == pytest.approx(optimal.expected_score, abs=1e-9)


@pytest.mark.parametrize("threshold", [0, -3, 2.5, True, "5"])
def test_a_threshold_not_a_whole_number_of_one_or_more_is_refused(threshold: object) -> None:
    with pytest.raises(StrategyLoadError, match="threshold must be a whole number"):
        load_strategy(f"below(threshold={threshold!r})")
