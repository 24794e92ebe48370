"""Fair rules (shutbox_cli/game/fair.py): the shut payout found makes the seats equal, a variant
whose advantage keeps its sign has none, and the published two-player figures."""

from __future__ import annotations

import dataclasses

import pytest

from shutbox_cli.game import Rules
from shutbox_cli.game.fair import advantage, fair_payout, fairest, variants
from shutbox_cli.game.perfect import equilibrium
from shutbox_cli.game.stakes import stakes, table_winnings

EQUAL = 1e-9

PUBLISHED = Rules(scoring="digits", one_die="low-sum", one_die_mode="compulsory")  # type: ignore[arg-type]
"""The published two-player game: 9 tiles, the open tiles read as one number, one die once they add
up to 6 or less (a must), a shut box wins at once, a tie is a push (docs/stakes.md)."""


@pytest.mark.parametrize(("tiles", "seats"), [(5, 2), (6, 2), (5, 3)])
def test_the_fair_payout_makes_the_seats_equal(tiles: int, seats: int) -> None:
    rules = Rules(tiles=tiles)
    pays = fair_payout(rules, seats)
    assert pays is not None
    assert abs(advantage(dataclasses.replace(rules, shut_pays=pays), seats)) <= EQUAL
    # and a payout a thousandth away from it is not fair: the root is where the sign changes
    below, above = (advantage(dataclasses.replace(rules, shut_pays=pays + step), seats) for step in (-1e-3, 1e-3))
    assert below * above < 0


def test_when_the_first_seat_keeps_ahead_at_every_payout_there_is_no_fair_one() -> None:
    rules = Rules(tiles=5, ties="seat")  # type: ignore[arg-type]
    assert advantage(dataclasses.replace(rules, shut_pays=0.0), 2) < 0
    assert advantage(dataclasses.replace(rules, shut_pays=1000.0), 2) < 0
    assert fair_payout(rules, 2) is None


def test_variants_are_every_tie_and_first_roll_rule_and_the_fairest_is_nearest_even() -> None:
    found = variants(Rules(tiles=5), 2)
    assert [(v.rules.ties.value, v.rules.first_roll.value) for v in found] == [
        (ties, first) for ties in ("share", "seat", "playoff") for first in ("none", "2-to-go", "3-to-go")
    ]
    assert all(v.fair_pays is None for v in found if v.rules.ties.value == "playoff")
    chances = equilibrium(found[6].rules).seat_chances(2)  # a playoff: the win chances say it
    assert found[6].advantage == pytest.approx(2 * (chances[1] - chances[0]), abs=1e-12)
    assert fairest(found) == min(found, key=lambda v: abs(v.advantage))
    # with a payout other than 1 the playoffs are left out (their payout is not defined)
    assert {v.rules.ties.value for v in variants(Rules(tiles=5, shut_pays=2.0), 2)} == {"share", "seat"}


@pytest.mark.slow
def test_the_published_figures_first_seat_loses_a_fortieth_and_a_game_in_a_hundred_ties() -> None:
    # "the first player loses about 2.5% of the stake, about 1% of games tie", a shut box paying 2
    won = stakes(dataclasses.replace(PUBLISHED, shut_pays=2.0), 2).winnings()
    assert round(won.seats[0], 3) == -0.025
    assert round(won.shared, 2) == 0.01


@pytest.mark.slow
def test_the_published_fair_payout_of_about_3_8_is_3_931_under_perfect_play() -> None:
    # "a shut would have to pay about 3.8 times to make it fair": perfect play at each payout says
    # 3.931; keeping the seats' play of the game paying 2 (the stake moved, not the play), 3.963.
    # Either way about 3.9: the published figure is some 3% low (docs/stakes.md).
    pays = fair_payout(PUBLISHED, 2)
    assert pays is not None and round(pays, 3) == 3.931
    paying_two = stakes(dataclasses.replace(PUBLISHED, shut_pays=2.0), 2)
    play = paying_two.play

    def kept(pays: float) -> float:
        rules = dataclasses.replace(PUBLISHED, shut_pays=pays)
        return table_winnings(rules, 2, lambda *situation: play(*situation).odds.probabilities).seats[0]

    at_two, at_four = kept(2.0), kept(4.0)  # linear in the payout while the play is kept
    assert round(2.0 - at_two * 2.0 / (at_four - at_two), 3) == 3.963
