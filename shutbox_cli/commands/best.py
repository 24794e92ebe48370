"""`shutbox best`: your solo best scores and record per rule set; `--reset` clears them."""

from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    app.command("best")(best_command)


def best_command(
    reset: Annotated[
        bool, typer.Option("--reset", help="Clear every best score and the record, after asking.")
    ] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="With --reset: clear without asking.")] = False,
) -> None:
    """List your solo best scores and record, per rule set, from the data folder `shutbox play` keeps them in.

    Exit status: 0, also when a reset is declined.

    Examples:
      shutbox best
      shutbox best --reset
    """
    from rich.markup import escape

    from ..console import results_console
    from ..play.best import data_dir
    from ..play.coach import total_text
    from ..play.kept import Kept

    console = results_console()
    folder = data_dir()
    kept = Kept(folder)
    for problem in kept.load():
        console.print(f"[yellow]{escape(problem)}[/yellow]")
    listed = kept.listed()
    if reset:
        if not listed:
            typer.echo(f"Nothing to clear in {folder}.")
            return
        question = f"Clear the best scores and the record of {len(listed)} rule set{'' if len(listed) == 1 else 's'}"
        if not yes and not _confirmed(f"{question} in {folder}?"):
            typer.echo("Nothing was cleared.")
            return
        problems = kept.reset()
        for problem in problems:
            console.print(f"[yellow]{escape(problem)}[/yellow]")
        if not problems:
            typer.echo("Cleared.")
        return
    if not listed:
        typer.echo(f"No solo games kept yet in {folder}; `shutbox play` keeps your best with each rule set.")
        return
    typer.echo(f"Solo games kept in {folder}:")
    rows = [("rules", "best", "games", "mean", "mean cost per game")]
    for row in listed:
        record = row.record
        if record is None:
            rows.append((row.rules, row.best or "", "", "", ""))
            continue
        costs = {goal: cost / record.games for goal, cost in record.costs.items()}
        mean = f"{record.mean_result:.2f} ({row.measure})"
        rows.append((row.rules, row.best or "", str(record.games), mean, total_text(costs)))
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    for cells in rows:
        typer.echo("  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True)).rstrip())


def _confirmed(question: str) -> bool:
    """Ask yes or no; no when input ends or the answer is not yes."""
    try:
        return typer.confirm(question, default=False)
    except typer.Abort:
        typer.echo()
        return False
