"""A tune's notes on a best value at an end of its range (`edges`): a grid's end value, a continuous
range's value within 2% of its width of an end, and never advice to widen a range past a value the
strategy refuses."""

from __future__ import annotations

import pytest

from tournaments.tuning.edges import edge_notes
from tournaments.tuning.space import Value, parse_parameter


def _takes_all(name: str, value: Value) -> bool | None:
    return False


@pytest.mark.parametrize(
    ("text", "best", "said"),
    [
        (
            "p=0.0..0.3",
            0.296805,
            "the best p, 0.296805, is within 2% of the high end of its range, 0.0..0.3: the best may lie above "
            "it; widen the range to see.",
        ),
        (
            "p=0.0..0.3",
            0.004,
            "the best p, 0.004, is within 2% of the low end of its range, 0.0..0.3: the best may lie below it; "
            "widen the range to see.",
        ),
        ("p=0.0..0.3", 0.29, None),
        (
            "p=0.1..0.7:0.2",
            0.7000000000001,
            "the best p, 0.7000000000001, is the highest value of its range, 0.1..0.7: the best may lie above it; "
            "widen the range to see.",
        ),
        ("p=0.1..0.7:0.2", 0.5, None),
        (
            "n=2..9:3",
            2,
            "the best n, 2, is the lowest value of its range, 2..8: the best may lie below it; widen the range to see.",
        ),
        ("n=2..9:3", 5, None),
    ],
)
def test_a_best_value_near_an_end_is_a_note(text: str, best: Value, said: str | None) -> None:
    parameter = parse_parameter(text)
    notes = edge_notes([parameter], {parameter.name: best}, "knob", _takes_all)
    assert notes == (() if said is None else (said,))


def test_no_note_tells_to_widen_a_range_past_what_the_strategy_refuses() -> None:
    asked: list[tuple[str, Value]] = []

    def refuses(name: str, value: Value) -> bool | None:
        asked.append((name, value))
        return value < 1

    notes = edge_notes([parse_parameter("threshold=1..12")], {"threshold": 1}, "below", refuses)
    assert asked == [("threshold", 0)]
    assert notes == (
        "the best threshold, 1, is the lowest value of its range, 1..12, and below takes no threshold below it.",
    )


def test_where_what_the_strategy_takes_is_not_known_the_note_says_if() -> None:
    notes = edge_notes([parse_parameter("risk=0.0..1.0")], {"risk": 1.0}, "risky.py:Risky", lambda *_: None)
    assert notes == (
        "the best risk, 1.0, is within 2% of the high end of its range, 0.0..1.0: the best may lie above it, if "
        "risky.py:Risky takes a risk above 1.0; widen the range to see.",
    )
