"""What the commands that run games share (tournament, match, tune): how a run that ends early
is said, which report a run writes, and what is done once its strategies are loaded."""

import contextlib
import os
import shlex
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import typer

from .errors import FAILURE, FORFEITED, USAGE_ERROR, fail, say_error, stopped_status
from .output import Format
from .settings import said
from .signals import received, stop_on_signals

if TYPE_CHECKING:
    from tournaments import Summary, TournamentConfig
    from tournaments.parts import Gate


class Resuming:
    """How a stopped run of a command is resumed: `report` is the report the run writes, which the
    resume command names unless it is the one beside the checkpoint (a resume given no report writes
    no other: docs/files.md)."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.report: Path | None = None

    def hint(self, checkpoint: Path) -> str:
        from tournaments import checkpoint_path

        words = f"resume with: shutbox {self.command} --resume {shlex.quote(str(checkpoint))}"
        beside = self.report is None or os.path.abspath(checkpoint_path(self.report)) == os.path.abspath(checkpoint)
        return words if beside else f"{words} --report {shlex.quote(str(self.report))}"


@contextlib.contextmanager
def ends_cleanly(command: str = "tournament", arguments: Mapping[str, str] | None = None) -> Iterator[Resuming]:
    """Every way a run of this command can end early, as one sentence and its exit status (and how
    to resume: the command tells the `Resuming` it is given the report it writes); a strategy given
    as a positional argument is named by it (`settings.said`)."""
    import tournaments

    resuming = Resuming(command)
    finished = "the trials so far are" if command == "tune" else "the finished games are"
    try:
        yield resuming
    except (tournaments.ConfigError, tournaments.FileWriteError) as error:
        kept = getattr(error, "checkpoint", None)  # a report not written keeps the finished run
        if kept is None:
            fail(said(error, arguments, command))
        say_error(said(error, arguments, command))
        typer.echo(f"shutbox: {finished} kept; {resuming.hint(kept)}", err=True)
        raise typer.Exit(USAGE_ERROR) from None
    except tournaments.TournamentFailure as error:
        say_error(said(error, arguments, command))
        if error.checkpoint is not None:
            typer.echo(f"shutbox: {finished} kept; {resuming.hint(error.checkpoint)}", err=True)
        raise typer.Exit(FAILURE) from None
    except tournaments.Interrupted as stop:
        if stop.checkpoint is None:
            _stopped(str(stop))
        _stopped(f"interrupted after {stop.games:,} of {stop.total:,} games", resuming.hint(stop.checkpoint))
    except KeyboardInterrupt:
        _stopped("interrupted")
    except Exception:
        if received() is None:
            raise
        _stopped("interrupted")  # the stop broke something on its way out (a library's bare `except:`)


def report_to_write(resume: Path | None, report: Path | None, form: Format) -> Path | None:
    """The report a run writes: the one given, else a resumed run's as its checkpoint records it
    (with a note if it records none and the results would only be shown)."""
    from tournaments.parts import recorded_report

    if resume is None or report is not None:
        return report
    recorded = recorded_report(resume)
    if recorded is None and form is Format.TABLE:
        typer.echo(
            "shutbox: note: this run was started without --report, so its results are only shown; "
            "to keep them, stop it and resume with --report FILE.",
            err=True,
        )
    return recorded


def loaded(config: "TournamentConfig", gates: "list[Gate]") -> None:
    """Once the strategies are loaded: the gates name them, the config's warnings are said, and the
    stop signals are ours again (a strategy's module, imported just now, may have taken them)."""
    if gates:
        from tournaments.parts import check_names

        check_names(gates, config.names)
    for line in config.warnings:
        typer.echo(line, err=True)
    stop_on_signals()


FORFEITS_SHOWN = 5
"""The forfeits a run names on stderr, at most, before it counts the rest (its report names all)."""


def say_forfeits(summary: "Summary", command: str) -> None:
    """Name on stderr each failure a run went on after (`--on-failure`): who, what it lost, where
    and why, one line each, the first few and a count of the rest."""
    from tournaments import TournamentError

    forfeits = summary.forfeits
    for forfeit in forfeits[:FORFEITS_SHOWN]:
        where = ", ".join(forfeit.titles)
        if forfeit.disqualified:
            what = f"strategy {forfeit.strategy!r} is disqualified, its games left out of the results"
        else:
            what = f"strategy {forfeit.strategy!r} forfeits {forfeit.games:,} games of {where} (not played)"
        why = said(TournamentError(forfeit.marked), None, command)
        typer.echo(f"shutbox: {what}: it failed in work unit {forfeit.unit}, {why}", err=True)
    if len(forfeits) > FORFEITS_SHOWN:
        more = len(forfeits) - FORFEITS_SHOWN
        typer.echo(
            f"shutbox: and {more:,} more forfeit{'s' if more > 1 else ''}; the report names every one.", err=True
        )


def forfeited(summary: "Summary") -> None:
    """Exit with `FORFEITED` if a strategy forfeited games or was disqualified."""
    if summary.forfeits:
        raise typer.Exit(FORFEITED)


def _stopped(what: str, hint: str | None = None) -> NoReturn:
    """Say the run stopped (and by which signal, unless Ctrl-C) and how to resume, and exit with its status."""
    import signal

    number = received()
    by = "" if number in (None, signal.SIGINT) else f", by {signal.Signals(number).name}"
    then = "." if hint is None else f"; {hint}"  # no full stop after a command to copy
    typer.echo(f"shutbox: {what}{by}; no report written{then}", err=True)
    raise typer.Exit(stopped_status(number))
