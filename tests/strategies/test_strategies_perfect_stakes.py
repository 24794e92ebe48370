"""The built-in `perfect` played for a stake (`shut_pays` other than 1): it plays each seat's policy
for its expected winnings (shutbox_cli/game/stakes.py), keyed on its seat too, since what a seat wins
depends on the table's size; exact tournaments and `analyze --against` take it."""

from __future__ import annotations

import json

import pytest

from shutbox_cli.game import Rules
from shutbox_cli.game.perfect import equilibrium
from shutbox_cli.game.stakes import stakes
from strategies.keys import KeyedContext
from strategies.perfect import SITUATION, STAKED, Perfect
from tournaments import solve

from helpers.command import shutbox

RULES = Rules(tiles=6, shut_pays=3.0)


def test_for_a_stake_it_is_keyed_on_its_seat_too() -> None:
    assert Perfect.key_under(Rules(tiles=6)) == SITUATION
    assert Perfect.key_under(RULES) == STAKED == (*SITUATION, "seat")


@pytest.mark.parametrize("seats", [2, 3])
def test_each_seat_plays_for_its_winnings_not_its_chance_to_win(seats: int) -> None:
    perfect, changed = Perfect(), 0
    for seat in range(seats):
        to_come = seats - 1 - seat
        for to_beat, count in [(None, 0)] if seat == 0 else [(points, 1) for points in (3, 7, 12)]:
            played = perfect._solved_for(RULES, KeyedContext(STAKED, (to_beat, count, to_come, seat)))
            assert played is stakes(RULES, seats).play(to_beat, count, to_come).policy
            to_win = equilibrium(Rules(tiles=6)).play(to_beat, count, to_come).policy
            changed += (played.moves, played.dice) != (to_win.moves, to_win.dice)
    assert changed  # a shut box paying 3 changes how some seat plays


@pytest.mark.slow
def test_exact_games_of_perfect_for_a_stake_are_the_value_solve_finds() -> None:
    found = solve(RULES, 2)
    for seat in (1, 2):
        args = ("perfect", "--against", "perfect", "--seat", str(seat), "--tiles", "6", "--shut-pays", "3")
        done = shutbox("analyze", *args, "--format", "json")
        assert done.returncode == 0, done.stderr
        won = json.loads(done.stdout)["seat"][0]["win_rate"]
        assert won == pytest.approx(found.perfect.seats[seat - 1].win, abs=1e-9)
    done = shutbox("tournament", "--exact", "-s", "perfect", "-s", "optimal", "--tiles", "6", "--shut-pays", "3")
    assert done.returncode == 0, done.stderr
    assert "a shut box pays 3 stakes" in done.stdout
