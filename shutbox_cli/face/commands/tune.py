"""`shutbox tune SPEC --param NAME=LOW..HIGH`: the values of a strategy's parameters that serve it
best against a field (or alone), exactly where it can be computed, else on common dice with a
confirmation run (tournaments.tuning)."""

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from ..arguments import Quiet, Report, Scheduler, Seed, Strategies, Workers
from ..completion import complete_strategy
from ..errors import fail
from ..output import Format, FormatOption, Output, print_document
from ..plotting import PlotOption, check_plot, plot_table
from ..recording import HistoryOption, Recording
from ..rule_options import with_rule_options
from ..running import ends_cleanly as _ends_cleanly
from ..signals import stop_on_signals

if TYPE_CHECKING:
    from tournaments import TuneSettings, Tuning
    from tournaments.parts import Resumable, TuneKeeper


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
        str | None,
        typer.Option(
            "--resume",
            metavar="REPORT",
            show_default=False,
            help="Finish the interrupted tune whose checkpoint (or stopped report) this is, as the uninterrupted one "
            "ends (without SPEC; only -j, --scheduler, --report and --plot go with it).",
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
    quiet: Quiet = False,
    form: FormatOption = Format.TABLE,
    plot: PlotOption = None,
    history: HistoryOption = None,
    # Hidden: how often the checkpoint is written, so the tests need not wait the default seconds.
    checkpoint_seconds: Annotated[
        float | None, typer.Option("--checkpoint-seconds", hidden=True, min=0.0, metavar="SECONDS")
    ] = None,
) -> None:
    """Find the values of SPEC's parameters (--param) with the best OBJECTIVE against the field (-s),
    or alone. Where every strategy can be computed exactly (under one-round rules, exact and keyed
    ones), every candidate is computed and the best is the true optimum over the ranges. Otherwise
    the candidates play the same deals (a small grid whole, a larger one by successive halving, a
    float range without a step or 3+ parameters by Optuna's TPE sampler), and the best then plays
    the starting values on a fresh seed: their paired difference with its 95% interval. Every
    trial goes to the report. A tune that lasts more than a few seconds keeps its trials in a
    checkpoint (beside the report, else in the user's state folder) until its report is written;
    after a stop, a kill or a report that could not be written, --resume CHECKPOINT finishes it
    (a stopped tune's report resumes it too, by the checkpoint beside it).

    Examples:
      shutbox tune below --param threshold=1..12 -s optimal
      shutbox tune target -p margin=0..6 -s tips --drop-out 45
      shutbox tune below -p threshold=1..24 --method optuna
    """
    stop_on_signals()
    recording = Recording(history)
    import tournaments

    chosen = {"objective": objective, "method": method, "games": games, "confirm_games": confirm_games}
    chosen |= {"seed": seed, "trials": trials}
    if plot is not None:
        check_plot(plot)
    with _ends_cleanly("tune") as resuming:
        if resume == "":
            fail("--resume takes the checkpoint (or the stopped tune's report) to finish, and was given ''.")
        if config is not None:
            spec, param, strategy, rule_values, chosen = _from_file(config, spec, param, strategy, rule_values, chosen)
        resuming_from = None if resume is None else Path(resume)
        settings, resumed = _settings(spec, param, strategy, rule_values, chosen, resuming_from)
        settings = _run_where(settings, workers, scheduler)
        output = Output(form, _report_to_write(report, resuming_from, resumed))
        resuming.report = output.file
        output.check()
        keeper = _keeper(output.file, resumed, checkpoint_seconds)
        from ..tune_view import telling

        try:
            with telling(settings.goal, quiet) as told:
                tuning = tournaments.tune(settings, done=resumed.trials, told=told, keeper=keeper)
        except tournaments.TuneStopped as stop:
            tuning = stop.tuning
        kept = _deliver(output, tuning, keeper)
        if plot is not None:
            plot_table(tuning.to_report(), plot)
    if not tuning.done:
        _stopped(output, len(tuning.trials), kept)
    if output.table:
        from ..tune_view import quiet_line, show

        if quiet:
            output.note(quiet_line(tuning))
        else:
            show(output.console(), tuning)
    for note in tuning.notes:
        typer.echo(f"shutbox: note: {note}", err=True)
    output.written()
    recording.record(tuning)  # the results shown first: a locked history holds back only the recording


