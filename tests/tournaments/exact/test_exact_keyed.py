"""Exact games with keyed seats (`exact_walk`, `exact_seats`): `target` in one-round games against a brute force
that plays every dice sequence of every game `play_game` plays on a small box, target asked with
the whole context (no key, no table); keyed seats that always play alike agree with `game_odds`."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutbox_cli.game import Rules, Solution, TurnOdds, exact_walk, game_odds, solve_expected_score, solve_shut
from shutbox_cli.game.exact_seats import FEATURES, KeyedTurns, unsupported
from strategies.keys import FEATURES as KEY_FEATURES
from tournaments import seat_strategy
from tournaments.exact.turns import seat_turns

from helpers.every_game import (
    assert_unchanging_seats_are_the_engines,
    by_score,
    every_game,
    exact_odds,
    fixed_turns,
    target_turns,
)

F = Fraction


def test_a_turn_start_holds_every_feature_a_key_may_name() -> None:
    assert tuple(KEY_FEATURES) == FEATURES


@pytest.mark.parametrize("ties", ["share", "seat", pytest.param("playoff", marks=pytest.mark.slow)])
@pytest.mark.parametrize("instant_win", [True, False])
def test_keyed_seats_that_always_play_alike_are_the_engines_games(ties: str, instant_win: bool) -> None:
    """A seat keyed on every feature it may read (the round, where there is no playoff) whose turns
    never change gives `game_odds`'s figures, and `duel`'s margins."""
    rules = Rules(tiles=4, ties=ties, instant_win=instant_win)
    features = tuple(feature for feature in FEATURES if feature != "round" or ties != "playoff")
    optimal, shut = (exact_odds(rules, solve(rules)) for solve in (solve_expected_score, solve_shut))
    for seats in ([optimal, shut], [shut, optimal, optimal], [optimal, shut, shut, optimal]):
        keyed = [
            KeyedTurns(features, lambda key, odds=odds: odds) if seat % 2 else odds for seat, odds in enumerate(seats)
        ]
        assert exact_walk.game_odds(rules, keyed) == game_odds(rules, seats)
    duel = exact_walk.duel(rules, KeyedTurns(("to_beat",), lambda key: optimal), shut, 1)
    assert duel.margins == exact_walk.duel(rules, optimal, shut, 1).margins


def test_what_cannot_be_followed_is_said() -> None:
    assert unsupported(Rules(), ("to_beat", "to_come"), 3) is None
    assert unsupported(Rules(rounds=3), ("seat",), 2) is None
    assert "reads the round" in (unsupported(Rules(ties="playoff"), ("round",), 2) or "")
    assert unsupported(Rules(ties="seat"), ("round",), 2) is None
    assert unsupported(Rules(drop_out=40), ("to_beat", "seat", "total", "leader_total", "to_come"), 2) is None
    assert unsupported(Rules(drop_out=40, ties="playoff"), ("playoff", "to_beat_count"), 2) is None
    assert unsupported(Rules(drop_out=40), ("round", "total"), 2) == (
        "its key reads the round, which a drop-out game does not bound"
    )
    assert unsupported(Rules(drop_out=40), ("to_beat", "seat"), 3) == (
        "its key reads to_beat, which in a drop-out game of 3 seats follows the totals of several rivals; "
        "exact games follow such a key in drop-out and over several rounds at a table of two"
    )
    assert "several rounds of 3 seats" in (unsupported(Rules(rounds=2), ("total",), 3) or "")
    with pytest.raises(ValueError, match=r"^seat 0 cannot be computed exactly: its key reads the round"):
        exact_walk.game_odds(
            Rules(drop_out=9, tiles=4),
            [KeyedTurns(("round",), lambda key: TurnOdds({1: F(1)}, F(0))), TurnOdds({1: F(1)}, F(0))],
        )
    with pytest.raises(ValueError, match="seat 1 cannot be computed exactly: its key reads total"):
        exact_walk.game_odds(
            Rules(rounds=2),
            [
                exact_odds(Rules(rounds=2), solve_expected_score(Rules(rounds=2))),
                KeyedTurns(("total",), lambda key: TurnOdds({0: F(1)}, F(1))),
                exact_odds(Rules(rounds=2), solve_expected_score(Rules(rounds=2))),
            ],
        )


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(
    tiles=st.integers(2, 4),
    limit=st.integers(1, 10),
    ties=st.sampled_from(["share", "seat", "playoff"]),
    instant_win=st.booleans(),
    solvers=st.sampled_from([(0, 1), (1, 0), (0, 0), (1, 1)]),
)
def test_drop_out_seats_that_always_play_alike_are_the_engines_games(
    tiles: int, limit: int, ties: str, instant_win: bool, solvers: tuple[int, int]
) -> None:
    """Two seats keyed on everything a drop-out game lets them read, whose turns never change: the
    walk over both totals gives `game_odds`'s fractions, every figure, and its floats to rounding."""
    rules = Rules(tiles=tiles, drop_out=limit, ties=ties, instant_win=instant_win)
    features = tuple(feature for feature in FEATURES if feature != "round")
    odds = [exact_odds(rules, (solve_expected_score, solve_shut)[which](rules)) for which in solvers]
    assert_unchanging_seats_are_the_engines(rules, features, odds)


