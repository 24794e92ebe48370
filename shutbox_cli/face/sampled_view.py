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
    sampled = (
        f"sampled ({found.games:,} games{' from each seat' if len(found.seats) > 1 else ''}, seed {found.seed}, {how})"
    )
    name = f"[bold]{literal(found.strategy)}[/bold]"
    if found.opponents:
        rivals = ", ".join(literal(one) for one in found.opponents)
        console.print(f"{name} against {rivals}: its chance of winning one game, {sampled}.")
        console.print(f"Rules: {rules_in_short(found.rules)}.")
    else:
        console.print(f"{name} alone: its expected score over a turn, {sampled}.")
        console.print(f"Rules for a turn: {rules_in_short(found.rules, TURN_OPTIONS)}.")
    console.print(
        "Its choices draw at random or hang on more than the box and the roll, so the states are those it met: "
        "each cost is exact, reach is how often a game met the state."
    )
    low, high = found.value_interval
    gap_low, gap_high = found.gap_interval
    if found.measure == "expected-score":
        console.print(
            f"Expected score [bold]{found.value:.4f}[/bold] (95% CI {low:.4f} to {high:.4f}); best play (optimal) "
            f"{found.best:.9g}, exactly; gap [bold]{found.gap:.4f}[/bold] points (95% CI {gap_low:.4f} to "
            f"{gap_high:.4f})."
        )
        return
    seats = "each seat averaged" if len(found.seats) > 1 else f"seat {found.seats[0]}"
    console.print(
        f"Wins ({seats}) [bold]{_percent(found.value)}[/bold] (95% CI {_percent(low)} to {_percent(high)}); best "
        f"play for the scores posted before it {_percent(found.best)}, exactly; gap [bold]{_percent(found.gap)}[/bold] "
        f"(95% CI {_percent(gap_low)} to {_percent(gap_high)})."
    )


def _percent(chance: float) -> str:
    return f"{chance * 100:.2f}%"