def _stopped(output: Output, trials: int, checkpoint: Path | None) -> NoReturn:
    """Say the tune stopped, with its trials kept in its report or checkpoint (and how to resume), and exit."""
    from tournaments import checkpoint_path

    from ..signals import stopped_status

    if output.file is not None and checkpoint is not None and checkpoint == checkpoint_path(output.file):
        given = shlex.quote(str(output.file))
        kept = f", kept in its report and its checkpoint; resume with: shutbox tune --resume {given}"
    elif checkpoint is not None:
        kept = f", kept in a checkpoint; resume with: shutbox tune --resume {shlex.quote(str(checkpoint))}"
    elif output.file is not None:
        kept = ", kept in its report (no checkpoint could be written to resume it)"
    else:
        kept = " (give --report FILE to keep them)"
    typer.echo(f"shutbox: stopped after {trials} trials{kept}", err=True)
    raise typer.Exit(stopped_status())


def _settings(
    spec: str | None,
    param: list[str] | None,
    field: list[str] | None,
    rules: dict[str, Any],
    chosen: dict[str, Any],
    resume: Path | None,
) -> "tuple[TuneSettings, Resumable]":
    """The tune's settings from the options, or from the checkpoint or report it resumes, with its
    trials so far."""
    import tournaments
    from tournaments.parts import Resumable, read_resumable

    if resume is not None:
        if spec is not None or param or field or any(v is not None for v in [*rules.values(), *chosen.values()]):
            fail("--resume finishes a tune as it was started: give it alone, with -j, --scheduler, --report or --plot.")
        resumed = read_resumable(resume)
        if resumed.done:
            fail(f"the tune of {str(resume)!r} is done: there is nothing to resume.")
        return resumed.settings, resumed
    if spec is None:
        fail("a tune takes the strategy SPEC to tune (or --resume CHECKPOINT).")
    settings = tournaments.TuneSettings(
        spec,
        tournaments.parse_parameters(param or []),
        tuple(field or ()),
        rules,
        **{key: value for key, value in chosen.items() if value is not None},
    )
    return settings, Resumable(settings, (), False)


def _report_to_write(report: Path | None, resume: Path | None, resumed: "Resumable") -> Path | None:
    """The report given, else a resumed tune's: the stopped report it resumes, or its checkpoint's
    (only the one beside it: `tournaments.resumed_report`)."""
    from tournaments.parts import resumed_report

    if report is not None or resume is None:
        return report
    return resume if resumed.checkpoint is None else resumed_report(resumed.checkpoint, resumed.report)


def _keeper(report: Path | None, resumed: "Resumable", seconds: float | None) -> "TuneKeeper":
    """The keeper of the tune's checkpoint: the one it resumes, else one beside its report."""
    from tournaments.parts import CHECKPOINT_SECONDS, TuneKeeper, tune_checkpoint_path

    every = CHECKPOINT_SECONDS if seconds is None else seconds
    if resumed.checkpoint is not None:
        return TuneKeeper(resumed.checkpoint, report, owned=True, seconds=every)
    return TuneKeeper(tune_checkpoint_path(report), report, seconds=every)


def _from_file(path: Path, *given: Any) -> tuple[Any, ...]:
    """The options given, each in place of the tune file's value (the rules one by one)."""
    from tournaments.parts import read_tune_file

    tune, rules = read_tune_file(path)
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


def _deliver(output: Output, tuning: "Tuning", keeper: "TuneKeeper") -> Path | None:
    """The report, whole or not at all, to its file and to stdout as asked; then the checkpoint goes,
    unless a stopped tune without a report keeps its trials there (its path)."""
    from tournaments import write_tune

    kept = None
    if output.file is not None:
        kept = write_tune(output.file, tuning, keeper)
    elif tuning.done:
        keeper.discard()
    else:
        kept = keeper.keep(tuning)
    if output.to_stdout:
        print_document(tuning.to_report(), Format.JSON if output.form is Format.JSON else Format.TOML)
    return kept
