"""What a person plays for in the game in hand, and what each choice is worth to it.

Against other players a turn is worth its chance to win the game (`strategies.winning` weighs
every score this turn can end with against the posted scores, the players still to play, the tie
rule and the instant win; the solver finds the best play for those chances). In a drop-out game
without that figure, and alone in one, it is the chance to stay in; alone otherwise, or where no
score changes the chance to win, the expected final score. The hint ranks by it and the coach
counts what a choice cost in it; where it is the same for every choice (staying in is certain
whatever the move, the game is won whatever the move), both go by the expected final score.
"""

from __future__ import annotations

import dataclasses
import enum
from functools import lru_cache

from shutbox_cli.game.terms import Mask
from strategies.runner import win_chances

from ...game import Rules, Solution, TurnContext, score, solve_beat, solve_expected_score
from ...game.solver import solve_utility

SAME = 1e-9
"""Values closer than this are the same value (they differ by rounding only)."""


class Goal(enum.Enum):
    """What a value measures: a chance to win, a chance to stay in, or an expected score."""

    WIN = "win"
    STAY_IN = "stay in"
    SCORE = "score"

    @property
    def chance(self) -> bool:
        return self is not Goal.SCORE


def percent(chance: float, width: int = 0) -> str:
    """A chance for a player: `11.2%`, right-aligned in `width` characters."""
    return f"{100 * chance:.1f}%".rjust(width)


def number(goal: Goal, value: float, width: int = 0) -> str:
    """A value as a number: `11.2%` for a chance, `9.14` for an expected score, right-aligned in `width`."""
    return percent(value, width) if goal.chance else f"{value:{width}.2f}"


def worth(goal: Goal, value: float, width: int = 0) -> str:
    """A value in words: `wins 11.2% of the time`, `stays in 80.0% of the time`, `expected final score 9.14`;
    `width` right-aligns the number, for a column of them."""
    if goal is Goal.WIN:
        return f"wins {number(goal, value, width)} of the time"
    if goal is Goal.STAY_IN:
        return f"stays in {number(goal, value, width)} of the time"
    return f"expected final score {number(goal, value, width)}"


def cost_text(goal: Goal, cost: float) -> str:
    """What a choice cost: `2.1 points of win chance`, `1.25 points of expected score`; a cost too
    small for the last digit shown, `less than 0.1 points of win chance`."""
    if goal is Goal.SCORE:
        return f"{cost:.2f} points of expected score" if cost >= 0.005 else "less than 0.01 points of expected score"
    points = f"{100 * cost:.1f}" if 100 * cost >= 0.05 else "less than 0.1"
    return f"{points} points of {'win chance' if goal is Goal.WIN else 'the chance to stay in'}"


@dataclasses.dataclass(frozen=True)
class Choice:
    """A move (a mask) or a number of dice, with its value and its expected final score."""

    pick: int
    value: float
    expected: float


def _sorted(goal: Goal, choices: list[Choice]) -> tuple[Choice, ...]:
    """Best first; values within SAME are equal: ranked on a grid of that size, then by expected score."""
    sign = -1.0 if goal.chance else 1.0
    return tuple(sorted(choices, key=lambda choice: (round(sign * choice.value / SAME), choice.expected)))


@dataclasses.dataclass(frozen=True)
class Ranking:
    """Choices best first, by what they are ranked on: the goal of the turn, or (`even` given) the
    expected score, every choice being worth `even` in the goal of the turn, `even_goal`."""

    goal: Goal
    choices: tuple[Choice, ...]
    even_goal: Goal | None = None
    even: float | None = None

    @property
    def best(self) -> Choice:
        return self.choices[0]

    def choice(self, pick: int) -> Choice:
        """The choice of this move (or number of dice)."""
        return next(choice for choice in self.choices if choice.pick == pick)

    def cost(self, chosen: Choice) -> float:
        """What taking `chosen` rather than the best gave up (0 for an equal choice)."""
        best = self.best
        lost = best.value - chosen.value if self.goal.chance else chosen.value - best.value
        return lost if lost > SAME else 0.0


