"""`shutbox tune SPEC --param NAME=LOW..HIGH`: the values of a strategy's parameters that serve it
best against a field (or alone), exactly where it can be computed, else on common dice with a
confirmation run (tournaments.tuning)."""

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from ..arguments import Report, Scheduler, Seed, Strategies, Workers
from ..completion import complete_strategy
from ..errors import fail
from ..output import Format, FormatOption, Output, print_document
from ..plotting import PlotOption, check_plot, plot_table
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
            help="exact; or simulated: simulate (the search chosen by the ranges), grid, halving or optuna (pip "
            'install ".[tune]" in shutbox\'s checkout) [default: exact where every strategy can be computed exactly; '
            "else grid for "
            "8 candidates or fewer, halving for more, optuna for a float range without a step or 3+ parameters].",
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
    trials: Annotated[
        int | None,
        typer.Option(
            "--trials", metavar="N", min=1, show_default=False, help="Trials of an optuna search [default: 40]."
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
            "only -j, --scheduler, --report and --plot go with it).",
        ),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            metavar="FILE",
            show_default=False,
            help="A tune file: a [tune] table (spec, params, field, objective, method, games, confirm_games, seed, "
            "trials) "
            "and [rules]; options override it.",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress lines.")] = False,
    form: FormatOption = Format.TABLE,
    plot: PlotOption = None,
) -> None:
    """Find the values of SPEC's parameters (--param) with the best OBJECTIVE against the field (-s),
    or alone. Where every strategy can be computed exactly (under one-round rules, exact and keyed
    ones), every candidate is computed and the best is the true optimum over the ranges. Otherwise
    the candidates play the same deals (a small grid whole, a larger one by successive halving, a
    float range without a step or 3+ parameters by Optuna's TPE sampler), and the best then plays
    the starting values on a fresh seed: their paired difference with its 95% interval. Every
    trial goes to the report; an interrupted tune's report resumes it.

    Examples:
      shutbox tune below --param threshold=1..12 -s optimal
      shutbox tune target -p margin=0..6 -s tips --drop-out 45
      shutbox tune below -p threshold=1..24 --method optuna
    """
    stop_on_signals()
    import tournaments

    chosen = {"objective": objective, "method": method, "games": games, "confirm_games": confirm_games}
    chosen |= {"seed": seed, "trials": trials}
    if plot is not None:
        check_plot(plot)
    with _ends_cleanly("tune"):
        if config is not None:
            spec, param, strategy, rule_values, chosen = _from_file(config, spec, param, strategy, rule_values, chosen)
        settings, done = _settings(spec, param, strategy, rule_values, chosen, resume)
        settings = _run_where(settings, workers, scheduler)
        output = Output(form, report if report is not None or resume is None else resume)
        output.check()
        from ..tune_view import telling

        try:
            with telling(settings.goal, quiet) as told:
                tuning = tournaments.tune(settings, done=done, told=told)
        except tournaments.TuneStopped as stop:
            tuning = stop.tuning
        _deliver(output, tuning)
        if plot is not None:
            plot_table(tuning.to_report(), plot)
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
    chosen: dict[str, Any],
    resume: Path | None,
) -> "tuple[TuneSettings, tuple[Trial, ...]]":
    """The tune's settings from the options, or from the report it resumes with its trials so far."""
    import tournaments

    if resume is not None:
        if spec is not None or param or field or any(v is not None for v in [*rules.values(), *chosen.values()]):
            fail("--resume finishes a tune as it was started: give it alone, with -j, --scheduler, --report or --plot.")
        settings, trials, finished = tournaments.read_tune(resume)
        if finished:
            fail(f"the tune of {str(resume)!r} is done: there is nothing to resume.")
        return settings, trials
    if spec is None:
        fail("a tune takes the strategy SPEC to tune (or --resume REPORT).")
    return tournaments.TuneSettings(
        spec,
        tournaments.parse_parameters(param or []),
        tuple(field or ()),
        rules,
        **{key: value for key, value in chosen.items() if value is not None},
    ), ()


def _from_file(path: Path, *given: Any) -> tuple[Any, ...]:
    """The options given, each in place of the tune file's value (the rules one by one)."""
    import tournaments

    tune, rules = tournaments.read_tune_file(path)
    spec, param, field, rule_values, chosen = given
    return (
        spec if spec is not None else tune.get("spec"),
        param or tune.get("params"),
        field or tune.get("field"),
        {**rules, **{key: value for key, value in rule_values.items() if value is not None}},
        {key: value if value is not None else tune.get(key) for key, value in chosen.items()},
    )


def _run_where(settings: "TuneSettings", workers: int | None, scheduler: str | None) -> "TuneSettings":
    import dataclasses

    return dataclasses.replace(settings, workers=workers, scheduler=scheduler)


def _deliver(output: Output, tuning: "Tuning") -> None:
    """The report, whole or not at all, to its file and to stdout as asked."""
    from tournaments import format_of, write_table_atomically

    table = tuning.to_report()
    if output.file is not None:
        write_table_atomically(output.file, table, format_of(output.file))
    if output.to_stdout:
        print_document(table, Format.JSON if output.form is Format.JSON else Format.TOML)
