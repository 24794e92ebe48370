"""The coach: every choice a person made, the best one, and what theirs cost (in the goal the hint
ranks by: a chance to win, to stay in, or the expected score). After a game, a summary (how many
choices were the best, the total cost, the costliest), the detail of each choice on request; and
for solo play the running record with a chart of the latest results."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence

from shutbox_cli.game.terms import Mask

from ...game import tiles_of
from .aims import Choice, Goal, Ranking, cost_text, worth
from .board import dice_count, dice_text, mask_text, possessive
from .record import Record

BARS = "▁▂▃▄▅▆▇█"
PLAIN_BARS = "_.-:=+*#"
"""The chart's bars from low to high, for a terminal that cannot show the block characters."""


class Coaching(enum.Enum):
    """When the coach speaks: never, after each game (a summary; the detail on request), or after each turn too."""

    OFF = "off"
    GAME = "game"
    TURN = "turn"


@dataclasses.dataclass(frozen=True)
class Decision:
    """One choice of a person's turn: a move for a throw, or (`dice` None) how many dice to roll."""

    round: int
    playoff: bool
    roll: int
    open_mask: Mask
    dice: tuple[int, ...] | None
    goal: Goal
    chosen: Choice
    best: Choice
    cost: float


def decide(
    ranking: Ranking, picked: int, where: tuple[int, bool, int], open_mask: Mask, dice: tuple[int, ...] | None
) -> Decision:
    """The decision to pick `picked` among the ranked choices; `where` is (round, playoff, roll)."""
    chosen = ranking.choice(picked)
    return Decision(*where, open_mask, dice, ranking.goal, chosen, ranking.best, ranking.cost(chosen))


def _what(decision: Decision, choice: Choice) -> str:
    if decision.dice is None:
        return dice_count(choice.pick)
    return mask_text(choice.pick)


def _took(decision: Decision) -> str:
    """What was taken: `one die`, `shut 2 + 4`."""
    what = _what(decision, decision.chosen)
    return what if decision.dice is None else f"shut {what}"


def _where(decision: Decision, rounds: bool) -> str:
    """`Roll 3`, or `Round 2, roll 3` in a game of rounds, `Playoff, roll 3` in a playoff."""
    if decision.playoff:
        return f"Playoff, roll {decision.roll}"
    return f"Round {decision.round + 1}, roll {decision.roll}" if rounds else f"Roll {decision.roll}"


def decision_line(decision: Decision, rounds: bool) -> str:
    """One choice in a sentence: what was open and thrown, what was taken, and the best if it was not that."""
    goal = decision.goal
    open_tiles = " ".join(map(str, tiles_of(decision.open_mask)))
    situation = f"open {open_tiles}" if decision.dice is None else f"open {open_tiles}; {dice_text(decision.dice)}"
    took = _took(decision)
    head = f"  {_where(decision, rounds)} ({situation}): {took}"
    if decision.cost == 0:
        return f"{head}, the best ({worth(goal, decision.chosen.value)})."
    return (
        f"{head} ({worth(goal, decision.chosen.value)}); best {_what(decision, decision.best)} "
        f"({worth(goal, decision.best.value)}): it cost {cost_text(goal, decision.cost)}."
    )


def costs_by_goal(decisions: Sequence[Decision]) -> dict[Goal, float]:
    """The total cost of some choices, in each goal they were measured in."""
    costs: dict[Goal, float] = {}
    for decision in decisions:
        costs[decision.goal] = costs.get(decision.goal, 0.0) + decision.cost
    return costs


def total_text(costs: dict[Goal, float]) -> str:
    """`2.1 points of win chance and 0.50 points of expected score`, or `0`."""
    parts = [cost_text(goal, cost) for goal, cost in costs.items() if cost > 0]
    return " and ".join(parts) if parts else "0"


def turn_lines(decisions: Sequence[Decision], rounds: bool) -> list[str]:
    """The coach after a turn (with --coach): each choice of it."""
    if not decisions:
        return []
    return ["Coach, this turn:", *(decision_line(decision, rounds) for decision in decisions)]


def detail_lines(name: str, decisions: Sequence[Decision], rounds: bool) -> list[str]:
    """The coach's detail of a game, on request: each choice, the best and what it cost."""
    if not decisions:
        return [f"Coach: {possessive(name)} game had no choices; every shut was forced."]
    return [
        f"Coach: {possessive(name)} choices this game, and what each cost against the best:",
        *(decision_line(decision, rounds) for decision in decisions),
    ]


def summary_lines(name: str, decisions: Sequence[Decision], rounds: bool) -> list[str]:
    """The coach after a game, in a line or two: how many choices were the best, what the others cost,
    and the costliest (the costliest in each kind of cost, where the game measured choices in several)."""
    whose = "your" if name == "You" else f"{name}'s"
    count = len(decisions)
    if not count:
        return [f"Coach: {whose} game had no choices; every shut was forced."]
    best = sum(decision.cost == 0 for decision in decisions)
    if best == count:
        every = {1: f"{whose} one choice was", 2: f"both of {whose} choices were"}.get(count)
        return [f"Coach: {every or f'all {count} of {whose} choices were'} the best."]
    others = count - best
    lines = [
        f"Coach: {best} of {whose} {count} choices {'was' if best == 1 else 'were'} the best; "
        f"the other{'' if others == 1 else f' {others}'} cost {total_text(costs_by_goal(decisions))}."
    ]
    named = [
        f"{_where(decision, rounds).lower()}, {_took(decision)} ({cost_text(decision.goal, decision.cost)})"
        for decision in costliest(decisions)
    ]
    lines.append(f"Costliest: {' and '.join(named)}.")
    return lines


def costliest(decisions: Sequence[Decision]) -> list[Decision]:
    """The two costliest choices where every cost is of one kind; where they are of several (a chance
    and a score cannot be weighed against each other), the costliest of each kind, in the order made."""
    by_goal: dict[Goal, list[Decision]] = {goal: [] for goal in Goal}
    for decision in sorted(decisions, key=lambda decision: -decision.cost):
        if decision.cost > 0:
            by_goal[decision.goal].append(decision)
    kinds = [found for found in by_goal.values() if found]
    if len(kinds) == 1:
        return kinds[0][:2]
    return sorted((found[0] for found in kinds), key=decisions.index)


def record_lines(record: Record, measure: str, unicode: bool) -> list[str]:
    """The solo record: games, the mean result and cost, and a chart of the latest results."""
    games = f"{record.games} game{'' if record.games == 1 else 's'}"
    costs = {goal: cost / record.games for goal, cost in record.costs.items()}
    lines = [
        f"Your record with these rules: {games}, mean {measure} {record.mean_result:.2f}, "
        f"mean cost per game {total_text(costs)}."
    ]
    recent = record.recent
    if len(recent) > 1:
        lines.append(
            f"Latest {len(recent)} ({measure}, oldest first): {chart(recent, BARS if unicode else PLAIN_BARS)}  "
            f"lowest {min(recent)}, highest {max(recent)}, last {recent[-1]}."
        )
    return lines


def chart(values: Sequence[int], bars: str) -> str:
    """Values as a row of bars, from 0 (the lowest bar) up to the highest value (the highest)."""
    top = max(max(values), 1)
    return "".join(bars[round(value * (len(bars) - 1) / top)] for value in values)
