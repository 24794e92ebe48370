"""The built-in strategies: each plays as its description says, legally, under every rule set."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutbox_cli.game import (
    Rules,
    distribution,
    legal_moves,
    play_game,
    play_turn,
    score,
    solve_expected_score,
    solve_shut,
    solver,
    tiles_of,
    turn_rolls,
)
from strategies.base import SOLO_CONTEXT
from strategies.builtin import FewestTiles, GreedyHigh, LowestFirst, MostTiles, RandomMove, Tips
from strategies.loading import LoadedStrategy, StrategyLoadError, load_strategy
from strategies.names import BUILTINS
from strategies.player import StrategyPlayer
from strategies.solved import MaxShut, Optimal

from helpers.strategy_helpers import move, policies, view

STANDARD = Rules()


@pytest.mark.parametrize("name", BUILTINS)
def test_every_builtin_has_its_name_and_a_one_line_description(name: str) -> None:
    cls = load_strategy(name).cls
    assert cls.name == name
    assert cls.description.endswith(".") and "\n" not in cls.description


class TestGreedyHigh:
    def test_takes_the_higher_next_tile_when_highest_tile_and_size_tie(self) -> None:
        # RULES.md: 12 from 6,5,1 rather than 6,4,2 (no 12, no 9+3... on this box).
        assert move(GreedyHigh(), STANDARD, (1, 2, 4, 5, 6), (6, 6)) == (1, 5, 6)

    def test_shuts_the_highest_tile_with_as_few_others_as_possible(self) -> None:
        assert move(GreedyHigh(), STANDARD, tuple(range(1, 10)), (6, 6)) == (3, 9)
        assert move(GreedyHigh(), STANDARD, tuple(range(1, 10)), (4, 5)) == (9,)
        assert move(GreedyHigh(), STANDARD, (1, 2, 3, 4, 6, 7), (6, 6)) == (1, 4, 7)

    def test_rolls_one_die_as_soon_as_the_rules_allow(self) -> None:
        assert GreedyHigh().choose_dice(view(STANDARD, (1, 2, 3, 4, 5, 6), None)) == 1
        low_sum = Rules(tiles=12)
        assert GreedyHigh().choose_dice(view(low_sum, (1, 5), None)) == 1


class TestRulesOfThumb:
    FULL = tuple(range(1, 10))

    def test_fewest_tiles_takes_a_single_tile_or_the_higher_pair(self) -> None:
        assert move(FewestTiles(), STANDARD, self.FULL, (4, 5)) == (9,)
        assert move(FewestTiles(), STANDARD, self.FULL, (5, 5)) == (1, 9)

    def test_most_tiles_takes_the_longest_set_and_the_higher_on_a_tie(self) -> None:
        assert move(MostTiles(), STANDARD, self.FULL, (4, 6)) == (1, 2, 3, 4)
        assert move(MostTiles(), STANDARD, self.FULL, (4, 5)) == (1, 2, 6)

    def test_lowest_first_keeps_the_high_tiles_for_later(self) -> None:
        assert move(LowestFirst(), STANDARD, self.FULL, (4, 5)) == (2, 3, 4)  # most-tiles: 1+2+6
        assert move(LowestFirst(), STANDARD, self.FULL, (3, 4)) == (1, 2, 4)  # 4 is the highest of 3+4 too
        assert move(LowestFirst(), STANDARD, (1, 2, 7, 8, 9), (4, 5)) == (2, 7)

    def test_tips_shut_the_high_tiles_early(self) -> None:
        assert move(Tips(), STANDARD, self.FULL, (5, 5)) == (1, 9)  # a high tile even at the cost of the 1
        assert move(Tips(), STANDARD, self.FULL, (5, 6)) == (4, 7)  # a pair without low tiles

    def test_tips_prefer_a_single_tile_then_keep_1_2_3_standing(self) -> None:
        assert move(Tips(), STANDARD, (1, 2, 3, 4, 5, 6), (3, 3)) == (6,)
        assert move(Tips(), STANDARD, (3, 4, 5, 6), (4, 5)) == (4, 5)  # not 3+6

    def test_the_rules_of_thumb_roll_one_die_at_an_open_total_of_six_or_less(self) -> None:
        for strategy in (FewestTiles(), MostTiles(), LowestFirst(), Tips()):
            assert strategy.choose_dice(view(STANDARD, (1, 2, 3), None)) == 1
            assert strategy.choose_dice(view(STANDARD, (1, 2, 4), None)) == 2


class TestSolved:
    def test_optimal_has_the_lowest_expected_score(self) -> None:
        found = distribution(STANDARD, *policies(Optimal(), STANDARD))
        assert found.expected_score == pytest.approx(11.0092086, abs=5e-8)
        assert found.expected_score == pytest.approx(solve_expected_score(STANDARD).value, rel=1e-12)

    def test_max_shut_has_the_highest_chance_to_shut_the_box(self) -> None:
        found = distribution(STANDARD, *policies(MaxShut(), STANDARD))
        assert found.shut_probability == pytest.approx(0.0976137, abs=5e-8)

    @pytest.mark.parametrize(
        "rules",
        [
            pytest.param(Rules(tiles=12), marks=pytest.mark.slow),
            Rules(tiles=10, one_die_mode="compulsory", scoring="count"),
            Rules(shut_rule="dice-or-total", first_roll="2-to-go"),
        ],
    )
    def test_they_follow_the_rules_in_force_one_die_choice_included(self, rules: Rules) -> None:
        assert distribution(rules, *policies(Optimal(), rules)).expected_score == pytest.approx(
            solve_expected_score(rules).value, rel=1e-12
        )
        assert distribution(rules, *policies(MaxShut(), rules)).shut_probability == pytest.approx(
            solve_shut(rules).value, rel=1e-12
        )

    @pytest.mark.parametrize("name", ["optimal", "max-shut", "target"])
    def test_they_do_not_solve_again_for_each_decision(self, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
        rules = Rules(tiles=11)
        decisions = []  # the choices of 50 optimal turns
        for game in range(50):
            open_mask = rules.full_box
            for roll in play_turn(rules, turn_rolls(1, game, 0, 0), solve_expected_score(rules)).rolls:
                dice = tuple(sorted(roll.dice))
                if len(legal_moves(rules, open_mask, dice)) > 1:
                    decisions.append((open_mask, dice))
                open_mask &= ~roll.shut
        loaded = load_strategy(name)  # loaded once: each load reads every installed package's entry points
        move(loaded.make(), rules, tiles_of(decisions[0][0]), decisions[0][1])
        solves = []
        monkeypatch.setattr(solver, "_solve", lambda *args, **kwargs: solves.append(args))
        for open_mask, dice in decisions:  # a fresh instance every time: nothing of its own to lean on
            move(loaded.make(), rules, tiles_of(open_mask), dice)
        assert len(decisions) > 50 and solves == []


def test_random_plays_every_legal_move_and_is_repeatable_per_seed() -> None:
    player = StrategyPlayer(RandomMove(), STANDARD)

    def first_moves(seed: int) -> list[tuple[int, ...]]:
        found = []
        for game in range(200):
            player.start_turn(SOLO_CONTEXT, seed, game)
            turn = play_turn(STANDARD, iter([(4, 5)] + [(1, 1)] * 20), player)
            found.append(turn.rolls[0].shut_tiles)
        return found

    assert first_moves(1) == first_moves(1) != first_moves(2)
    assert set(first_moves(1)) == {(9,), (1, 8), (2, 7), (3, 6), (4, 5), (1, 2, 6), (1, 3, 5), (2, 3, 4)}


@functools.cache
def builtins_loaded() -> tuple[LoadedStrategy, ...]:
    """Every built-in, loaded once for all examples: a load reads every installed package's entry points."""
    return tuple(load_strategy(name) for name in BUILTINS)


