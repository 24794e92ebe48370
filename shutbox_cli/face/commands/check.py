"""`shutbox check SPEC`: a strategy against the contract, under many random rule sets."""

import dataclasses
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..arguments import STRATEGY_TIMEOUT, StrategySpec, StrategyTimeout
from ..errors import FAILURE, fail
from ..output import Format, FormatOption, print_document
from ..settings import said

if TYPE_CHECKING:
    from strategies.runner import CheckReport, CheckResult
    from tournaments import SeatedStrategy

FAILED = "none: its table failed (above)"
"""The fingerprint line where the strategy failed while tabulated (the check `TABLE` then fails)."""
TABLE = "table whole"
"""The check that its table under the default rules, asked whole for its fingerprint, is given."""
DEFAULT_SAMPLES = 50
"""Rule sets sampled by default (the library's own default, repeated here for the help)."""


def register(app: typer.Typer) -> None:
    app.command("check")(check_command)


def check_command(
    spec: StrategySpec,
    seed: Annotated[
        int,
        typer.Option(
            "--seed",
            metavar="SEED",
            min=0,
            show_default=False,
            help="Seed of the rule sets, games and dice sampled [default: 0].",
        ),
    ] = 0,
    samples: Annotated[
        int,
        typer.Option(
            "--samples",
            metavar="N",
            min=1,
            show_default=False,
            help=f"Rule sets to sample, one game of questions under each [default: {DEFAULT_SAMPLES}].",
        ),
    ] = DEFAULT_SAMPLES,
    timeout: StrategyTimeout = STRATEGY_TIMEOUT,
    form: FormatOption = Format.TABLE,
) -> None:
    """Check a strategy against the contract: legal answers, its declarations kept, its speed.

    A user's strategy is checked in a process of its own: one that stops answering for --timeout
    seconds, or ends that process, fails.

    --format json (or toml) prints the checks as a document (`kind = "check"`: shutbox docs report).

    Its fingerprint under the default rules closes the checks: a hash of its every decision, the
    same for strategies that play alike (its table asked whole: a failure there fails too).

    Exit status: 0 when every check holds, 1 when one fails, 2 for a bad strategy spec.

    Examples:
      shutbox check examples/cautious.py:Cautious
      shutbox check greedy-high --samples 200 --seed 3
      shutbox check bot.py:Bot --format json | jq .ok
    """
    from strategies.runner import CheckResult, StrategyError, StrategyLoadError
    from tournaments import TournamentFailure, seat_strategy

    from ...game import Rules
    from ..progress import progress_bar

    try:
        with seat_strategy(spec, Rules(), timeout=timeout) as seated:
            with progress_bar(unit="answers") as progress:
                report = seated.check(seed, samples, progress)
            fingerprint = _fingerprint(seated) if report.ok else (None, None)
    except StrategyLoadError as error:
        fail(said(error))
    except (StrategyError, TournamentFailure) as error:
        fail(said(error), FAILURE)
    printed, shown = fingerprint
    if isinstance(shown, CheckResult):
        report = dataclasses.replace(report, results=(*report.results, shown))
        shown = FAILED
    if form is Format.TABLE:
        _show(report, shown)
    else:
        print_document(_document(report, printed), form)
    if not report.ok:
        raise typer.Exit(FAILURE)


def _fingerprint(seated: "SeatedStrategy") -> "tuple[str | None, str | CheckResult]":
    """Its fingerprint (None where it has none), and as shown: the fingerprint, or why there is none;
    or where its table fails to be given, the failed check that says so (under which key)."""
    from strategies.runner import CheckResult, StrategyError
    from tournaments import TournamentFailure

    try:
        return seated.fingerprint, seated.fingerprint_shown
    except (StrategyError, TournamentFailure) as error:
        key = getattr(error, "key", ())
        under = "under the key " + ", ".join(f"{feature} = {value}" for feature, value in key) + ": " if key else ""
        return None, CheckResult(TABLE, False, under + said(error))


def _document(report: "CheckReport", fingerprint: str | None) -> dict[str, Any]:
    """The checks as a document (docs/report.md, `kind = "check"`)."""
    from tournaments.parts import header

    checks = [{"name": one.name, "ok": one.ok, "detail": one.detail} for one in report.results]
    shown = {} if fingerprint is None else {"fingerprint": fingerprint}
    return {
        **header("check"),
        "strategy": report.strategy,
        "seed": report.seed,
        "rule_sets": report.rule_sets,
        "questions": report.questions,
        "ok": report.ok,
        **shown,
        "check": checks,
    }


def _show(report: "CheckReport", fingerprint: str | None) -> None:
    from rich.table import Table

    from ..console import results_console
    from ..literal import literal, literal_lines

    console = results_console()
    console.print(
        f"[bold]{literal(report.strategy)}[/bold]: {report.questions} questions from games under "
        f"{report.rule_sets} random rule sets (seed {report.seed})."
    )
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    table.add_column("check", no_wrap=True)
    table.add_column("result", no_wrap=True)
    table.add_column("detail", ratio=1, overflow="fold")
    for result in report.results:
        verdict = "[green]pass[/green]" if result.ok else "[bold red]FAIL[/bold red]"
        table.add_row(result.name, verdict, literal_lines(result.detail))
    console.print(table)
    failed = len(report.failures)
    console.print("Every check holds." if not failed else f"{failed} of {len(report.results)} checks fail.")
    if fingerprint is not None:
        console.print(f"Fingerprint under the default rules: {literal_lines(fingerprint)}.")
