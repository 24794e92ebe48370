"""The cheat sheet from the library (`cheat_sheet`): its figures are the exact ones of the rule, the
rule with its exceptions, the strategy and the best play; its report holds them; a strategy it
cannot follow, or a count out of range, is one sentence."""

from __future__ import annotations

import pytest

from shutbox_cli.game import Rules, distribution, solve_expected_score
from shutbox_cli.game.rule_of_thumb import BUILT_IN_RULES
from shutbox_cli.game.thumb_exceptions import SheetPlay
from tournaments import CheatSheet, ConfigError, cheat_sheet, duel_exactly, seat_strategy
from tournaments.files import dumps

from helpers.paths import EXAMPLES


def sheet_of(spec: str, rules: Rules, exceptions: int = 5) -> CheatSheet:
    with seat_strategy(spec, rules) as seated:
        return cheat_sheet(seated, exceptions)


def test_a_sheet_of_optimal_holds_the_exact_figures_of_each_way_of_playing() -> None:
    rules = Rules(tiles=6)
    sheet = sheet_of("optimal", rules, exceptions=3)
    best = solve_expected_score(rules)
    assert sheet.strategy_figures == sheet.optimal
    assert sheet.optimal.expected_score == pytest.approx(best.value, abs=1e-12)
    alone = distribution(rules, *sheet.rule.policy(rules))
    assert sheet.rule_figures.expected_score == alone.expected_score
    assert sheet.rule_figures.shut_probability == alone.shut_probability
    played = SheetPlay(rules, sheet.rule, sheet.exceptions)
    assert sheet.sheet_figures.expected_score == distribution(rules, played.move, played.dice).expected_score
    assert sheet.gained == pytest.approx(sheet.rule_figures.expected_score - sheet.sheet_figures.expected_score)
    assert len(sheet.exceptions) <= 3 and sheet.asked == 3
    for name, rule in BUILT_IN_RULES.items():
        assert sheet.built_ins[name] == distribution(rules, *rule.policy(rules)).expected_score
        assert sheet.rule_figures.expected_score <= sheet.built_ins[name] + 1e-12


def test_a_sheet_says_itself_in_one_line_and_its_report_holds_every_figure() -> None:
    sheet = sheet_of("optimal", Rules(tiles=4, scoring="count"))
    assert repr(sheet) == (
        "<CheatSheet of optimal; lowest-first and 1 exception; expected score 1.1394 (the rule 1.1757, optimal 1.1145)>"
    )
    report = sheet.to_report()
    assert (report["kind"], report["measure"], report["strategy"], report["exceptions_asked"]) == (
        "sheet",
        "expected-score",
        "optimal",
        5,
    )
    assert report["rule"]["built_in"] == "lowest-first" and report["rule"]["criteria"] == ["lower-set"]
    assert report["exception"] == [
        {
            "box": [1, 2, 3, 4],
            "choice": "move",
            "throws": [[4], [1, 3], [2, 2]],
            "rule_shuts": [1, 3],
            "shut": [4],
            "gain": pytest.approx(47 / 1296, abs=1e-12),
            "loss": pytest.approx(47 / 1296, abs=1e-12),
            "reach": pytest.approx(3 / 36, abs=1e-12),
        }
    ]
    assert report["figures"]["sheet"]["mean_score"] == sheet.sheet_figures.expected_score
    assert report["gap_closed"] == pytest.approx(sheet.gained / sheet.gap)
    dumps(report)  # a report TOML writes
    dumps(report, "json")


def test_a_sheet_of_a_weaker_strategy_takes_its_moves_only_where_they_gain() -> None:
    rules = Rules(tiles=5)
    sheet = sheet_of("greedy-high", rules)
    assert sheet.strategy == "greedy-high" and sheet.optimal != sheet.strategy_figures
    assert sheet.gap < 0 and sheet.closed is None  # the rule beats greedy-high: no gap to close
    # Where greedy-high plays better than the rule, an exception still takes its move.
    assert sheet.exceptions and all(found.gain > 0 for found in sheet.exceptions)
    assert sheet.sheet_figures.expected_score < sheet.rule_figures.expected_score


def test_against_an_opponent_the_sheet_plays_for_the_chance_of_winning_one_game() -> None:
    rules = Rules(tiles=6)
    with seat_strategy("optimal", rules) as optimal, seat_strategy("greedy-high", rules) as greedy:
        sheet = cheat_sheet(optimal, 3, against=greedy)
        duel = duel_exactly(optimal, greedy)
    assert sheet.measure == "win-rate" and sheet.opponent == "greedy-high" and sheet.rules == rules
    average = (duel.seats[0].wins + duel.seats[1].wins) / 2
    assert sheet.strategy_figures.win_rate == pytest.approx(average, abs=1e-12)
    rule, played = sheet.rule_figures.win_rate, sheet.sheet_figures.win_rate
    assert rule is not None and played is not None
    assert sheet.gained == pytest.approx(played - rule, abs=1e-12)
    assert sheet.gap == pytest.approx(average - rule, abs=1e-12)
    assert repr(sheet).startswith(f"<CheatSheet of optimal against greedy-high; {sheet.built_in or sheet.rule.name} ")
    report = sheet.to_report()
    assert (report["measure"], report["opponent"], report["opponent_spec"]) == (
        "win-rate",
        "greedy-high",
        "greedy-high",
    )
    assert report["figures"]["strategy"]["win_rate"] == sheet.strategy_figures.win_rate


def test_against_an_opponent_a_game_of_several_rounds_is_one_sentence() -> None:
    rules = Rules(tiles=4, rounds=2)
    with (
        seat_strategy("optimal", rules) as optimal,
        seat_strategy("tips", rules) as tips,
        pytest.raises(ConfigError) as raised,
    ):
        cheat_sheet(optimal, against=tips)
    assert str(raised.value).startswith("a cheat sheet against an opponent is of a game of one round ")


@pytest.mark.slow
def test_a_users_strategy_is_followed_from_its_host() -> None:
    rules = Rules(tiles=6)
    sheet = sheet_of(str(EXAMPLES / "cautious.py") + ":Cautious", rules, exceptions=2)
    assert sheet.strategy == "cautious"
    assert sheet.rule_figures.expected_score <= sheet.built_ins["fewest-tiles"]


@pytest.mark.parametrize(
    ("spec", "exceptions", "message"),
    [
        ("optimal", -1, "a sheet lists 0 to 100 exceptions, not -1."),
        ("optimal", 101, "a sheet lists 0 to 100 exceptions, not 101."),
        (
            "random",
            5,
            "a cheat sheet follows strategies that play from the box and the dice alone; 'random' does not "
            "(it is stochastic): ask for the sheet of optimal, or of an exact strategy.",
        ),
        (
            "target",
            5,
            "a cheat sheet follows strategies that play from the box and the dice alone; 'target' does not "
            "(it reads the game): ask for the sheet of optimal, or of an exact strategy.",
        ),
    ],
)
def test_what_a_sheet_cannot_follow_is_one_sentence(spec: str, exceptions: int, message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        sheet_of(spec, Rules(tiles=4), exceptions)
    assert str(raised.value) == message