@pytest.mark.slow
@settings(max_examples=25)
@given(rules=st.from_type(Rules), seed=st.integers(0, 2**32), players=st.integers(1, 3))
def test_every_builtin_plays_whole_games_legally_under_any_rules(rules: Rules, seed: int, players: int) -> None:
    for loaded in builtins_loaded():
        try:
            loaded.cls.key_under(rules)
        except StrategyLoadError as refused:  # perfect over several rounds: refused before play, in one sentence
            assert str(refused).endswith(".") and "\n" not in str(refused), str(refused)
            continue
        seated = [StrategyPlayer(loaded.make(), rules, params=loaded.params) for _ in range(players)]

        def play(context, seated=seated):  # type: ignore[no-untyped-def]
            player = seated[context.player].start_turn(context, seed, 0)
            return play_turn(rules, turn_rolls(seed, 0, context.round, context.seat), player)

        record = play_game(rules, players, play)  # a StrategyError here fails the test
        for round_ in record.rounds:
            for turn in filter(None, round_.turns):
                open_mask = rules.full_box
                for roll in turn.rolls:  # every shut was a legal move, and only a dead roll ended the turn
                    legal = legal_moves(rules, open_mask, tuple(sorted(roll.dice)))
                    assert roll.shut in legal if roll.shut else not legal
                    open_mask &= ~roll.shut
                assert (open_mask, turn.score) == (turn.open_mask, score(rules, open_mask))
