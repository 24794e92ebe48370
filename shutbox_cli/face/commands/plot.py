"""`shutbox plot REPORT`: draw a report of `tournament`, `match`, `analyze`, `tune` or `explain` to a PNG, SVG or PDF
file."""

from pathlib import Path
from typing import Annotated

import typer

from ..errors import fail
from ..settings import said


def register(app: typer.Typer) -> None:
    app.command("plot")(plot_command)


def plot_command(
    report: Annotated[
        Path, typer.Argument(metavar="REPORT", show_default=False, help="A report of shutbox (TOML or JSON).")
    ],
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            metavar="FILE",
            show_default=False,
            help="The file to draw: .png, .svg or .pdf [default: REPORT's name with .png].",
        ),
    ] = None,
) -> None:
    """Draw a report: a tournament's win rates with their 95% intervals, its head-to-head map and,
    computed exactly, its win rates by seat; a match's score with its intervals and its SPRT's LLR
    path between the bounds; an analysis's score distribution; a duel's margin distribution; a
    tune's landscape (its figure over one parameter, a heat map over two, the points ranked over
    more); an explanation's loss, by open total and by tiles left. Needs pip install ".[plot]" in
    shutbox's checkout.

    The title says the rules, and the seed of a simulation; the colours are colour-blind safe.

    Exit status: 0 done, 2 a usage error, a file that is not a report, or no matplotlib.

    Examples:
      shutbox plot run.toml
      shutbox plot run.toml -o run.svg
      shutbox plot tune.toml -o landscape.pdf
    """
    from tournaments import ConfigError
    from tournaments.parts import read_figures

    from ..plotting import check_plot, save

    target = report.with_suffix(".png") if output is None else output
    check_plot(target)
    try:
        figures = read_figures(report)
    except ConfigError as error:
        fail(said(error))
    save(figures, target)
