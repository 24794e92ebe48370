"""`shutbox tournament [CONFIG.toml]`: pit strategies against each other, seeded, in parallel."""

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..arguments import (
    Duplicate,
    Games,
    OnFailure,
    Quiet,
    Report,
    Seed,
    Strategies,
    Table,
    field_options,
    on_failure_option,
    sprt_option,
)
from ..errors import FAILURE
from ..knockout_play import KnockoutChoice
from ..output import Format, FormatOption, Output
from ..plotting import PlotOption, check_plot, plot_result
from ..recording import HistoryOption, Recording
from ..rule_options import with_rule_options
from ..running import ends_cleanly, forfeited, loaded, report_to_write, say_forfeits
from ..signals import stop_on_signals

if TYPE_CHECKING:
    from tournaments import ExactSummary, Summary
    from tournaments.parts import Gate


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament_command)


@with_rule_options
def tournament_command(
    rule_values: dict[str, Any],
    config_file: Annotated[
        Path | None,
        typer.Argument(
            metavar="CONFIG.toml",
            show_default=False,
            help="A tournament file, or the report of an earlier run, which runs again (TOML, or JSON for a "
            ".json file); options override it.",
        ),
    ] = None,
    strategy: Strategies = None,
    games: Games = None,
    table: Table = None,
    seed: Seed = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            "-j",
            metavar="N",
            show_default=False,
            help="Processes that play, this one among them [default: one per core]. A user's strategy always runs "
            "in a process of its own, also at -j 1, so that the run can stop it at --timeout or Ctrl-C and report "
            "its crash; at -j 1 the rest plays in this process, and so does a run short enough to take about a "
            "second or finding fewer than two cores idle.",
        ),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            metavar="ADDRESS",
            show_default=False,
            help="Play on the Dask cluster of this scheduler (tcp://HOST:8786), or on this machine's cores started "
            'for the run (local); needs pip install ".[dask]" in shutbox\'s checkout.',
        ),
    ] = None,
    duplicate: Duplicate = None,
    gauntlet: Annotated[
        int | None,
        typer.Option(
            "--gauntlet",
            metavar="N",
            show_default=False,
            help="Play the first N strategies (in -s order) against the rest, which do not meet one another; "
            "2 for two versions of one against a field [default: 0, every strategy against every other].",
        ),
    ] = None,
    timeout: Annotated[
        float | None,
        typer.Option(
            "--timeout",
            metavar="SECONDS",
            show_default=False,
            help="Stop the run when a work unit (about 2,000 games) that seats a user's strategy takes longer than "
            "this [default: 120]; built-in strategies are never stuck, and play on.",
        ),
    ] = None,
    exact: Annotated[
        bool | None,
        typer.Option(
            "--exact/--simulate",
            show_default=False,
            help="Compute every game's chances exactly instead of playing games (exact strategies, and keyed "
            "ones such as target in one-round games and at a table of two; --games and --seed do not apply) "
            "[default: simulate, or the file's method].",
        ),
    ] = None,
    on_failure: Annotated[
        OnFailure | None,
        on_failure_option(
            "What the run does when a user's strategy fails (raises, breaks the rules, hangs past --timeout, or its "
            "process dies): stop (exit 1); forfeit its games of that work unit, not played, and go on; or disqualify "
            "it, its games all left out, and go on; the report and stderr name it, exit 5 [default: stop].",
        ),
    ] = None,
    memory_limit: Annotated[
        int | None,
        typer.Option(
            "--memory-limit",
            metavar="MIB",
            show_default=False,
            help="Memory each worker process may use, in MiB; a strategy that needs more fails, named; 0: no limit "
            "[default: three quarters of the machine's memory, shared by the workers].",
        ),
    ] = None,
    # Hidden: what every run does (a user's strategy always runs in a process of its own); --no-isolate is refused.
    isolate: Annotated[bool | None, typer.Option("--isolate/--no-isolate", hidden=True)] = None,
    report: Report = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            metavar="CHECKPOINT",
            show_default=False,
            help="Finish an interrupted run from the checkpoint it named, with the report an uninterrupted run "
            "writes; only --workers, --scheduler, --timeout, --memory-limit and --report go with it.",
        ),
    ] = None,
    fail_if: Annotated[
        list[str] | None,
        typer.Option(
            "--fail-if",
            metavar="GATE",
            show_default=False,
            help="Exit 1 when this holds of the results, the report still written (repeat for more): NAME.KEY OP "
            'NUMBER, such as "mybot.win_rate < 0.5" or "*.rank > 3"; KEY is a ranking figure (win_rate, '
            "mean_score, shut_rate, rank, wins and more), OP one of < <= > >= == !=.",
        ),
    ] = None,
    plot: PlotOption = None,
    history: HistoryOption = None,
    quiet: Quiet = False,
    form: FormatOption = Format.TABLE,
    system: Annotated[
        str | None,
        typer.Option(
            "--system",
            metavar="SYSTEM",
            show_default=False,
            help="How the field meets: round-robin (every strategy against every other) or knockout (a seeded "
            "bracket of ties, each a match of game pairs at a table of two, the loser out; byes to the top "
            "seeds) [default: round-robin, or a knockout report's].",
        ),
    ] = None,
    seeding: Annotated[
        str | None,
        typer.Option(
            "--seeding",
            metavar="HOW",
            show_default=False,
            help="A knockout's seeds: order (as -s or the file gives the field, the first seed first), ratings "
            "(by the ratings of the report --ratings names) or exact (by the field's exact tournament, every "
            "entrant exact) [default: order].",
        ),
    ] = None,
    ratings: Annotated[
        Path | None,
        typer.Option(
            "--ratings",
            metavar="REPORT",
            show_default=False,
            help="The tournament report whose ratings seed a knockout (with --seeding ratings).",
        ),
    ] = None,
    sprt: Annotated[
        str | None,
        sprt_option("the higher seed", "each played tie of a knockout", "; --games is then the most a tie plays"),
    ] = None,
    # Hidden: every seat turn by turn, the reference the bulk engine is tested against.
    general_engine: Annotated[bool, typer.Option("--general-engine", hidden=True)] = False,
    # Hidden: how often the checkpoint is written, so the tests need not wait the default seconds.
    checkpoint_seconds: Annotated[
        float | None, typer.Option("--checkpoint-seconds", hidden=True, min=0.01, metavar="SECONDS")
    ] = None,
) -> None:
    """Run a seeded tournament of strategies and rank them, or with --exact compute it exactly.

    With no arguments at all: a quick tournament of the built-in strategies. Strategies given
    with -s replace the file's. A run that lasts more than a few seconds keeps a checkpoint
    (beside the report, else in the user's state folder) until its report is written; after a
    stop or a failure, --resume CHECKPOINT finishes it and writes that report (beside the checkpoint,
    or where --report says; never a path read from the checkpoint alone). A user's strategy
    runs in a process of its own that is asked each question and whose every answer is checked,
    in a process group of its own with a memory limit; at a timeout, a failure, the end of the run
    or a stop, each group is killed, so nothing a strategy started outlives the run.

    With --system knockout the field plays a seeded bracket instead (`shutbox docs tournaments`):
    each tie computed exactly where both strategies can be, else a match of game pairs on the seed.

    Exit status: 0 done, 1 a strategy failed or a --fail-if gate held, 2 a usage or config error, 130 interrupted by
    Ctrl-C (SIGINT), 143 by SIGTERM, 129 by SIGHUP (each a clean stop: no report written).
    Exit status 5: done after a strategy failed and the run went on (--on-failure forfeit or disqualify).

    Examples:
      shutbox tournament -s optimal -s tips -n 10000 --seed 7
      shutbox tournament examples/tournament.toml -o run.toml
      shutbox tournament --system knockout -s tips -s random
    """
    stop_on_signals()
    recording = Recording(history)
    import tournaments
    from tournaments import checkpoint_path
    from tournaments.parts import CHECKPOINT_SECONDS

    from ..progress import progress_bar

    options = dataclasses.replace(
        field_options(strategy, games, table, seed, duplicate, rule_values),
        workers=workers,
        scheduler=scheduler,
        timeout=timeout,
        method=None if exact is None else "exact" if exact else "simulate",
        gauntlet=gauntlet,
        memory_limit=memory_limit,
        isolate=isolate,
        on_failure=None if on_failure is None else on_failure.value,
    )
    knockout = KnockoutChoice(system, seeding, ratings, sprt)
    if knockout.chosen(config_file):
        knockout.refuse(resume=resume, fail_if=fail_if, plot=plot)
        recording.record(knockout.play(config_file, options, Output(form, report), quiet))
        return
    every = CHECKPOINT_SECONDS if checkpoint_seconds is None else checkpoint_seconds
    with ends_cleanly() as resuming:
        output = Output(form, report_to_write(resume, report, form))
        resuming.report = output.file
        gates = _gates(fail_if or [])
        output.check()  # before the run, not after it
        if plot is not None:
            check_plot(plot)
        alone: list[str] = []
        with progress_bar(show_bar=not quiet, extra=lambda: "one process: busy machine" if alone else "") as progress:
            summary = tournaments.run(
                config_file,
                options,
                resume_from=resume,
                checkpoint=None if resume is not None else checkpoint_path(output.file),
                report=output.file,
                progress=progress,
                bulk=not general_engine,
                checkpoint_seconds=every,
                loaded=lambda config: loaded(config, gates),
                alone=lambda why: _played_alone(why, workers, alone),
            )
        output.deliver(summary, written=True)  # the run wrote the file before removing its checkpoint
    try:
        _render(output, summary, quiet)
        if isinstance(summary, tournaments.Summary):
            say_forfeits(summary, "tournament")
        if plot is not None:
            plot_result(summary, plot)
        _apply_gates(gates, summary)
        if isinstance(summary, tournaments.Summary):
            forfeited(summary)
    finally:  # the results shown first: a locked history holds back only the recording
        recording.record(summary)


