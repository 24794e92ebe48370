"""Exact games of several rounds at a table of two with a seat keyed on what changes (`exact_walk`'s
path over both totals, `exact_pairs`: round by round): against every game played out on a 3-tile box, a keyed
seat and `target` alike; fixed seats through the walk against `game_odds`; target's play from its
key against its play from the whole context."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutbox_cli.game import (
    Rules,
    TurnContext,
    dice_options,
    exact_turn_odds,
    exact_walk,
    solve_expected_score,
    solve_shut,
)
from shutbox_cli.game.exact_seats import FEATURES, KeyedTurns, unsupported
from shutbox_cli.game.moves import move_table
from strategies.keys import key_of, keyed_context
from strategies.solved import Target
from tournaments import seat_strategy
from tournaments.exact.turns import seat_turns

from helpers.every_game import (
    F,
    Outcomes,
    assert_unchanging_seats_are_the_engines,
    by_score,
    every_game,
    every_turn,
    exact_odds,
    fixed_turns,
    target_turns,
)

Choice = tuple[Callable[[int], int], Callable[[int, tuple[int, ...]], int]]


def _policies(rules: Rules) -> list[Choice]:
    """Three ways to play a 3-tile box that end differently: optimal, the fewest tiles on one die
    where it may, the most tiles on two dice."""
    table, optimal = move_table(rules), solve_expected_score(rules)
    return [
        (optimal.best_dice, optimal.best_move),
        (lambda mask: min(dice_options(rules, mask)), lambda mask, dice: table.moves(mask, tuple(sorted(dice)))[0]),
        (lambda mask: max(dice_options(rules, mask)), lambda mask, dice: table.moves(mask, tuple(sorted(dice)))[-1]),
    ]


def _pick(key: tuple[Any, ...]) -> int:
    """Which way a keyed seat plays with this key: one that changes with every feature."""
    return sum(7 if value is None else int(value) for value in key) % 3


def _keyed(rules: Rules, features: tuple[str, ...]) -> tuple[KeyedTurns[Fraction], Callable[[TurnContext], Outcomes]]:
    """A seat keyed on `features`, for the walk (turn odds by key) and for the brute force (turns by context)."""
    policies = _policies(rules)
    odds = [exact_turn_odds(rules, move, dice) for dice, move in policies]
    turns = [
        every_turn(rules, (dice, lambda mask, dice, moves, move=move: move(mask, dice))) for dice, move in policies
    ]
    return KeyedTurns(features, lambda key: odds[_pick(key)]), lambda context: turns[_pick(key_of(context, features))]


def _features(ties: str) -> tuple[str, ...]:
    return ("playoff" if ties == "playoff" else "round", "total", "leader_total", "to_beat")


CASES = [
    *((2, ties, instant) for ties in ("share", "seat", "playoff") for instant in (True, False)),
    (3, "playoff", True),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rounds", "ties", "instant_win"), CASES)
def test_a_keyed_seat_over_several_rounds_against_every_game_played_out(
    rounds: int, ties: str, instant_win: bool
) -> None:
    """A seat keyed on the round (the playoff where there is one), both totals and the score posted,
    in either seat against optimal: each seat's chance and the margins equal the brute force's to
    the last digit (but for the unlikeliest replays of a playoff tied again and again, which it cuts)."""
    rules = Rules(tiles=3, rounds=rounds, ties=ties, instant_win=instant_win)
    keyed, plays = _keyed(rules, _features(ties))
    optimal = solve_expected_score(rules)
    for seat in (0, 1):
        seats: list[Any] = [exact_odds(rules, optimal), exact_odds(rules, optimal)]
        played = [by_score(fixed_turns(rules, optimal)), by_score(fixed_turns(rules, optimal))]
        seats[seat], played[seat] = keyed, by_score(plays)
        _agree(rules, seats, played, seat)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rounds", "ties", "instant_win"), [(2, "share", True), (2, "seat", False), (3, "share", False)]
)
def test_target_over_several_rounds_against_every_game_played_out(rounds: int, ties: str, instant_win: bool) -> None:
    """target keyed by `key_at` in either seat against max-shut, the brute force asking it with the whole context."""
    rules = Rules(tiles=3, rounds=rounds, ties=ties, instant_win=instant_win)
    target = seat_turns(seat_strategy("target", rules), fractions=True, table=2)
    shut = solve_shut(rules)
    for seat in (0, 1):
        seats: list[Any] = [exact_odds(rules, shut), exact_odds(rules, shut)]
        played = [by_score(fixed_turns(rules, shut)), by_score(fixed_turns(rules, shut))]
        seats[seat], played[seat] = target, by_score(target_turns(rules))
        _agree(rules, seats, played, seat)


def _agree(rules: Rules, seats: list[Any], played: list[Callable[[TurnContext], Outcomes]], seat: int) -> None:
    exact = exact_walk.game_odds(rules, seats)
    cut_below = F(1, 10**6) if rules.ties.value == "playoff" else F(0)
    found, cut, margins = every_game(rules, played, cut_below)
    assert exact.arithmetic == "fraction" and exact.unresolved == 0 and sum(exact.wins) == 1
    if cut:
        assert cut < F(1, 100)
        for played_out, chance in zip(found, exact.wins, strict=True):
            assert played_out <= chance <= played_out + cut
        return
    assert list(exact.wins) == found
    duel = exact_walk.duel(rules, seats[seat], seats[1 - seat], seat)
    assert duel.game == exact
    assert duel.margins == {(1 if seat == 0 else -1) * margin: chance for margin, chance in margins.items()}


@settings(max_examples=10, deadline=None)
@given(
    tiles=st.integers(2, 3),
    rounds=st.integers(2, 3),
    ties=st.sampled_from(["share", "seat", "playoff"]),
    instant_win=st.booleans(),
    solvers=st.sampled_from([(0, 1), (1, 0), (0, 0), (1, 1)]),
)
def test_seats_that_always_play_alike_over_several_rounds_are_the_engines_games(
    tiles: int, rounds: int, ties: str, instant_win: bool, solvers: tuple[int, int]
) -> None:
    """Two seats keyed on everything a game of several rounds lets them read, whose turns never
    change: the walk over both totals gives `game_odds`'s fractions, every figure, and the margins
    of `duel`; in floats the same to rounding."""
    rules = Rules(tiles=tiles, rounds=rounds, ties=ties, instant_win=instant_win)
    features = tuple(feature for feature in FEATURES if feature != "round" or ties != "playoff")
    odds = [exact_odds(rules, (solve_expected_score, solve_shut)[which](rules)) for which in solvers]
    assert_unchanging_seats_are_the_engines(rules, features, odds)
    keyed = [KeyedTurns(features, lambda key, one=one: one) for one in odds]
    assert exact_walk.duel(rules, keyed[0], keyed[1], 1).margins == exact_walk.duel(rules, odds[0], odds[1], 1).margins


@pytest.mark.parametrize("instant_win", [True, False])
def test_targets_play_from_its_key_is_its_play_from_the_whole_context(instant_win: bool) -> None:
    """Every context of a 3-tile game of three rounds at a table of two, either seat: the policy
    played from `key_at`'s key makes every move and every choice of dice the whole context makes."""
    rules = Rules(tiles=3, rounds=3, instant_win=instant_win)
    key = Target.key_at(rules, 2)
    assert key is not None and "round" in key
    target, table = Target(), move_table(rules)
    throws = [(a,) for a in range(1, 7)] + [(a, b) for a in range(1, 7) for b in range(a, 7)]
    for number in range(3):
        for own in range(6 * number + 1):
            for rival in range(6 * number + 1):
                for posted in (None, *range(7)):
                    scores = (None, None) if posted is None else (posted, None)
                    totals = (own, rival) if posted is None else (rival, own)
                    context = TurnContext(int(posted is not None), int(posted is not None), number, False, scores,
                                          totals, (True, True))  # fmt: skip
                    whole = target._solved_for(rules, context)  # type: ignore[arg-type]
                    keyed = target._solved_for(rules, keyed_context(context, key))
                    for mask in range(1, rules.full_box + 1):
                        assert whole.best_dice(mask) == keyed.best_dice(mask), (context, mask)
                        for dice in throws:
                            if table.moves(mask, dice):
                                assert whole.best_move(mask, dice) == keyed.best_move(mask, dice), (context, dice)


def test_what_several_rounds_cannot_follow_is_said() -> None:
    assert unsupported(Rules(rounds=3), ("round", "total", "leader_total", "to_beat"), 2) is None
    assert unsupported(Rules(rounds=3, ties="playoff"), ("total", "playoff"), 2) is None
    assert unsupported(Rules(rounds=3, ties="playoff"), ("round", "total"), 2) == (
        "its key reads the round, and a playoff may last any number of rounds"
    )
    assert unsupported(Rules(rounds=3), ("to_beat", "total"), 3) == (
        "its key reads to_beat, total, which in a game of several rounds of 3 seats follows the totals of "
        "several rivals; exact games follow such a key in drop-out and over several rounds at a table of two"
    )
    assert unsupported(Rules(rounds=3), ("total",), 1) == (
        "its key reads total, which in a game of several rounds of 1 seat follows its own total; exact games "
        "follow such a key in drop-out and over several rounds at a table of two"
    )
