"""The rules in words: the full description, the changes a player is told, the one-line short form."""

from __future__ import annotations

import pytest

from shutbox_cli.face.describe import TURN_OPTIONS, describe_changes, describe_rules, rules_in_short
from shutbox_cli.game import Rules, dice_options


def dice_line(rules: Rules) -> str:
    return next(line for line in describe_rules(rules) if line.startswith("Dice:"))


@pytest.mark.parametrize("rules", [Rules(tiles=5), Rules(tiles=3, one_die="low-sum")], ids=["high-tiles", "low-sum"])
def test_on_a_small_box_one_die_is_allowed_from_the_start(rules: Rules) -> None:
    assert dice_options(rules, rules.full_box) == (1, 2)  # what the engine lets a player do
    line = dice_line(rules)
    assert "from the start" in line and "once" not in line


def test_a_compulsory_one_die_on_a_small_box_is_always_one_die() -> None:
    rules = Rules(tiles=6, one_die_mode="compulsory")
    assert dice_options(rules, rules.full_box) == (1,)
    assert dice_line(rules).startswith("Dice: always one")


def test_on_a_box_with_high_tiles_one_die_waits_for_them() -> None:
    assert dice_line(Rules(tiles=7)) == "Dice: two; the player may roll one die once every tile from 7 up is shut."


def test_drop_out_says_who_wins_when_everyone_goes_out_in_the_same_round() -> None:
    line = next(line for line in describe_rules(Rules(drop_out=30)) if line.startswith("Format:"))
    assert "a total of 30 or more is out; the last player left wins" in line
    assert "If everyone left goes out in the same round, the lowest total wins, ties settled by the tie rule." in line


def test_the_first_roll_rule_names_its_tile() -> None:
    assert "First shut: must include the 3, or the turn ends at once (3-to-go)." in describe_rules(
        Rules(first_roll="3-to-go")
    )
    assert not any(line.startswith("First shut") for line in describe_rules(Rules()))


def test_a_player_is_told_only_the_changes_and_in_rounds_what_a_shut_box_does() -> None:
    assert describe_changes(Rules()) == describe_changes(Rules(tiles=12)) == []
    assert describe_changes(Rules(ties="seat")) == ["Ties: of equal lowest scores, the earlier seat wins."]
    assert describe_changes(Rules(rounds=3)) == [
        "Format: 3 rounds; scores add up and the lowest total wins.",
        "Shutting the box scores 0 and play goes on.",
    ]
    assert describe_changes(Rules(rounds=3, instant_win=True))[1] == (
        "Shutting the box wins the game at once; later seats do not play."
    )


def test_the_short_form_lists_options_that_differ_from_their_defaults() -> None:
    assert rules_in_short(Rules()) == "standard"
    assert rules_in_short(Rules(tiles=12)) == "tiles = 12"  # low-sum is the 12-tile default
    assert rules_in_short(Rules(tiles=12, one_die="high-tiles")) == "tiles = 12, one_die = high-tiles"
    assert rules_in_short(Rules(rounds=3)) == "rounds = 3"  # no instant win is the default of rounds
    assert rules_in_short(Rules(rounds=3, instant_win=True)) == "instant_win = true, rounds = 3"
    assert rules_in_short(Rules(drop_out=40, ties="playoff")) == "ties = playoff, drop_out = 40"


def test_the_short_form_of_a_turn_leaves_out_the_options_of_a_game() -> None:
    rules = Rules(scoring="count", rounds=3, ties="seat")
    assert rules_in_short(rules, TURN_OPTIONS) == "scoring = count"
    assert rules_in_short(Rules(rounds=3), TURN_OPTIONS) == "standard"