@dataclasses.dataclass(frozen=True)
class Aim:
    """The goal of a turn and the best play for it; `stay_in` (drop-out against others) gives the
    chance to stay in beside the chance to win; `note` says why the goal is what it is."""

    goal: Goal
    solution: Solution
    stay_in: Solution | None = None
    note: str | None = None

    @property
    def rules(self) -> Rules:
        return self.solution.rules

    def ranked_moves(self, open_mask: Mask, dice: tuple[int, ...]) -> Ranking:
        """Every legal move for a throw, best first."""
        expected = solve_expected_score(self.rules).move_values(open_mask, dice)
        values = self.solution.move_values(open_mask, dice)
        return self._ranked([Choice(move, values[move], expected[move]) for move in values])

    def ranked_dice(self, open_mask: Mask) -> Ranking:
        """Each allowed number of dice, best first."""
        expected = solve_expected_score(self.rules).dice_values(open_mask)
        values = self.solution.dice_values(open_mask)
        return self._ranked([Choice(count, values[count], expected[count]) for count in values])

    def _ranked(self, choices: list[Choice]) -> Ranking:
        """The choices ranked by the goal of the turn (of equal ones, the lower expected score first); where
        that goal cannot tell them apart (staying in is certain whatever the move), by the expected score."""
        values = [choice.value for choice in choices]
        if self.goal.chance and len(choices) > 1 and max(values) - min(values) < SAME:
            by_score = [Choice(choice.pick, choice.expected, choice.expected) for choice in choices]
            return Ranking(Goal.SCORE, _sorted(Goal.SCORE, by_score), self.goal, values[0])
        return Ranking(self.goal, _sorted(self.goal, choices))

    def stay_in_after(self, open_mask: Mask) -> float | None:
        """The chance to stay in with these tiles open before the next roll (drop-out against others)."""
        return None if self.stay_in is None else self.stay_in.values[open_mask]


def keeps_in(rules: Rules, context: TurnContext) -> int | None:
    """The highest score that keeps the player in a drop-out game (None outside one; -1: none does)."""
    if rules.drop_out is None:
        return None
    return rules.drop_out - context.totals[context.player] - 1


def settled_chance(rules: Rules, context: TurnContext) -> float | None:
    """The player's chance to win when this turn is all that is left to chance (every rival has played
    this round, and no later round can change a thing) and no score it can end with changes it: 1.0,
    the game is decided in its favour, 0.0, it cannot win. None otherwise."""
    rivals = [player for player, active in enumerate(context.active) if active and player != context.player]
    if not rivals or any(context.scores[player] is None for player in rivals):
        return None
    limit = rules.drop_out
    if limit is not None and any(context.totals[p] + (context.scores[p] or 0) < limit for p in rivals):
        return None  # a rival stays in: the game goes on unless this player goes out
    found = win_chances(rules, context)
    if found is None or not found.settled or max(found.chances) - min(found.chances) >= SAME:
        return None
    return found.chances[0]


@lru_cache(maxsize=256)
def aim_for(rules: Rules, context: TurnContext) -> Aim:
    """What the player of `context` plays for this turn, and the best play for it."""
    turn_rules = rules.turn_rules
    stay_in = _stay_in(rules, context)
    found = win_chances(rules, context)
    if found is not None and max(found.chances) - min(found.chances) >= SAME:
        by_score = found.by_score
        utility = tuple(by_score[score(turn_rules, mask)] for mask in range(turn_rules.full_box + 1))
        return Aim(Goal.WIN, solve_utility(turn_rules, "win", utility), stay_in)
    if stay_in is not None and max(stay_in.terminal) - min(stay_in.terminal) >= SAME:
        return Aim(Goal.STAY_IN, stay_in)
    note = None
    if found is not None:
        note = f"Nothing this turn changes the chance to win ({percent(found.chances[0])}): the hint aims low."
    elif rules.rounds > 1 and not context.playoff and sum(context.active) > 1:
        note = "Before the last round a low total is what counts: the hint aims at the lowest expected score."
    return Aim(Goal.SCORE, solve_expected_score(turn_rules), note=note)


def _stay_in(rules: Rules, context: TurnContext) -> Solution | None:
    """The best play for staying in a drop-out game this round (None outside one, or in a playoff)."""
    highest = keeps_in(rules, context)
    if highest is None or context.playoff:
        return None
    return solve_beat(rules, highest + 1)
