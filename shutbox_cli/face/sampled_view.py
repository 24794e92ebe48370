"""`shutbox explain` of a strategy explained on sampled states (it reads the context without a key,
or plays at random), for people: how it was sampled and its estimates with their 95% intervals;
`explain_view` draws the rest, as for an exact explanation."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

    from tournaments import SampledExplanation


def sampled_how(found: SampledExplanation) -> str:
    """How the states were found: sampled, from how many games and which seed."""
    how = "drawn; pass --seed to repeat" if found.seed_drawn else "given"
    each = " from each seat" if len(found.seats) > 1 else ""
    return f"sampled ({found.games:,} games{each}, seed {found.seed}, {how})"


def show_sampled(console: Console, found: SampledExplanation) -> None:
    """After the heading: what sampled states are, and the estimates."""
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
