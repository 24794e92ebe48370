"""`target`: plays for the highest chance to win the game in hand, worked out exactly from the context.

Win chances are checked against values worked out here by hand (or by a separate recursion),
and target's play through its exact score distributions, never by simulation.
"""

from __future__ import annotations

from functools import cache

import pytest

from shutbox_cli.game import (
    THROWS,
    Rules,
    TurnContext,
    dice_options,
    distribution,
    mask_of,
    move_table,
    score,
    solution_distribution,
    solve_expected_score,
    tiles_of,
)
from shutbox_cli.game.solver import solve_utility
from strategies import Strategy
from strategies.base import SOLO_CONTEXT
from strategies.loading import StrategyLoadError, load_strategy
from strategies.solved import Optimal, Target
from strategies.winning import win_chances

from helpers.strategy_helpers import policies, view

STANDARD = Rules()
HALF, THIRD = 1 / 2, 1 / 3


def context(
    *,
    player: int = 1,
    round_: int = 0,
    scores: tuple[int | None, ...] = (None, None),
    totals: tuple[int, ...] | None = None,
    playoff: bool = False,
) -> TurnContext:
    """The context of `player`, sitting in seat `player` (player 0 sits first), before it plays."""
    totals = totals or (0,) * len(scores)
    return TurnContext(player, player, round_, playoff, scores, totals, (True,) * len(scores))


def optimal_ends(rules: Rules) -> dict[int, float]:
    """The chance of each score of an optimal turn."""
    return solution_distribution(solve_expected_score(rules)).probabilities


def chances(rules: Rules, shown: TurnContext) -> dict[int, float]:
    found = win_chances(rules, shown)
    assert found is not None
    return found.by_score


def expected(rules: Rules, strategy: Strategy, shown: TurnContext, value: dict[int, float]) -> float:
    """The strategy's exact expected `value` of the score it ends its turn with, in this context."""
    ends = distribution(rules, *policies(strategy, rules, shown)).probabilities
    return sum(chance * value[points] for points, chance in ends.items())


def decisions(rules: Rules, strategy: Strategy, shown: TurnContext) -> tuple[dict, dict]:
    """Every choice the strategy makes in this context: its move for each box and throw with more
    than one, and its number of dice for each box where both are allowed."""
    table = move_table(rules)
    moves = {
        (mask, throw): mask_of(strategy.choose_move(view(rules, tiles_of(mask), throw, shown)))
        for mask in range(1, rules.full_box + 1)
        for throw in THROWS
        if len(table.moves(mask, throw)) > 1
    }
    dice = {
        mask: strategy.choose_dice(view(rules, tiles_of(mask), None, shown))
        for mask in range(1, rules.full_box + 1)
        if len(dice_options(rules, mask)) > 1
    }
    return moves, dice


def step(below: int, at: float, top: int = 45) -> dict[int, float]:
    """Win chances of a score to beat: 1 below `below`, `at` on it, 0 above."""
    return {points: 1.0 if points < below else at if points == below else 0.0 for points in range(top + 1)}


class TestOneRound:
    def test_last_to_play_it_must_beat_the_best_posted_score_and_a_tie_is_shared(self) -> None:
        shown = context(player=2, scores=(12, 8, None))
        assert chances(STANDARD, shown) == step(8, HALF)
        assert win_chances(STANDARD, shown).settled  # type: ignore[union-attr]

    def test_a_tie_among_three_is_a_third_of_a_win(self) -> None:
        assert chances(STANDARD, context(player=2, scores=(8, 8, None))) == step(8, THIRD)

    def test_under_ties_by_seat_a_tie_with_an_earlier_seat_loses(self) -> None:
        assert chances(Rules(ties="seat"), context(player=2, scores=(12, 8, None))) == step(8, 0.0)

    def test_first_to_play_it_must_beat_an_optimal_player_to_come_who_wins_at_once_by_shutting(self) -> None:
        other = optimal_ends(STANDARD)
        found = chances(STANDARD, context(player=0))
        assert found[0] == 1.0  # its own shut box wins at once
        for points in range(1, 46):  # the other's shut box (0) is below any of these
            above = sum(chance for theirs, chance in other.items() if theirs > points)
            assert found[points] == pytest.approx(above + other.get(points, 0.0) / 2, abs=1e-12)

    def test_without_the_instant_win_a_shut_box_may_be_tied(self) -> None:
        rules = Rules(instant_win=False)
        other = optimal_ends(rules)
        assert chances(rules, context(player=0))[0] == pytest.approx(1 - other[0] / 2, abs=1e-12)

    def test_between_a_posted_score_and_a_player_to_come_ties_count_by_how_many_share_them(self) -> None:
        other = optimal_ends(STANDARD)
        found = chances(STANDARD, context(player=1, scores=(8, None, None)))
        assert found[5] == pytest.approx(sum(c for s, c in other.items() if s > 5) + other[5] / 2, abs=1e-12)
        assert found[8] == pytest.approx(sum(c for s, c in other.items() if s > 8) / 2 + other[8] / 3, abs=1e-12)
        assert found[9] == 0.0


