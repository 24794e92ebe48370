"""A gauntlet: the first strategies against the rest, which do not meet one another; with two
players at a table of two, the first's score minus the second's against each of the field."""

from __future__ import annotations

import pytest

from tournaments import ConfigError, InProcess, Options, Summary, report_table, run
from tournaments.parts import field_difference
from tournaments.statistics.pairs import pentanomial

FIELD = ["optimal", "tips", "greedy-high", "fewest-tiles"]


@pytest.fixture(scope="module")
def gauntlet() -> Summary:
    summary = run(None, Options(strategies=FIELD, games=400, seed=3, gauntlet=2), backend=InProcess())
    assert isinstance(summary, Summary)
    return summary


def test_the_field_does_not_meet_itself(gauntlet: Summary) -> None:
    met = [tuple(gauntlet.config.names[player] for player in matchup.players) for matchup in gauntlet.plan.matchups]
    assert met == [
        ("optimal", "tips"),
        ("optimal", "greedy-high"),
        ("optimal", "fewest-tiles"),
        ("tips", "greedy-high"),
        ("tips", "fewest-tiles"),
    ]
    assert not any({pair.strategy, pair.opponent} == {"greedy-high", "fewest-tiles"} for pair in gauntlet.head_to_head)
    assert all(standing.rating is not None for standing in gauntlet.ranking)


def test_the_two_players_are_compared_against_each_opponent(gauntlet: Summary) -> None:
    assert [versus.opponent for versus in gauntlet.versus] == ["greedy-high", "fewest-tiles"]
    for versus, (first, second) in zip(gauntlet.versus, [(1, 3), (2, 4)], strict=True):
        assert versus.first == pentanomial(gauntlet.tallies[first][0])
        assert versus.second == pentanomial(gauntlet.tallies[second][0])
        gap, (low, high) = versus.difference()
        assert gap == pytest.approx(versus.first.score - versus.second.score) and low < gap < high
    gap, _ = field_difference(gauntlet.versus)
    assert gap == pytest.approx(sum(versus.difference()[0] for versus in gauntlet.versus) / 2)
    table = report_table(gauntlet)
    assert table["config"]["gauntlet"] == 2
    assert table["gauntlet"]["strategy"] == "optimal" and table["gauntlet"]["baseline"] == "tips"
    assert [entry["name"] for entry in table["gauntlet"]["opponent"]] == ["greedy-high", "fewest-tiles"]


def test_a_round_robin_writes_no_gauntlet() -> None:
    summary = run(None, Options(strategies=FIELD[:3], games=20, seed=3), backend=InProcess())
    assert isinstance(summary, Summary) and summary.versus == ()
    assert "gauntlet" not in report_table(summary)["config"] and "gauntlet" not in report_table(summary)


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (Options(strategies=FIELD[:2], gauntlet=2), "a gauntlet of 2 leaves no field to play"),
        (Options(strategies=FIELD, gauntlet=1, table=1), "at tables of two or more"),
        (Options(strategies=FIELD, gauntlet=1, method="exact"), "not solo or exact"),
        (Options(strategies=FIELD, gauntlet=-1), "gauntlet must be at least 0"),
    ],
)
def test_a_gauntlet_without_a_field_to_play_is_one_sentence(options: Options, said: str) -> None:
    with pytest.raises(ConfigError, match=said):
        run(None, options, backend=InProcess())
