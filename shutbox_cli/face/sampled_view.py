"""`shutbox explain` of a strategy explained on sampled states (it reads the context without a key,
or plays at random), for people: how it was sampled and its estimates with their 95% intervals;
`explain_view` draws the rest, as for an exact explanation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .literal import literal

if TYPE_CHECKING:
    from rich.console import Console

    from tournaments import SampledExplanation


def show_sampled(console: Console, found: SampledExplanation) -> None:
    """The lines that say how the states were sampled, and the estimates."""
    from .describe import TURN_OPTIONS, rules_in_short

    how = "drawn; pass --seed to repeat" if found.seed_drawn else "given"
    console.print(
        f"[bold]{literal(found.strategy)}[/bold] alone: its expected score over a turn, "
        f"sampled ({found.games:,} games, seed {found.seed}, {how})."
    )
    console.print(f"Rules for a turn: {rules_in_short(found.rules, TURN_OPTIONS)}.")
    console.print(
        "Its choices hang on more than the box and the roll, so the states are those it met in the games: "
        "each cost is exact, reach is how often a game met the state."
    )
    low, high = found.value_interval
    gap_low, gap_high = found.gap_interval
    console.print(
        f"Expected score [bold]{found.value:.4f}[/bold] (95% CI {low:.4f} to {high:.4f}); best play (optimal) "
        f"{found.best:.9g}, exactly; gap [bold]{found.gap:.4f}[/bold] points (95% CI {gap_low:.4f} to {gap_high:.4f})."
    )
