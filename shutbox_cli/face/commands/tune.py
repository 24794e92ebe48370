"""`shutbox tune SPEC --param NAME=LOW..HIGH`: the values of a strategy's parameters that serve it
best against a field (or alone), exactly where it can be computed, else on common dice with a
confirmation run (tournaments.tuning)."""

import shlex
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from ..arguments import Report, Scheduler, Seed, Strategies, Workers
from ..completion import complete_strategy
from ..errors import fail
from ..output import Format, FormatOption, Output, print_document
from ..rule_options import with_rule_options
from ..running import ends_cleanly as _ends_cleanly
from ..signals import stop_on_signals

if TYPE_CHECKING:
    from tournaments import Trial, TuneSettings, Tuning


def register(app: typer.Typer) -> None:
    app.command("tune")(tune_command)


@with_rule_options
def tune_command(
    rule_values: dict[str, Any],
    spec: Annotated[
        str | None,
        typer.Argument(
            metavar="SPEC",
            show_default=False,
            autocompletion=complete_strategy,
            help="The strategy to tune; its parameters in SPEC(k=v) are the starting values.",
        ),
    ] = None,
    param: Annotated[
        list[str] | None,
        typer.Option(
            "--param",
            "-p",
            metavar="NAME=LOW..HIGH[:STEP]",
            show_default=False,
            help="A parameter's range (repeat for more): whole numbers by 1 unless STEP says, floats in 10 steps.",
        ),
    ] = None,
    strategy: Strategies = None,
    objective: Annotated[
        str | None,
        typer.Option(
            "--objective",
            metavar="OBJECTIVE",
            show_default=False,
            help="win-rate (against the field), mean-score (lowest) or shut-rate [default: win-rate; alone: "
            "mean-score].",
        ),
    ] = None,
    method: Annotated[
        str | None,
        typer.Option(
            "--method",
            metavar="METHOD",
            show_default=False,
            help="exact or simulate [default: exact where every strategy can be computed exactly].",
        ),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            "--games", "-n", metavar="N", min=2, show_default=False, help="Games per candidate [default: 20000]."
        ),
    ] = None,
    confirm_games: Annotated[
        int | None,
        typer.Option(
            "--confirm-games",
            metavar="N",
            min=2,
            show_default=False,
            help="Games of the confirmation [default: 50000].",
        ),
    ] = None,
    seed: Seed = None,
    workers: Workers = None,
    scheduler: Scheduler = None,
    report: Report = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            metavar="REPORT",
            show_default=False,
            help="Finish the interrupted tune whose report this is, as the uninterrupted one ends (without SPEC; "
            "only -j, --scheduler and --report go with it).",
        ),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            metavar="FILE",
            show_default=False,
            help="A tune file: a [tune] table (spec, params, field, objective, method, games, confirm_games, seed) "
            "and [rules]; options override it.",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress lines.")] = False,
    form: FormatOption = Format.TABLE,
) -> None:
    """Find the values of SPEC's parameters (--param) with the best OBJECTIVE against the field (-s),
    or alone. Where every strategy can be computed exactly (under one-round rules, exact and keyed
    ones), every candidate is computed and the best is the true optimum over the ranges. Otherwise
    the candidates play the same deals (a small grid whole, a larger one by successive halving),
    and the best then plays the starting values on a fresh seed: their paired difference with its
    95% interval. Every trial goes to the report; an interrupted tune's report resumes it.

    Examples:
      shutbox tune below --param threshold=1..12 -s optimal
      shutbox tune target -p margin=0..6 -s tips --drop-out 45
    """
    stop_on_signals()
    import tournaments

    with _ends_cleanly("tune"):
        if config is not None:
            spec, param, strategy, rule_values, objective, method, games, confirm_games, seed = _from_file(
                config, spec, param, strategy, rule_values, objective, method, games, confirm_games, seed
            )
        settings, done = _settings(
            spec, param, strategy, rule_values, objective, method, games, confirm_games, seed, resume
        )
        settings = _run_where(settings, workers, scheduler)
        output = Output(form, report if report is not None or resume is None else resume)
        output.check()
        try:
            tuning = tournaments.tune(settings, done=done, told=None if quiet else _telling(settings.goal))
        except tournaments.TuneStopped as stop:
            tuning = stop.tuning
        _deliver(output, tuning)
    if not tuning.done:
        _stopped(output, len(tuning.trials))
    if output.table:
        from ..tune_view import show

        show(output.console(), tuning)
    output.written()


