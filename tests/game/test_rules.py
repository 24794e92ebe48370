"""The rule set: the defaults of docs/rules.md, validation with one-sentence errors, equality,
and the TOML-style mapping round trip."""

from __future__ import annotations

import dataclasses
import tomllib

import pytest
import tomli_w
from hypothesis import given
from hypothesis import strategies as st

from shutbox_cli.game import FirstRoll, OneDie, OneDieMode, Rules, RulesError, Scoring, ShutRule, Ties

OPTIONS = (
    "tiles",
    "shut_rule",
    "one_die",
    "one_die_mode",
    "scoring",
    "first_roll",
    "instant_win",
    "ties",
    "rounds",
    "drop_out",
)


def test_defaults_are_the_standard_game() -> None:
    rules = Rules()
    assert rules.tiles == 9
    assert rules.shut_rule is ShutRule.ANY
    assert rules.one_die is OneDie.HIGH_TILES
    assert rules.one_die_mode is OneDieMode.OPTIONAL
    assert rules.scoring is Scoring.SUM
    assert rules.first_roll is FirstRoll.NONE
    assert rules.instant_win is True
    assert rules.ties is Ties.SHARE
    assert rules.rounds == 1
    assert rules.drop_out is None
    assert not rules.multi_round
    assert rules.full_box == 0b111111111


@pytest.mark.parametrize("tiles", range(2, 11))
def test_one_die_defaults_to_high_tiles_up_to_ten_tiles(tiles: int) -> None:
    assert Rules(tiles=tiles).one_die is OneDie.HIGH_TILES


@pytest.mark.parametrize("tiles", [11, 12])
def test_one_die_defaults_to_low_sum_on_the_big_boxes(tiles: int) -> None:
    assert Rules(tiles=tiles).one_die is OneDie.LOW_SUM


def test_an_explicit_one_die_rule_overrides_the_default() -> None:
    assert Rules(tiles=12, one_die="high-tiles").one_die is OneDie.HIGH_TILES
    assert Rules(tiles=9, one_die="low-sum").one_die is OneDie.LOW_SUM
    assert Rules(tiles=9, one_die="off").one_die is OneDie.OFF


@pytest.mark.parametrize(
    ("options", "instant_win"),
    [
        ({}, True),
        ({"rounds": 3}, False),
        ({"drop_out": 50}, False),
        ({"rounds": 3, "instant_win": True}, True),
        ({"drop_out": 50, "instant_win": True}, True),
        ({"instant_win": False}, False),
    ],
)
def test_instant_win_defaults_off_in_multi_round_play(options: dict, instant_win: bool) -> None:
    assert Rules(**options).instant_win is instant_win


def test_values_are_taken_as_their_public_spellings() -> None:
    rules = Rules(
        shut_rule="one-tile", one_die_mode="compulsory", scoring="digits", first_roll="3-to-go", ties="playoff"
    )
    assert rules.shut_rule is ShutRule.ONE_TILE
    assert rules.one_die_mode is OneDieMode.COMPULSORY
    assert rules.scoring is Scoring.DIGITS
    assert rules.first_roll is FirstRoll.THREE_TO_GO
    assert rules.ties is Ties.PLAYOFF


def test_rules_that_play_the_same_game_are_equal_and_hash_alike() -> None:
    assert Rules() == Rules(tiles=9, one_die="high-tiles", instant_win=True)
    assert hash(Rules()) == hash(Rules(one_die=OneDie.HIGH_TILES, instant_win=True))
    assert Rules(tiles=12) == Rules(tiles=12, one_die="low-sum")
    assert Rules(rounds=2) == Rules(rounds=2, instant_win=False)
    assert Rules() != Rules(tiles=10)
    assert Rules() != Rules(instant_win=False)
    assert len({Rules(), Rules(one_die="high-tiles"), Rules(tiles=12), Rules(tiles=12, one_die="low-sum")}) == 2


def test_rules_are_frozen() -> None:
    rules = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.tiles = 10  # type: ignore[misc]


