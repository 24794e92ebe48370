"""`shutbox compare OLD NEW`: what changed between two tournament reports, and gates on it."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..errors import FAILURE, fail
from ..output import Format, FormatOption, print_document
from ..settings import said

if TYPE_CHECKING:
    from rich.console import Console

    from tournaments import Change, Comparison


UNPAIRED = (
    "note: these intervals are unpaired (the two runs taken as independent, though runs on one seed share their "
    "dice), so they are wide; to test a change, play both versions on the same deals: shutbox match NEW OLD --sprt."
)


def register(app: typer.Typer) -> None:
    app.command("compare")(compare_command)


def compare_command(
    old: Annotated[Path, typer.Argument(metavar="OLD", show_default=False, help="The earlier report (TOML or JSON).")],
    new: Annotated[Path, typer.Argument(metavar="NEW", show_default=False, help="The later report (TOML or JSON).")],
    fail_if: Annotated[
        list[str] | None,
        typer.Option(
            "--fail-if",
            metavar="GATE",
            show_default=False,
            help='Exit 1 when this holds (repeat for more): NAME.KEY WORD, such as "mybot.win_rate drops" (WORD: '
            "drops, rises or changes, significantly), or NAME.KEY.FIGURE OP NUMBER, such as "
            '"mybot.win_rate.change < -0.02" (FIGURE: old, new or change); KEY is win_rate or mean_score, NAME '
            "a strategy or * for each.",
        ),
    ] = None,
    form: FormatOption = Format.TABLE,
) -> None:
    """Compare two reports of `shutbox tournament`: per strategy in both, the change in win rate and
    mean score, its 95% interval, and whether it is significant (the interval leaves out 0).

    The intervals are unpaired: they treat the two runs as independent. Runs on the same seed share
    their dice, so their figures move together and the interval is much wider than it need be: a
    small regression goes unseen. To test a change, play the two versions in pairs on the same
    deals instead: shutbox match NEW OLD (with --sprt, it stops once it knows). Reports of
    different rules or table sizes are compared with a warning.

    --format json (or toml) prints the comparison as a document (`kind = "comparison"`: shutbox docs
    report); the warnings and the gates that held go to stderr as ever.

    Exit status: 0 done, 1 a --fail-if gate held, 2 a usage error or a file that is not a report.

    Examples:
      shutbox compare main.toml branch.toml
      shutbox compare a.toml b.toml --fail-if "*.win_rate drops"
      shutbox compare a.toml b.toml --format json | jq .strategy
    """
    from strategies.runner import printable
    from tournaments import ConfigError, compare, read_report
    from tournaments.parts import check_names, compare_failures, parse_compare_gate

    from ..console import ShutboxConsole

    try:
        gates = [parse_compare_gate(text) for text in fail_if or ()]
        comparison = compare(read_report(old), read_report(new))
        check_names(gates, [strategy.name for strategy in comparison.strategies])
    except ConfigError as error:
        fail(said(error))
    for line in comparison.warnings:
        typer.echo(line, err=True)
    typer.echo(UNPAIRED, err=True)
    console = ShutboxConsole(highlight=False)
    if form is not Format.TABLE:
        print_document(_document(old, new, comparison), form)
    elif console.is_terminal:
        _show_table(console, comparison)
    else:
        for line in _plain_lines(comparison):
            typer.echo(line)
    failed = compare_failures(gates, comparison)
    for line in failed:
        typer.echo(printable(line), err=True)
    if failed:
        raise typer.Exit(FAILURE)


def _document(old: Path, new: Path, comparison: "Comparison") -> dict[str, Any]:
    """The comparison as a document (docs/report.md, `kind = "comparison"`)."""
    from tournaments.parts import header

    strategies = [
        {
            "name": strategy.name,
            "old_games": strategy.old_games,
            "new_games": strategy.new_games,
            "figures": {
                key: {
                    "old": change.old,
                    "new": change.new,
                    "change": change.change,
                    "change_ci95": [change.low, change.high],
                    "significant": change.significant,
                }
                for key, change in strategy.figures.items()
            },
        }
        for strategy in comparison.strategies
    ]
    return {
        **header("comparison"),
        "old": str(old),
        "new": str(new),
        "strategy": strategies,
        "added": list(comparison.added),
        "removed": list(comparison.removed),
        "warnings": list(comparison.warnings),
    }


def _verdict(change: "Change") -> str:
    if not change.significant:
        return "not significant"
    return "significant rise" if change.change > 0 else "significant drop"


def _rows(comparison: "Comparison", digits: int) -> "list[tuple[str, str, str, str, str, str, str]]":
    """Per strategy and figure: name, figure, old, new, change, interval, verdict; `digits` significant."""
    return [
        (
            strategy.name,
            change.key,
            f"{change.old:.{digits}g}",
            f"{change.new:.{digits}g}",
            f"{change.change:+.{digits}g}",
            f"{change.low:+.{digits - 2}g} to {change.high:+.{digits - 2}g}",
            _verdict(change),
        )
        for strategy in comparison.strategies
        for change in strategy.figures.values()
    ]


def _plain_lines(comparison: "Comparison") -> list[str]:
    """One greppable line per strategy and figure, then one per strategy added or removed."""
    from strategies.runner import printable

    lines = [
        f"{printable(name)} {key} {old} -> {new} change {change} (95% CI {interval}) {verdict}"
        for name, key, old, new, change, interval, verdict in _rows(comparison, 6)
    ]
    lines += [f"added: {printable(name)}" for name in comparison.added]
    lines += [f"removed: {printable(name)}" for name in comparison.removed]
    return lines


def _show_table(console: "Console", comparison: "Comparison") -> None:
    from rich.table import Table

    from ..literal import literal

    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    table.add_column("strategy")
    for column in ("figure", "old → new", "change", "95% CI", "significant"):
        table.add_column(column, justify="right" if column in ("old → new", "change") else "left", no_wrap=True)
    for name, key, old, new, change, interval, verdict in _rows(comparison, 4):
        significant = verdict != "not significant"
        shown = verdict.split()[-1] if significant else "no"
        table.add_row(literal(name), key, f"{old} → {new}", change, interval, shown, style="bold" * significant)
    console.print(table)
    for word, names in (("added", comparison.added), ("removed", comparison.removed)):
        if names:
            console.print(f"{word}: {', '.join(literal(name) for name in names)}")
