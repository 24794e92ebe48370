"""`shutbox check` of a strategy that refuses some rules (a trained policy's model fixes its box),
in its host: the referee leaves out the questions the host says it refuses, whole rule sets only,
and refuses a host whose list is not that."""

from __future__ import annotations

from typing import Any, NoReturn

import pytest

from strategies.questions import sample_questions
from tournaments.referee.checking import _played


class Refused(Exception):
    """What the fake host's `refuse` raises: the referee's verdict that it sent garbage."""


class FakeHost:
    """The referee's side of a host, as `_played` uses it: only `refuse`."""

    def refuse(self, what: str) -> NoReturn:
        raise Refused(what)


def reply(refused: Any) -> dict[str, Any]:
    return {"declared": {"refused": refused}}


SAMPLED, RULE_SETS = sample_questions(0, 12)


def numbers_under(tiles: int) -> list[int]:
    """The numbers of the questions sampled under rules of so many tiles (whole rule sets, each)."""
    return [question.seed for question in SAMPLED if question.rules.tiles == tiles]


FIRST = [question.seed for question in SAMPLED if question.rules == SAMPLED[0].rules]
"""The numbers of the questions of the first rule set sampled (two or more)."""


def test_the_questions_of_the_refused_rule_sets_are_left_out_and_counted() -> None:
    assert len(FIRST) > 1
    tiles = SAMPLED[0].rules.tiles
    refused = numbers_under(tiles)
    kept, rule_sets = _played(reply(refused), FakeHost(), SAMPLED, RULE_SETS)  # type: ignore[arg-type]
    assert kept == [question for question in SAMPLED if question.rules.tiles != tiles]
    assert rule_sets == RULE_SETS - len({SAMPLED[number].rules for number in refused})
    assert _played(reply([]), FakeHost(), SAMPLED, RULE_SETS) == (SAMPLED, RULE_SETS)  # type: ignore[arg-type]
    assert _played({"declared": {}}, FakeHost(), SAMPLED, RULE_SETS) == (SAMPLED, RULE_SETS)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("refused", "said"),
    [
        ("all", "refused questions that are not numbers"),
        ([True], "refused questions that are not numbers"),
        ([len(SAMPLED)], "refused questions that are not among those sampled"),
        ([1, 0], "refused questions that are not among those sampled"),
        ([0, 0], "refused questions that are not among those sampled"),
        (FIRST[:1], "refused questions that are not whole rule sets"),
    ],
)
def test_a_host_that_refuses_other_than_whole_rule_sets_is_refused(refused: Any, said: str) -> None:
    with pytest.raises(Refused, match=said):
        _played(reply(refused), FakeHost(), SAMPLED, RULE_SETS)  # type: ignore[arg-type]