# (options, option named, accepted values the message must name)
INVALID = [
    ({"tiles": 1}, "tiles", ["2", "12"]),
    ({"tiles": 13}, "tiles", ["2", "12"]),
    ({"tiles": -9}, "tiles", ["2", "12"]),
    ({"tiles": "9"}, "tiles", ["2", "12"]),
    ({"tiles": 9.0}, "tiles", ["2", "12"]),
    ({"tiles": True}, "tiles", ["2", "12"]),
    ({"shut_rule": "all"}, "shut_rule", ["any", "dice-or-total", "one-tile"]),
    ({"shut_rule": 3}, "shut_rule", ["any", "dice-or-total", "one-tile"]),
    ({"one_die": "always"}, "one_die", ["high-tiles", "low-sum", "off"]),
    ({"one_die_mode": "maybe"}, "one_die_mode", ["optional", "compulsory"]),
    ({"scoring": "product"}, "scoring", ["sum", "count", "digits"]),
    ({"first_roll": "4-to-go"}, "first_roll", ["none", "2-to-go", "3-to-go"]),
    ({"instant_win": "yes"}, "instant_win", ["true", "false"]),
    ({"instant_win": 1}, "instant_win", ["true", "false"]),
    ({"ties": "coin-toss"}, "ties", ["share", "seat", "playoff"]),
    ({"rounds": 0}, "rounds", ["1"]),
    ({"rounds": -2}, "rounds", ["1"]),
    ({"rounds": 2.5}, "rounds", ["1"]),
    ({"drop_out": -5}, "drop_out", ["0 (no drop-out)", "45,000"]),  # 0 is none, as a report writes it
    ({"drop_out": "50"}, "drop_out", ["0 (no drop-out)"]),
]


@pytest.mark.parametrize(("options", "option", "accepted"), INVALID, ids=lambda value: repr(value))
def test_invalid_values_are_rejected_in_one_sentence(options: dict, option: str, accepted: list[str]) -> None:
    with pytest.raises(RulesError) as caught:
        Rules(**options)
    message = str(caught.value)
    assert option in message
    assert repr(options[option]) in message or str(options[option]) in message
    for value in accepted:
        assert value in message
    assert message.endswith(".") and "\n" not in message
    assert message.count(". ") == 0


def test_three_to_go_needs_a_tile_three() -> None:
    with pytest.raises(RulesError, match=r'first_roll "3-to-go".*at least 3 tiles'):
        Rules(tiles=2, first_roll="3-to-go")
    assert Rules(tiles=2, first_roll="2-to-go").first_roll is FirstRoll.TWO_TO_GO


def test_rounds_and_drop_out_do_not_mix() -> None:
    with pytest.raises(RulesError) as caught:
        Rules(rounds=3, drop_out=20)
    assert "rounds" in str(caught.value) and "drop_out" in str(caught.value)


def test_rules_error_is_a_value_error() -> None:
    assert issubclass(RulesError, ValueError)


def test_from_mapping_reads_a_toml_table() -> None:
    table = tomllib.loads(
        'tiles = 12\nshut_rule = "dice-or-total"\ninstant_win = false\nties = "seat"\ndrop_out = 60\n'
    )
    rules = Rules.from_mapping(table)
    assert rules == Rules(tiles=12, shut_rule=ShutRule.DICE_OR_TOTAL, instant_win=False, ties=Ties.SEAT, drop_out=60)
    assert rules.one_die is OneDie.LOW_SUM


def test_from_mapping_rejects_an_unknown_rule_and_lists_the_known_ones() -> None:
    with pytest.raises(RulesError) as caught:
        Rules.from_mapping({"tiles": 9, "tile_count": 9})
    message = str(caught.value)
    assert "tile_count" in message
    for option in OPTIONS:
        assert option in message


def test_from_mapping_validates_values_too() -> None:
    with pytest.raises(RulesError, match="scoring"):
        Rules.from_mapping({"scoring": "median"})


def test_to_mapping_of_the_defaults_is_every_option_but_the_missing_limit() -> None:
    assert Rules().to_mapping() == {
        "tiles": 9,
        "shut_rule": "any",
        "one_die": "high-tiles",
        "one_die_mode": "optional",
        "scoring": "sum",
        "first_roll": "none",
        "instant_win": True,
        "ties": "share",
        "rounds": 1,
    }


@pytest.mark.slow
@given(st.from_type(Rules))
def test_mapping_round_trip_through_toml(rules: Rules) -> None:
    table = rules.to_mapping()
    assert set(table) <= set(OPTIONS)
    assert all(type(value) in (str, int, bool) for value in table.values())
    assert Rules.from_mapping(table) == rules
    assert Rules.from_mapping(tomllib.loads(tomli_w.dumps(table))) == rules
