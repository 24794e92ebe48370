"""`shutbox match NEW OLD`: two strategies in game pairs on duplicate deals, the seats swapped; the
paired difference, Elo with error bars, and an SPRT that stops when it knows (docs/statistics.md)."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..arguments import OnFailure, Quiet, Report, Scheduler, Seed, Workers, on_failure_option, sprt_option
from ..completion import complete_strategy
from ..errors import fail
from ..output import Format, FormatOption, Output
from ..plotting import PlotOption, check_plot, plot_result
from ..recording import HistoryOption, Recording
from ..rule_options import with_rule_options
from ..running import ends_cleanly as _ends_cleanly
from ..running import forfeited as _forfeited
from ..running import loaded as _loaded
from ..running import report_to_write as _report_to_write
from ..running import say_forfeits as _say_forfeits
from ..signals import stop_on_signals

if TYPE_CHECKING:
    from tournaments import Match, Summary, TournamentConfig

H0_ACCEPTED = 3
"""The exit status of a match whose SPRT accepted H0."""
UNDECIDED = 4
"""The exit status of a match whose SPRT ran out of games undecided."""
SPRT_GAMES = 1_000_000
"""The most games an SPRT plays when --games does not say: enough for a test about 1 Elo wide."""


def register(app: typer.Typer) -> None:
    app.command("match")(match_command)


@with_rule_options
def match_command(
    rule_values: dict[str, Any],
    new: Annotated[
        str | None,
        typer.Argument(
            metavar="NEW",
            show_default=False,
            autocompletion=complete_strategy,
            help="The strategy to test: a name, module:Class or path/file.py:Class, maybe with (k=v).",
        ),
    ] = None,
    old: Annotated[
        str | None, typer.Argument(metavar="BASELINE", show_default=False, help="The strategy to beat.")
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            "-n",
            metavar="N",
            show_default=False,
            help="Games to play, in pairs; with --sprt the most to play [default: 2000; with --sprt 1,000,000].",
        ),
    ] = None,
    sprt: Annotated[str | None, sprt_option("NEW")] = None,
    seed: Seed = None,
    workers: Workers = None,
    scheduler: Scheduler = None,
    report: Report = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            metavar="CHECKPOINT",
            show_default=False,
            help="Finish an interrupted match from the checkpoint it named, as the uninterrupted one ends (without "
            "NEW and BASELINE; only -j, --scheduler and --report go with it).",
        ),
    ] = None,
    on_failure: Annotated[
        OnFailure | None,
        on_failure_option(
            "What the match does when a user's strategy fails (raises, breaks the rules, or its process dies): "
            "stop (exit 1), or forfeit its games of that work unit, not played, and go on, the report and stderr "
            "naming it, exit 5 [default: stop]; a match has no one to play once one is disqualified.",
        ),
    ] = None,
    quiet: Quiet = False,
    form: FormatOption = Format.TABLE,
    plot: PlotOption = None,
    history: HistoryOption = None,
) -> None:
    """Play NEW against BASELINE in game pairs: each deal twice, the seats swapped, on the same dice.
    Shows NEW's score with its 95% interval from the pairs (much tighter than from the games one by
    one), the win-rate difference, the Elo difference with error bars and the pair counts, and where
    both can be computed exactly and quickly, NEW's exact score beside them; with --sprt, stops as
    soon as the test decides (it looks every 128 games, at the same game at any -j), the LLR on the
    progress line. Two versions named alike play under their specs as typed.
    A match that lasts more than a few seconds keeps a checkpoint until it ends; --resume finishes it.

    Exit status: 0 done (with --sprt: H1 accepted), 3 H0 accepted, 4 undecided when the games ran
    out, 1 a strategy failed, 2 a usage error, 5 done after a strategy forfeited games (--on-failure
    forfeit, whatever the verdict), 130 interrupted.

    Examples:
      shutbox match bot.py:Bot optimal -n 20000
      shutbox match new.py:B old.py:B --sprt "elo0=-5 elo1=0"
      shutbox match new.py:B old.py:B --sprt model=normalized
    """
    stop_on_signals()
    recording = Recording(history)
    import tournaments

    from ..match_view import sprt_line
    from ..progress import progress_bar

    if (resume is None) != (new is not None and old is not None):
        fail("a match takes NEW and BASELINE, or --resume CHECKPOINT alone.")
    if resume is not None and sprt is not None:
        fail(f"--sprt cannot change a resumed match: checkpoint {str(resume)!r} holds its test.")
    test = None
    if sprt is not None:
        try:
            test = tournaments.parse_sprt(sprt)
        except ValueError as error:
            fail(f"--sprt: {error}")
        games = SPRT_GAMES if games is None else games
    if plot is not None:
        check_plot(plot)
    strategies = () if new is None or old is None else _apart(new, old)
    options = tournaments.Options(
        strategies=strategies,
        games=games,
        seed=seed,
        workers=workers,
        scheduler=scheduler,
        rules=rule_values,
        on_failure=None if on_failure is None else on_failure.value,
    )
    standing = [""]

    def watch(match: "Match", played: int) -> None:
        standing[0] = sprt_line(match, played)

    with _ends_cleanly("match", dict(zip(strategies, ("NEW", "BASELINE"), strict=False))) as resuming:
        output = Output(form, _report_to_write(resume, report, form))
        resuming.report = output.file
        output.check()
        with progress_bar(show_bar=not quiet, extra=lambda: standing[0]) as progress:
            if resume is not None:
                summary = tournaments.resume(
                    resume, options, progress=progress, report=output.file, watch=watch, loaded=_loaded_match
                )
            else:
                summary = tournaments.play_match(
                    options,
                    test,
                    progress=progress,
                    watch=watch,
                    report=output.file,
                    checkpoint=tournaments.checkpoint_path(output.file),
                    loaded=_loaded_match,
                )
        output.deliver(summary, written=True)
    if plot is not None:
        plot_result(summary, plot)
    try:
        _render(output, summary, quiet)
    finally:  # the results shown first: a locked history holds back only the recording
        recording.record(summary)


def _apart(new: str, old: str) -> tuple[str, str]:
    """NEW and BASELINE as the library takes them: one strategy given twice, unnamed, plays as `new`
    and `baseline` (two versions named alike play under their specs: the library names them apart)."""
    from strategies.runner import split_name

    if new.strip() == old.strip() and split_name(new)[0] is None:
        return f"new={new}", f"baseline={old}"
    return new, old


def _loaded_match(config: "TournamentConfig") -> None:
    _loaded(config, [])


def _render(output: Output, summary: "Summary", quiet: bool) -> None:
    """The match's lines (or the --quiet line) where the output says, then its exit status by the verdict."""
    from tournaments import Verdict

    from ..match_view import match_lines
    from ..pointers import pointer_line
    from ..quiet import match_line

    if output.table:
        for line in [match_line(summary)] if quiet else match_lines(summary, pointer=pointer_line(summary, "match")):
            output.note(line)
    output.written()
    _say_forfeits(summary, "match")
    _forfeited(summary)
    match = summary.match
    if match is not None and match.sprt is not None and match.verdict is not Verdict.H1:
        raise typer.Exit(H0_ACCEPTED if match.verdict is Verdict.H0 else UNDECIDED)
