"""`target`: plays to win the game it is in, from the context, and exactly as well as the solver allows."""

from __future__ import annotations

import pytest

from shutbox_cli.game import (
    THROWS, Rules, TurnContext, dice_options, distribution, mask_of, move_table, solve_beat, solve_expected_score,
    solve_shut, tiles_of,
)
from strategies import Strategy, StrategyLoadError, load_strategy
from strategies.solved import Optimal, Target
from strategy_helpers import move, policies, view

STANDARD = Rules()
FULL = tuple(range(1, 10))


def context(*, player: int = 1, round_: int = 0, scores: tuple[int | None, ...] = (None, None),
            totals: tuple[int, ...] = (0, 0), playoff: bool = False) -> TurnContext:
    """The context of `player`, seated after the others, before it has played."""
    return TurnContext(player, player, round_, playoff, scores, totals, tuple(True for _ in scores))


def chance_below(rules: Rules, strategy: Target, shown: TurnContext, target: int) -> float:
    """The exact chance that the strategy, playing in this context, scores below `target`."""
    found = distribution(rules, *policies(strategy, rules, shown))
    return sum(chance for score, chance in found.probabilities.items() if score < target)


def same_play(rules: Rules, first: object, second: object, shown: TurnContext) -> bool:
    """Whether two strategies make the same decision in every state of a turn."""
    return distribution(rules, *policies(first, rules, shown)) == distribution(rules, *policies(second, rules, shown))


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


def aiming(rules: Rules, target: int) -> tuple[dict, dict]:
    """The choices that give the best chance of a score below `target` (a score a turn can end with),
    and among options within 1e-9 of it, the lowest expected score."""
    goal, expected = solve_beat(rules, target), solve_expected_score(rules)

    def surest(chances: dict[int, float], means: dict[int, float]) -> int:
        best = max(chances.values())
        return min((option for option in chances if chances[option] >= best - 1e-9), key=means.__getitem__)

    moves, dice = decisions(rules, Optimal(), context(player=0))
    return (
        {key: surest(goal.move_values(*key), expected.move_values(*key)) for key in moves},
        {mask: surest(goal.dice_values(mask), expected.dice_values(mask)) for mask in dice},
    )


@pytest.mark.parametrize(("rules", "shown"), [
    (STANDARD, context(player=0)),
    (Rules(instant_win=False, ties="seat"), context(scores=(0, None))),
    (Rules(rounds=3), context(round_=1, scores=(2, None), totals=(10, 30))),
    (Rules(drop_out=60), context(player=0, totals=(10, 10))),
], ids=["first-to-play", "zero-to-tie-by-seat", "before-the-last-round", "room-for-any-score"])
def test_with_no_goal_every_choice_is_the_optimal_one(rules: Rules, shown: TurnContext) -> None:
    assert decisions(rules, Target(), shown) == decisions(rules, Optimal(), shown)


@pytest.mark.parametrize(("rules", "shown", "target"), [
    (STANDARD, context(scores=(8, None)), 8),
    (Rules(drop_out=60), context(player=0, totals=(45, 10)), 15),
], ids=["one-round", "drop-out"])
def test_with_a_goal_every_choice_is_the_surest_and_then_the_lowest_scoring(
    rules: Rules, shown: TurnContext, target: int
) -> None:
    assert decisions(rules, Target(), shown) == aiming(rules, target)


def test_first_to_play_it_plays_optimal() -> None:
    assert same_play(STANDARD, Target(), Optimal(), context(player=0))
    assert move(Target(), STANDARD, FULL, (3, 3), context(player=0)) == move(Optimal(), STANDARD, FULL, (3, 3))


@pytest.mark.parametrize("posted", [3, 8, 15])
def test_in_one_round_it_maximises_the_chance_to_beat_the_posted_score(posted: int) -> None:
    shown = context(scores=(posted, None))
    assert chance_below(STANDARD, Target(), shown, posted) == pytest.approx(solve_beat(STANDARD, posted).value, abs=1e-12)
    assert chance_below(STANDARD, Optimal(), shown, posted) < solve_beat(STANDARD, posted).value - 1e-4


