"""`shutbox summary REPORT`: a report as a short Markdown page, for a CI job summary or a PR comment."""

from pathlib import Path
from typing import Annotated

import typer

from ..errors import FAILURE, fail
from ..settings import command_line, said, spell
from ..streams import from_a_file


def register(app: typer.Typer) -> None:
    app.command("summary")(summary_command)


def summary_command(
    report: Annotated[
        Path,
        typer.Argument(
            metavar="REPORT",
            show_default=False,
            help="A report of tournament, match, analyze or tune (TOML or JSON).",
        ),
    ],
    fail_if: Annotated[
        list[str] | None,
        typer.Option(
            "--fail-if",
            metavar="GATE",
            show_default=False,
            help='A tournament gate to show, such as "mybot.win_rate < 0.5" (repeat for more): exit 1 when it '
            "holds, as tournament --fail-if does (a tournament's or match's report only).",
        ),
    ] = None,
) -> None:
    """Print a report as a short Markdown page: the ranking with its ratings, the head to head, the
    gates (a match's SPRT, any --fail-if), the seed and the commands that repeat it; of a tune, its
    trials best first, the best values and the confirmation.

    Fit for a GitHub job summary ($GITHUB_STEP_SUMMARY) or a pull-request comment. Of tournament
    reports (simulated or exact, a match's among them), analysis, duel, tune and knockout reports.

    Exit status: 0 done, 1 a --fail-if gate held, 2 a usage error or a file that is not a report
    shutbox wrote (one out of range: a crafted or damaged report).

    Examples:
      shutbox summary report.toml >> "$GITHUB_STEP_SUMMARY"
      shutbox summary tune.toml
      shutbox summary report.toml --fail-if "mybot.rank > 1"
    """
    from tournaments import ConfigError, summarize_report
    from tournaments.parts import parse_tournament_gate

    try:
        gates = [parse_tournament_gate(text) for text in fail_if or ()]
        page = summarize_report(report, gates, spell=spell, write=command_line)
    except ConfigError as error:
        fail(said(error))
    typer.echo(from_a_file(page.text), nl=False)
    for line in page.failed:
        typer.echo(from_a_file(line), err=True)
    if page.failed:
        raise typer.Exit(FAILURE)
