"""The `h` key: the best move (or number of dice) for the game in hand, and what each choice is worth."""

from __future__ import annotations

from shutbox_cli.game.terms import Mask

from .aims import Aim, Choice, Goal, Ranking, number, percent, worth
from .board import dice_count, mask_text

_HEADINGS = {
    Goal.WIN: "Chance to win this game with each choice, with best play after it:",
    Goal.STAY_IN: "Chance to stay in with each choice, with best play after it:",
    Goal.SCORE: "Expected final score of each choice, with best play after it:",
}


def _heading(ranking: Ranking) -> str:
    """What the rows show: the goal of the turn, or why they show the expected score instead."""
    if ranking.even_goal is None or ranking.even is None:
        return _HEADINGS[ranking.goal]
    return (
        f"Every choice {worth(ranking.even_goal, ranking.even)}, so they are ranked by expected final score, "
        "with best play after it:"
    )


def _figure(aim: Aim, ranking: Ranking, choice: Choice, after: int, width: int) -> str:
    """A choice's value in words, its number right-aligned in `width`; in drop-out against others,
    ranked by the chance to win, the chance to stay in too."""
    text = worth(ranking.goal, choice.value, width)
    stay_in = aim.stay_in_after(after) if ranking.goal is aim.goal else None
    return text if stay_in is None else f"{text}, stays in {percent(stay_in, 6)}"


def move_hint(aim: Aim, open_mask: Mask, dice: tuple[int, ...]) -> list[str]:
    """The best move for a throw, then every legal move with its value, best first."""
    ranking = aim.ranked_moves(open_mask, dice)
    ranked = ranking.choices
    width = max(len(mask_text(choice.pick)) for choice in ranked)
    number_width = max(len(number(ranking.goal, choice.value)) for choice in ranked)
    figures = [_figure(aim, ranking, choice, open_mask & ~choice.pick, number_width) for choice in ranked]
    figure_width = max(map(len, figures))
    lines = [f"Hint: shut {mask_text(ranking.best.pick)}. {_heading(ranking)}"]
    for choice, figure in zip(ranked, figures, strict=True):
        mark = "  best" if ranking.cost(choice) == 0 else ""
        lines.append(f"  {mask_text(choice.pick):<{width}}  {figure:<{figure_width}}{mark}".rstrip())
    if aim.note:
        lines.append(aim.note)
    return lines


def dice_hint(aim: Aim, open_mask: Mask) -> list[str]:
    """Before a roll: how many dice to roll and what each is worth, or that there is nothing to choose."""
    ranking = aim.ranked_dice(open_mask)
    if len(ranking.choices) == 1:
        lines = [f"Hint: nothing to choose yet; with best play this turn {worth(aim.goal, ranking.best.value)}."]
    else:
        best, other = ranking.choices
        goal = ranking.goal
        lines = [
            f"Hint: roll {dice_count(best.pick)} ({worth(goal, best.value)}; "
            f"{dice_count(other.pick)}: {worth(goal, other.value)})."
        ]
        if ranking.even_goal is not None and ranking.even is not None:
            lines.append(f"Either {worth(ranking.even_goal, ranking.even)}: the hint ranks by expected final score.")
    if aim.note:
        lines.append(aim.note)
    return lines