def _stopped(output: Output, trials: int) -> NoReturn:
    """Say the tune stopped, with its trials kept in its report (and how to resume), and exit."""
    from ..signals import stopped_status

    kept = (
        " (give --report FILE to keep them)"
        if output.file is None
        else f", kept in its report; resume with: shutbox tune --resume {shlex.quote(str(output.file))}"
    )
    typer.echo(f"shutbox: stopped after {trials} trials{kept}", err=True)
    raise typer.Exit(stopped_status())


def _settings(
    spec: str | None,
    param: list[str] | None,
    field: list[str] | None,
    rules: dict[str, Any],
    objective: str | None,
    method: str | None,
    games: int | None,
    confirm_games: int | None,
    seed: int | None,
    resume: Path | None,
) -> "tuple[TuneSettings, tuple[Trial, ...]]":
    """The tune's settings from the options, or from the report it resumes with its trials so far."""
    import tournaments

    if resume is not None:
        if (
            spec is not None
            or param
            or field
            or any(v is not None for v in rules.values())
            or objective
            or method
            or games
            or confirm_games
            or seed
        ):
            fail("--resume finishes a tune as it was started: give it alone, with -j, --scheduler or --report.")
        settings, trials, finished = tournaments.read_tune(resume)
        if finished:
            fail(f"the tune of {str(resume)!r} is done: there is nothing to resume.")
        return settings, trials
    if spec is None:
        fail("a tune takes the strategy SPEC to tune (or --resume REPORT).")
    chosen: dict[str, Any] = {"games": games, "confirm_games": confirm_games, "seed": seed}
    return tournaments.TuneSettings(
        spec,
        tournaments.parse_parameters(param or []),
        tuple(field or ()),
        rules,
        objective,
        method,
        **{key: value for key, value in chosen.items() if value is not None},
    ), ()


def _from_file(path: Path, *given: Any) -> tuple[Any, ...]:
    """The options given, each in place of the tune file's value (the rules one by one)."""
    import tournaments

    tune, rules = tournaments.read_tune_file(path)
    spec, param, field, rule_values, objective, method, games, confirm_games, seed = given
    chosen = {key: value for key, value in rule_values.items() if value is not None}
    return (
        spec if spec is not None else tune.get("spec"),
        param or tune.get("params"),
        field or tune.get("field"),
        {**rules, **chosen},
        objective if objective is not None else tune.get("objective"),
        method if method is not None else tune.get("method"),
        games if games is not None else tune.get("games"),
        confirm_games if confirm_games is not None else tune.get("confirm_games"),
        seed if seed is not None else tune.get("seed"),
    )


def _run_where(settings: "TuneSettings", workers: int | None, scheduler: str | None) -> "TuneSettings":
    import dataclasses

    return dataclasses.replace(settings, workers=workers, scheduler=scheduler)


def _telling(goal: str) -> Callable[["Trial", int, int], None]:
    """What says each trial as it ends: one line on stderr, its values and figure."""
    from ..tune_view import trial_line

    def tell(trial: "Trial", found: int, most: int) -> None:
        typer.echo(f"trial {found}/{most}: {trial_line(trial, goal)}", err=True)

    return tell


def _deliver(output: Output, tuning: "Tuning") -> None:
    """The report, whole or not at all, to its file and to stdout as asked."""
    from tournaments import format_of, write_table_atomically

    table = tuning.to_report()
    if output.file is not None:
        write_table_atomically(output.file, table, format_of(output.file))
    if output.to_stdout:
        print_document(table, Format.JSON if output.form is Format.JSON else Format.TOML)