class TestSeveralRounds:
    RULES = Rules(rounds=3)

    def test_in_the_last_round_it_compares_final_totals(self) -> None:
        shown = context(round_=2, scores=(9, None), totals=(17, 20))  # the other ends on 26: 6 to tie
        assert chances(self.RULES, shown) == step(6, HALF)

    def test_before_the_last_round_it_has_nothing_to_weigh_and_plays_optimal(self) -> None:
        shown = context(round_=1, scores=(2, None), totals=(10, 30))
        assert win_chances(self.RULES, shown) is None
        assert decisions(self.RULES, Target(), shown) == decisions(self.RULES, Optimal(), shown)

    def test_a_playoff_round_is_won_by_the_lower_score_of_that_round(self) -> None:
        shown = context(round_=3, scores=(6, None), totals=(30, 30), playoff=True)
        assert chances(self.RULES, shown) == step(6, HALF)


class TestDropOut:
    RULES = Rules(drop_out=45)

    def test_last_to_play_with_everyone_else_out_it_wins_by_staying_in_or_going_out_lowest(self) -> None:
        shown = context(player=2, scores=(10, 14, None), totals=(40, 38, 30))  # out on 50 and 52; 15 points of room
        found = win_chances(self.RULES, shown)
        assert found is not None and found.settled
        assert found.by_score == step(20, HALF)  # under 15 it stays in; 15 to 19 it goes out lowest; 20 ties on 50
        assert chances(Rules(drop_out=45, ties="seat"), shown) == step(20, 0.0)

    @pytest.mark.slow
    def test_last_to_play_going_out_loses_while_anyone_else_stays_in(self) -> None:
        found = chances(self.RULES, context(player=2, scores=(10, 2, None), totals=(40, 38, 30)))  # 40 stays in
        assert all(found[points] == pytest.approx(0.0, abs=1e-12) for points in range(15, 46))
        assert all(found[points] > found[points + 1] for points in range(14))

    @pytest.mark.parametrize("ties", ["share", "seat"])
    @pytest.mark.parametrize(
        ("player", "scores", "totals"),
        [
            (1, (5, None), (6, 9)),  # last to play: the other has 11 and stays in
            (0, (None, None), (9, 8)),  # first to play: the other is still to come
        ],
        ids=["last-to-play", "first-to-play"],
    )
    def test_with_one_other_player_the_chances_are_exact(
        self, ties: str, player: int, scores: tuple, totals: tuple
    ) -> None:
        rules = Rules(tiles=5, drop_out=20, ties=ties)
        other = optimal_ends(rules)
        mine, theirs = totals[player], totals[1 - player]
        tie = {"share": HALF, "seat": 1.0 if player == 0 else 0.0}[ties]  # the first seat wins a tie by seat
        wins = two_player_drop_out(rules, other, tie)
        found = chances(rules, context(player=player, scores=scores, totals=totals))
        for points in found:
            if scores[1 - player] is None:
                exact = sum(chance * wins(mine + points, theirs + next_) for next_, chance in other.items())
            else:
                exact = wins(mine + points, theirs + scores[1 - player])
            assert found[points] == pytest.approx(exact, abs=1e-8)

    @pytest.mark.slow
    def test_margin_counts_its_own_total_that_many_points_higher(self) -> None:
        def at(total: int) -> TurnContext:
            return context(player=0, totals=(total, 30))

        assert decisions(self.RULES, Target(margin=5), at(30)) == decisions(self.RULES, Target(), at(35))
        assert decisions(self.RULES, Target(margin=5), at(30)) != decisions(self.RULES, Target(), at(30))

    def test_where_chance_is_left_it_plays_better_than_optimal_for_its_chances(self) -> None:
        shown = context(scores=(0, None), totals=(44, 41))  # 4 points of room; the other stays in with 1
        value = chances(self.RULES, shown)
        assert expected(self.RULES, Target(), shown, value) > expected(self.RULES, Optimal(), shown, value) + 0.003


