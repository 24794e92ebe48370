"""The `h` key: what the optimal strategy (lowest expected score) would do, and what each choice is worth."""

from __future__ import annotations

from ..game import Rules, solve_expected_score
from .board import dice_count, mask_text


def move_hint(rules: Rules, open_mask: int, dice: tuple[int, ...]) -> list[str]:
    """The best move for a roll, then every legal move with the expected score it leads to."""
    solution = solve_expected_score(rules)
    values = solution.move_values(open_mask, dice)
    best_move = solution.best_move(open_mask, dice)
    ranked = sorted(values.items(), key=lambda item: (item[0] != best_move, item[1]))
    width = max(len(mask_text(move)) for move in values)
    value_width = max(6, *(len(f"{value:.2f}") for value in values.values()))
    lines = [f"Hint: shut {mask_text(best_move)}. Expected final score of each choice, with best play after it:"]
    for move, value in ranked:
        mark = "  best" if move == best_move else ""
        lines.append(f"  {mask_text(move):<{width}}  {value:{value_width}.2f}{mark}")
    return lines


def dice_hint(rules: Rules, open_mask: int) -> str:
    """Before a roll: how many dice to roll, or that there is nothing to choose."""
    solution = solve_expected_score(rules)
    values = solution.dice_values(open_mask)
    if len(values) == 1:
        return f"Hint: nothing to choose yet; expected final score with best play: {solution.values[open_mask]:.2f}."
    best = solution.best_dice(open_mask)
    other = 2 if best == 1 else 1
    return (
        f"Hint: roll {dice_count(best)} (expected final score {values[best]:.2f}; "
        f"{dice_count(other)} {values[other]:.2f})."
    )
