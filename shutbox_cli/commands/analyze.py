"""`shutbox analyze SPEC`: how a strategy scores on its own, exactly or by seeded simulation."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..arguments import StrategySpec
from ..errors import FAILURE, fail
from ..rule_options import rules_from_options, with_rule_options

if TYPE_CHECKING:
    from rich.console import Console

    from tournaments import Analysis

DEFAULT_TURNS = 100_000
"""What the help says; the library's `tournaments.analysis.DEFAULT_TURNS` decides (a test holds them equal)."""
LONG_DISTRIBUTION = 46
"""The terminal shows at most this many scores, the likeliest (the report has them all): every
score of the standard 9-tile box, 0 to 45, fits..."""
RARE = 0.001
"""... and of a long distribution, none less likely than this."""
BAR_WIDTH = 20
_EIGHTHS = " ▏▎▍▌▋▊▉"


def register(app: typer.Typer) -> None:
    app.command("analyze")(analyze_command)


@with_rule_options
def analyze_command(
    spec: StrategySpec,
    rule_values: dict[str, Any],
    turns: Annotated[
        int | None,
        typer.Option(
            "--turns",
            min=2,
            show_default=False,
            help=f"Turns to simulate, for strategies that cannot be analysed exactly (default: {DEFAULT_TURNS:,}).",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            min=0,
            help="Seed of the simulated dice (drawn and printed if not given).",
            show_default=False,
        ),
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option(
            "--report",
            help="Also write the analysis to this TOML file.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """How a strategy scores over single turns, exactly or by seeded simulation.

    Exact figures when the strategy is deterministic and context-free; otherwise 95% intervals.
    """
    import tournaments
    from strategies.loading import StrategyLoadError, load_strategy
    from tournaments.files import check_writable

    _refuse_game_options(rule_values)
    rules = rules_from_options(rule_values)
    try:
        loaded = load_strategy(spec)
        if report is not None:
            check_writable(report)
        analysis = tournaments.analyse(loaded, rules, turns, seed)
        if report is not None:
            tournaments.write_report(report, analysis)
    except (StrategyLoadError, tournaments.FileWriteError) as error:
        fail(str(error))
    except tournaments.TournamentFailure as error:
        fail(str(error), FAILURE)
    if analysis.method == "exact" and (turns is not None or seed is not None):
        typer.echo("shutbox: --turns and --seed apply to simulations; this strategy is analysed exactly.", err=True)
    _show(analysis, loaded.cls.description)


def _refuse_game_options(rule_values: dict[str, Any]) -> None:
    """analyze plays single turns: an option that shapes a whole game is a usage error, not ignored."""
    from ..describe import TURN_OPTIONS
    from ..rule_options import option_flag

    given = [
        "--no-instant-win" if value is False else option_flag(name)
        for name, value in rule_values.items()
        if name not in TURN_OPTIONS and value is not None
    ]
    if given:
        options = " and ".join([", ".join(given[:-1]), given[-1]] if len(given) > 1 else given)
        verb = "applies" if len(given) == 1 else "apply"
        fail(f"analyze studies single turns; {options} {verb} to games (use `shutbox tournament --table 1 ...`).")


def _show(analysis: "Analysis", description: str) -> None:
    from rich.console import Console
    from rich.markup import escape

    from ..describe import TURN_OPTIONS, rules_in_short

    console = Console(highlight=False)
    console.print(f"[bold]{escape(analysis.strategy)}[/bold]: {escape(description)}")
    console.print(f"Rules for a turn: {rules_in_short(analysis.rules, TURN_OPTIONS)}.")
    if analysis.method == "exact":
        console.print("Method: exact, from the strategy's answer for every box and roll.")
        console.print(f"Expected score: [bold]{analysis.expected_score:.9g}[/bold]")
        console.print(f"Shuts the box: [bold]{_percent(analysis.shut_probability)}[/bold]")
    else:
        how = "drawn; pass --seed to repeat" if analysis.seed_drawn else "given"
        console.print(f"Method: simulation of {analysis.turns:,} turns, seed {analysis.seed} ({how}).")
        low, high = analysis.expected_score_interval or (0.0, 0.0)
        console.print(f"Expected score: [bold]{analysis.expected_score:.4f}[/bold] (95% CI {low:.4f} to {high:.4f})")
        low, high = analysis.shut_probability_interval or (0.0, 0.0)
        console.print(
            f"Shuts the box: [bold]{_percent(analysis.shut_probability)}[/bold] "
            f"(95% CI {_percent(low)} to {_percent(high)})"
        )
    _show_distribution(console, analysis)


def _show_distribution(console: "Console", analysis: "Analysis") -> None:
    from rich.table import Table

    shown = analysis.distribution
    if len(shown) > LONG_DISTRIBUTION:
        likely = sorted(shown, key=shown.__getitem__, reverse=True)[:LONG_DISTRIBUTION]
        shown = {score: shown[score] for score in sorted(likely) if shown[score] >= RARE}
    simulated = analysis.method == "simulation"
    table = Table(title="Score distribution", title_justify="left", box=None, pad_edge=False)
    table.add_column("score", justify="right")
    table.add_column("chance", justify="right")
    if simulated:
        table.add_column("95% CI", justify="right")
    table.add_column("", no_wrap=True)
    top = max(shown.values())
    for score, chance in shown.items():
        cells = [str(score), _percent(chance)]
        if simulated:
            low, high = analysis.interval(score) or (0.0, 0.0)
            cells.append(f"{_percent(low)}-{_percent(high)}")
        cells.append(_bar(chance / top))
        table.add_row(*cells)
    console.print(table)
    hidden = len(analysis.distribution) - len(shown)
    if hidden:
        rest = sum(chance for score, chance in analysis.distribution.items() if score not in shown)
        console.print(f"{hidden} less likely scores are not shown ({_percent(rest)} together); --report has them all.")


def _percent(chance: float) -> str:
    return f"{chance * 100:.3f}%"


def _bar(fraction: float) -> str:
    """A horizontal bar of up to BAR_WIDTH cells, in eighths of a cell."""
    eighths = round(fraction * BAR_WIDTH * 8)
    full, part = divmod(eighths, 8)
    return "█" * full + (_EIGHTHS[part] if part else "")
