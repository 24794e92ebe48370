"""The `h` key: the best move (or number of dice) for the game in hand, and what each choice is worth."""

from __future__ import annotations

from .aims import Aim, Choice, Goal, number, percent, worth
from .board import dice_count, mask_text

_HEADINGS = {
    Goal.WIN: "Chance to win this game with each choice, with best play after it:",
    Goal.STAY_IN: "Chance to stay in with each choice, with best play after it:",
    Goal.SCORE: "Expected final score of each choice, with best play after it:",
}


def _figure(aim: Aim, choice: Choice, after: int, width: int) -> str:
    """A choice's value in words, its number right-aligned in `width`; in drop-out against others,
    the chance to stay in too."""
    text = worth(aim.goal, choice.value, width)
    stay_in = aim.stay_in_after(after)
    return text if stay_in is None else f"{text}, stays in {percent(stay_in, 6)}"


def move_hint(aim: Aim, open_mask: int, dice: tuple[int, ...]) -> list[str]:
    """The best move for a throw, then every legal move with its value, best first."""
    ranked = aim.ranked_moves(open_mask, dice)
    best = ranked[0]
    width = max(len(mask_text(choice.pick)) for choice in ranked)
    number_width = max(len(number(aim.goal, choice.value)) for choice in ranked)
    figures = [_figure(aim, choice, open_mask & ~choice.pick, number_width) for choice in ranked]
    figure_width = max(map(len, figures))
    lines = [f"Hint: shut {mask_text(best.pick)}. {_HEADINGS[aim.goal]}"]
    for choice, figure in zip(ranked, figures, strict=True):
        mark = "  best" if aim.cost(best, choice) == 0 else ""
        lines.append(f"  {mask_text(choice.pick):<{width}}  {figure:<{figure_width}}{mark}".rstrip())
    if aim.note:
        lines.append(aim.note)
    return lines


def dice_hint(aim: Aim, open_mask: int) -> list[str]:
    """Before a roll: how many dice to roll and what each is worth, or that there is nothing to choose."""
    ranked = aim.ranked_dice(open_mask)
    if len(ranked) == 1:
        lines = [f"Hint: nothing to choose yet; with best play this turn {worth(aim.goal, ranked[0].value)}."]
    else:
        best, other = ranked
        lines = [
            f"Hint: roll {dice_count(best.pick)} ({worth(aim.goal, best.value)}; "
            f"{dice_count(other.pick)}: {worth(aim.goal, other.value)})."
        ]
    if aim.note:
        lines.append(aim.note)
    return lines