# --- against every game played out ---------------------------------------------------------------


SMALL = [
    *((ties, instant, 2) for ties in ("share", "seat", "playoff") for instant in (True, False)),
    ("share", True, 3),
    ("seat", False, 3),
    ("playoff", True, 3),
]


@pytest.mark.slow
@pytest.mark.parametrize(("ties", "instant_win", "players"), SMALL)
def test_target_against_every_game_played_out(ties: str, instant_win: bool, players: int) -> None:
    """target in every seat in turn against optimal (max-shut third): each seat's chance, and at a
    table of two the margins, equal the brute force's (within the branches it cuts in a playoff)."""
    rules = Rules(tiles=4, ties=ties, instant_win=instant_win)
    target = seat_turns(seat_strategy("target", rules), fractions=True, table=players)
    opponents = [solve_expected_score(rules), solve_shut(rules)][: players - 1]
    for seat in range(players):
        order: list[Solution | None] = [*opponents[:seat], None, *opponents[seat:]]
        seats = [target if one is None else exact_odds(rules, one) for one in order]
        plays = [target_turns(rules) if one is None else fixed_turns(rules, one) for one in order]
        exact = exact_walk.game_odds(rules, seats)
        found, cut, margins = every_game(rules, plays, F(1, 10**4))
        assert exact.arithmetic == "fraction" and sum(exact.wins) == 1
        for played_out, chance in zip(found, exact.wins, strict=True):
            assert played_out <= chance <= played_out + cut
        if cut:
            continue
        assert list(exact.wins) == found
        if players == 2:
            duel = exact_walk.duel(rules, seats[0], seats[1], 0)
            assert duel.game == exact and duel.margins == margins


@pytest.mark.slow
@pytest.mark.parametrize("ties", ["share", "seat", "playoff"])
def test_target_in_drop_out_against_every_game_played_out(ties: str) -> None:
    """target in either seat of a drop-out game against max-shut, keyed by the totals and the score
    posted: each seat's chance equals, to the last digit, the brute force's, which asks target with
    the whole context. With instant win every game ends within a few rounds, but for a playoff tied
    again and again, whose unlikeliest replays the brute force cuts (without instant win a shut box
    scores 0 and a game may go on for ever: there the walk agrees with `game_odds` and a simulation)."""
    rules = Rules(tiles=3, drop_out=5, ties=ties, instant_win=True)
    target = seat_turns(seat_strategy("target", rules), fractions=True, table=2)
    shut = solve_shut(rules)
    for seat in (0, 1):
        seats = [exact_odds(rules, shut), exact_odds(rules, shut)]
        plays = [by_score(fixed_turns(rules, shut)), by_score(fixed_turns(rules, shut))]
        seats[seat], plays[seat] = target, by_score(target_turns(rules))  # type: ignore[call-overload]
        exact = exact_walk.game_odds(rules, seats)
        found, cut, _ = every_game(rules, plays, F(0) if ties != "playoff" else F(1, 10**6))
        assert exact.arithmetic == "fraction" and exact.unresolved == 0 and sum(exact.wins) == 1
        if ties == "playoff":  # a playoff may be tied again and again: its unlikeliest replays are cut
            assert cut < F(1, 100)
            for played_out, chance in zip(found, exact.wins, strict=True):
                assert played_out <= chance <= played_out + cut
            continue
        assert cut == 0 and list(exact.wins) == found
