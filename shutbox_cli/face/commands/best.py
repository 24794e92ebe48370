"""`shutbox best`: your solo best scores and record per rule set; `--reset` clears them."""

from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..errors import fail
from ..output import Format, FormatOption, print_document

if TYPE_CHECKING:
    from pathlib import Path

    from ..play.kept import KeptRules


def register(app: typer.Typer) -> None:
    app.command("best")(best_command)


def best_command(
    reset: Annotated[
        bool, typer.Option("--reset", help="Clear every best score and the record, after asking.")
    ] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="With --reset: clear without asking.")] = False,
    form: FormatOption = Format.TABLE,
) -> None:
    """List your solo best scores and record, per rule set, from the data folder `shutbox play` keeps them in.

    --format json (or toml) prints them as a document (`kind = "best"`: shutbox docs report).

    Exit status: 0, also when a reset is declined; 2 for --format json with --reset.

    Examples:
      shutbox best
      shutbox best --reset
      shutbox best --format json | jq '.rule_set[].best'
    """
    from rich.markup import escape
    from rich.text import Text

    from ..console import results_console
    from ..play.best import data_dir
    from ..play.kept import Kept, listing_lines
    from ..play.wrap import wrap

    if reset and form is not Format.TABLE:
        fail(f"--format {form.value} lists the kept scores; it does not go with --reset.")
    console = results_console(stderr=form is not Format.TABLE)
    folder = data_dir()
    kept = Kept(folder)
    for problem in kept.load():
        console.print(f"[yellow]{escape(problem)}[/yellow]")
    listed = kept.listed()
    if form is not Format.TABLE:
        print_document(_document(folder, listed), form)
        return
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
    # Broken between words only, never inside one (a folder path longer than the terminal stands whole).
    width = None if console.soft_wrap else console.width
    for line in [f"Solo games kept in {folder}:", *listing_lines(listed)]:
        for part in [Text(line)] if width is None else wrap(Text(line), width):
            console.print(part, soft_wrap=True)


def _document(folder: "Path", listed: "list[KeptRules]") -> dict[str, Any]:
    """The kept scores as a document (docs/report.md, `kind = "best"`)."""
    from tournaments.parts import header

    rule_sets = []
    for kept in listed:
        entry: dict[str, Any] = {"rules": kept.rules, "measure": kept.measure}
        if kept.best is not None:
            entry["best"] = kept.best
        record = kept.record
        if record is not None:
            entry |= {
                "games": record.games,
                "mean_result": record.mean_result,
                "mean_costs": {goal.name.lower(): cost / record.games for goal, cost in record.costs.items()},
                "recent": list(record.recent),
            }
        rule_sets.append(entry)
    return {**header("best"), "folder": str(folder), "rule_set": rule_sets}


def _confirmed(question: str) -> bool:
    """Ask yes or no; no when input ends or the answer is not yes."""
    try:
        return typer.confirm(question, default=False)
    except typer.Abort:
        typer.echo()
        return False