def _played_alone(why: str, workers: int | None, said: list[str]) -> None:
    """Say on stderr, as the games start, that the run plays in one process for the machine's load
    (and keep the word for the progress line): the report is the same either way."""
    asked = "one worker per core" if workers is None else f"-j {workers}"
    typer.echo(f"shutbox: {why} (asked: {asked}); the report is the same either way.", err=True)
    said.append(why)


def _gates(texts: list[str]) -> "list[Gate]":
    """The --fail-if gates (their parser loaded only for a run given one)."""
    if not texts:
        return []
    from tournaments.parts import parse_tournament_gate

    return [parse_tournament_gate(text) for text in texts]


def _render(output: Output, summary: "Summary | ExactSummary", quiet: bool) -> None:
    """The table (or the --quiet line) where the output says, then the notes on stderr."""
    from tournaments import Summary

    from ..literal import literal
    from ..pointers import pointer_line
    from ..tournament_view import quiet_line, show

    if isinstance(summary, Summary) and summary.seed_drawn and summary.config.seed is not None:
        output.drawn(summary.config.seed)
    if output.table and quiet:
        output.note(quiet_line(summary))
    elif output.table:
        show(output.console(), summary)
        pointer = pointer_line(summary, "tournament")
        if pointer is not None:
            output.console().print(literal(pointer))
    output.written()


def _apply_gates(gates: "list[Gate]", summary: "Summary | ExactSummary") -> None:
    """Say each gate that holds of the report's ranking on stderr, and exit 1 if any does."""
    if not gates:
        return
    from tournaments import report_table
    from tournaments.parts import tournament_failures

    failed = tournament_failures(gates, report_table(summary)["ranking"])
    for line in failed:
        typer.echo(line, err=True)
    if failed:
        raise typer.Exit(FAILURE)
