"""Turns played in bulk from a strategy's table agree, turn by turn, with the general engine."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutbox_cli.game import (
    Rules,
    TurnRecord,
    move_table,
    play_game,
    play_turn,
    solve_expected_score,
    solve_shut,
    turn_rolls,
)
from shutbox_cli.game.bulk import END, play_games, play_turns, turn_table, turn_table_of
from strategies.loading import load_strategy
from strategies.player import StrategyPlayer

TURNS = 300


def outcome_codes(rules: Rules, seed: int, turns: int) -> np.ndarray:
    """The first rolls of each turn's dice stream as outcome codes (one row per roll)."""
    rolls = rules.tiles + 1  # every roll but the last shuts a tile
    codes = np.empty((rolls, turns), dtype=np.int8)
    for game in range(turns):
        for k, (first, second) in enumerate(itertools.islice(turn_rolls(seed, game, 0, 0), rolls)):
            codes[k, game] = 6 * (first - 1) + (second - 1)
    return codes


@pytest.mark.slow
@settings(max_examples=25)
@given(
    rules=st.from_type(Rules), seed=st.integers(0, 2**32), objective=st.sampled_from([solve_expected_score, solve_shut])
)
def test_bulk_turns_end_where_the_general_engine_ends_them(rules: Rules, seed: int, objective) -> None:
    solution = objective(rules)
    table = turn_table(rules, solution.best_move, solution.best_dice)
    codes = outcome_codes(rules, seed, TURNS)
    ended = play_turns(table, rules.full_box, TURNS, lambda k, turns: codes[k, turns])
    for game in range(TURNS):
        record = play_turn(rules, turn_rolls(seed, game, 0, 0), solution)
        assert ended[game] == record.open_mask


def test_the_table_folds_in_the_dice_choice_and_the_forced_moves() -> None:
    rules = Rules()
    asked = []

    def first_legal(mask: int, throw: tuple[int, ...]) -> int:
        asked.append((mask, throw))
        return move_table(rules).moves(mask, throw)[0]

    table = turn_table(rules, first_legal, lambda mask: 1)  # one die whenever the rules allow it
    low = 0b000111111  # 7, 8 and 9 shut: one die, so only the first die counts
    for first in range(1, 7):
        row = table[low, 6 * (first - 1) : 6 * first]
        assert (row == row[0]).all()
    assert table[rules.full_box, 0] == rules.full_box & ~0b10  # 1+1 on a full box: 2 is the only set
    assert (table[0b100, 12:18] == 0).all()  # only 3 open, one die showing 3: shut
    assert table[0b100, 0] == END  # one die showing 1: the turn ends
    assert asked and all(len(move_table(rules).moves(mask, throw)) > 1 for mask, throw in asked)


PLAYERS = [solve_expected_score, solve_shut]


@pytest.mark.slow
@settings(max_examples=40)
@given(rules=st.from_type(Rules), seats=st.integers(1, 4), seed=st.integers(0, 2**32))
def test_bulk_games_come_out_as_the_general_engine_plays_them(rules: Rules, seats: int, seed: int) -> None:
    games = 60
    policies = [PLAYERS[seat % 2](rules) for seat in range(seats)]

    def turn(seat: int, number: int, game: int) -> TurnRecord:
        return play_turn(rules, turn_rolls(seed, game, number, seat), policies[seat])

    def seat_turns(seat: int, number: int, index: np.ndarray) -> np.ndarray:
        return np.array([turn(seat, number, int(game)).open_mask for game in index], dtype=np.int16)

    share = math.lcm(*range(1, seats + 1))
    found = play_games(rules, seats, games, share, seat_turns)
    for game in range(games):
        record = play_game(rules, seats, lambda context, game=game: turn(context.seat, context.round, game))
        for seat in range(seats):
            regular = [r.turns[seat] for r in record.rounds if not r.playoff and r.turns[seat] is not None]
            assert found.wins[seat, game] == (share // len(record.winners) if seat in record.winners else 0)
            assert found.turns[seat, game] == len(regular)
            assert found.score_sum[seat, game] == sum(t.score for t in regular)
            assert found.score_squares[seat, game] == sum(t.score**2 for t in regular)
            assert found.shut_boxes[seat, game] == sum(t.shut_box for t in regular)
            assert found.totals[seat, game] == record.totals[seat]
            assert found.out_after[seat, game] == (-1 if record.out_after[seat] is None else record.out_after[seat])


@pytest.mark.slow
@settings(max_examples=25)
@given(rules=st.from_type(Rules), name=st.sampled_from(["optimal", "greedy-high", "tips", "lowest-first"]))
def test_a_strategy_tabulated_by_throw_gives_the_same_turn_table(rules: Rules, name: str) -> None:
    player = StrategyPlayer(load_strategy(name).make(), rules)
    policy = player.policy
    after = np.frombuffer(policy.next_mask, dtype=np.int16).reshape(rules.full_box + 1, -1)
    found = turn_table_of(after, np.frombuffer(policy.dice, dtype=np.uint8))
    assert (found == turn_table(rules, player.move_policy, player.dice_policy)).all()