def two_player_drop_out(rules: Rules, other: dict[int, float], tie: float):
    """By a separate recursion: the chance that the first of two players, both playing optimal from
    their totals after a round, wins a drop-out game; `tie` is its share of a tie."""
    limit = rules.drop_out

    def settle(mine: int, theirs: int) -> float:
        if mine >= limit:
            return 0.0 if theirs < limit or theirs < mine else tie if theirs == mine else 1.0
        return 1.0 if theirs >= limit else next_round(mine, theirs)

    @cache
    def next_round(mine: int, theirs: int) -> float:
        both_shut = other.get(0, 0.0) ** 2  # a round of two shut boxes leaves the totals as they were
        rest = sum(a * b * settle(mine + x, theirs + y) for x, a in other.items() for y, b in other.items() if x or y)
        return rest / (1 - both_shut)

    return settle


class TestNoInformation:
    @pytest.mark.parametrize(
        ("rules", "shown"),
        [
            (STANDARD, SOLO_CONTEXT),
            (Rules(drop_out=45), SOLO_CONTEXT),
            (Rules(drop_out=45), context(player=1, scores=(44, None), totals=(45 - 1, 10))),  # out above its reach
        ],
        ids=["solo", "solo-drop-out", "cannot-change-the-result"],
    )
    def test_it_plays_exactly_like_optimal(self, rules: Rules, shown: TurnContext) -> None:
        assert decisions(rules, Target(), shown) == decisions(rules, Optimal(), shown)


def test_when_only_its_turn_is_left_to_chance_it_plays_the_exact_best_policy() -> None:
    shown = context(player=2, scores=(12, 8, None))
    value = step(8, HALF)
    best = solve_utility(STANDARD, "beat-8", tuple(value[score(STANDARD, mask)] for mask in range(512))).value
    assert expected(STANDARD, Target(), shown, value) == pytest.approx(best, abs=1e-6)  # 1e-6: its tie-break
    assert expected(STANDARD, Optimal(), shown, value) < best - 0.005


@pytest.mark.slow
def test_second_to_play_in_a_two_player_game_it_wins_more_often_than_optimal() -> None:
    first = optimal_ends(STANDARD)  # an optimal first player posts each score this often; a shut box wins at once
    won = {name: 0.0 for name in ("target", "optimal")}
    for posted, chance in first.items():
        if posted:
            shown, value = context(scores=(posted, None)), step(posted, HALF)
            won["target"] += chance * expected(STANDARD, Target(), shown, value)
            won["optimal"] += chance * expected(STANDARD, Optimal(), shown, value)
    assert won["target"] > won["optimal"] + 0.003  # 0.4988 against 0.4953


@pytest.mark.parametrize("spec", ["target(margin=-1)", "target(margin='2')", "target(margin=True)"])
def test_a_margin_that_is_not_a_whole_number_of_points_is_refused(spec: str) -> None:
    with pytest.raises(StrategyLoadError, match=r"could not be built: ValueError: margin must be a whole number"):
        load_strategy(spec)


def test_it_reads_context_so_it_is_simulated_not_tabulated() -> None:
    assert Target.reads_context and not Target.tabulable()
    assert load_strategy("target(margin=2)").name == "target(margin=2)"
