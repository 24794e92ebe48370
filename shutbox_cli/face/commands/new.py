"""`shutbox new strategy NAME`: a strategy writer's project, scaffolded in a new folder."""

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from ..errors import fail


class Kind(StrEnum):
    STRATEGY = "strategy"


def register(app: typer.Typer) -> None:
    app.command("new")(new_command)


def new_command(
    kind: Annotated[Kind, typer.Argument(metavar="KIND", help="What to make: strategy.", show_default=False)],
    name: Annotated[
        str,
        typer.Argument(
            metavar="NAME",
            help="The strategy's name: lower-case words joined by hyphens, such as high-first.",
            show_default=False,
        ),
    ],
    folder: Annotated[
        Path | None,
        typer.Option(
            "--dir",
            metavar="FOLDER",
            show_default=False,
            help="The new folder to make it in (it must not exist, or be empty) [default: shutbox-NAME].",
        ),
    ] = None,
) -> None:
    """Scaffold a strategy writer's project in a new folder: the strategy, its contract test, a
    pyproject.toml that declares it to shutbox by its name, and a README with the next commands.

    Exit status: 0 when it is made, 2 for a bad name or a folder in the way.

    Examples:
      shutbox new strategy high-first
      shutbox new strategy high-first --dir my-strategy
    """
    from strategies.runner import ScaffoldError, make_strategy_project

    try:
        project, made_in, files = make_strategy_project(name, folder)
    except ScaffoldError as error:
        fail(error.spelled(lambda _: "--dir"))
    typer.echo(f"Made the strategy {project.name} ({project.cls}) in {made_in}:")
    for path in files:
        typer.echo(f"  {path.relative_to(made_in).as_posix()}")
    typer.echo(f"Next: cd {made_in}, then see README.md (shutbox check {project.spec} checks it now).")