def test_it_beats_the_best_of_several_posted_scores() -> None:
    shown = TurnContext(2, 2, 0, False, (12, 7, None), (0, 0, 0), (True, True, True))
    assert chance_below(STANDARD, Target(), shown, 7) == pytest.approx(solve_beat(STANDARD, 7).value, abs=1e-12)


def test_a_posted_zero_can_only_be_tied_which_counts_unless_ties_go_by_seat() -> None:
    shared = Rules(instant_win=False)
    found = distribution(shared, *policies(Target(), shared, context(scores=(0, None))))
    assert found.shut_probability == pytest.approx(solve_shut(shared).value, abs=1e-12)
    by_seat = Rules(instant_win=False, ties="seat")
    assert same_play(by_seat, Target(), Optimal(), context(scores=(0, None)))


def test_scores_that_cannot_be_reached_set_the_same_goal_as_the_next_one_that_can() -> None:
    digits = Rules(scoring="digits")  # scores such as 129: most numbers are not a score
    shown = context(scores=(130, None))
    assert chance_below(digits, Target(), shown, 130) == pytest.approx(solve_beat(digits, 130).value, abs=1e-12)


class TestSeveralRounds:
    RULES = Rules(rounds=3)

    def test_before_the_last_round_it_plays_optimal(self) -> None:
        assert same_play(self.RULES, Target(), Optimal(), context(round_=1, scores=(2, None), totals=(10, 30)))

    def test_in_the_last_round_it_plays_to_finish_below_the_best_posted_total(self) -> None:
        shown = context(round_=2, scores=(9, None), totals=(20, 17))  # the other ends on 29: score below 12
        assert chance_below(self.RULES, Target(), shown, 12) == pytest.approx(solve_beat(self.RULES, 12).value, abs=1e-12)

    def test_when_it_cannot_win_any_more_it_plays_optimal(self) -> None:
        assert same_play(self.RULES, Target(), Optimal(), context(round_=2, scores=(5, None), totals=(10, 40)))

    def test_a_playoff_round_is_won_by_the_lower_score_of_that_round(self) -> None:
        shown = context(round_=3, scores=(6, None), totals=(30, 30), playoff=True)
        assert chance_below(self.RULES, Target(), shown, 6) == pytest.approx(solve_beat(self.RULES, 6).value, abs=1e-12)


class TestDropOut:
    RULES = Rules(drop_out=60)

    @pytest.mark.parametrize(("margin", "below"), [(0, 15), (5, 10), (15, 15), (40, 15)])
    def test_it_keeps_its_score_under_the_limit_less_the_margin(self, margin: int, below: int) -> None:
        shown = context(player=0, totals=(45, 10))  # 15 points of room
        assert chance_below(self.RULES, Target(margin), shown, below) == pytest.approx(
            solve_beat(self.RULES, below).value, abs=1e-12)

    def test_with_room_for_any_score_it_plays_optimal(self) -> None:
        assert same_play(self.RULES, Target(), Optimal(), context(player=0, totals=(10, 10)))

    def test_it_keeps_a_low_score_among_equally_safe_moves(self) -> None:
        shown = context(player=0, totals=(45, 10))
        rules = self.RULES
        found = distribution(rules, *policies(Target(), rules, shown))
        # The goal alone leaves many moves equal (any score under 15 will do); among those it takes the lowest mean.
        lazy = distribution(rules, solve_beat(rules, 15).best_move, solve_beat(rules, 15).best_dice)
        assert found.expected_score < lazy.expected_score
        assert found.expected_score >= solve_expected_score(rules).value


@pytest.mark.parametrize("spec", ["target(margin=-1)", "target(margin='2')", "target(margin=True)"])
def test_a_margin_that_is_not_a_whole_number_of_points_is_refused(spec: str) -> None:
    with pytest.raises(StrategyLoadError, match=r"could not be built: ValueError: margin must be a whole number"):
        load_strategy(spec)


def test_it_reads_context_so_it_is_simulated_not_tabulated() -> None:
    assert Target.reads_context and not Target.tabulable()
    assert load_strategy("target(margin=2)").name == "target(margin=2)"
