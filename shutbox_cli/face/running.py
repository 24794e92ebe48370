"""What the commands that run games share (tournament, match, tune): how a run that ends early
is said, which report a run writes, and what is done once its strategies are loaded."""

import contextlib
import shlex
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import typer

from .errors import FAILURE, USAGE_ERROR, fail, say_error, stopped_status
from .output import Format
from .settings import said
from .signals import received, stop_on_signals

if TYPE_CHECKING:
    from tournaments import Gate, TournamentConfig


@contextlib.contextmanager
def ends_cleanly(command: str = "tournament", arguments: Mapping[str, str] | None = None) -> Iterator[None]:
    """Every way a run of this command can end early, as one sentence and its exit status (and how to
    resume); a strategy given as a positional argument is named by it (`settings.said`)."""
    import tournaments

    try:
        yield
    except (tournaments.ConfigError, tournaments.FileWriteError) as error:
        kept = getattr(error, "checkpoint", None)  # a report not written keeps the finished run
        if kept is None:
            fail(said(error, arguments))
        say_error(said(error, arguments))
        typer.echo(f"shutbox: the finished games are kept; {_resume_hint(kept, command)}", err=True)
        raise typer.Exit(USAGE_ERROR) from None
    except tournaments.TournamentFailure as error:
        say_error(said(error, arguments))
        if error.checkpoint is not None:
            typer.echo(f"shutbox: the finished games are kept; {_resume_hint(error.checkpoint, command)}", err=True)
        raise typer.Exit(FAILURE) from None
    except tournaments.Interrupted as stop:
        if stop.checkpoint is None:
            _stopped(str(stop))
        _stopped(f"interrupted after {stop.games:,} of {stop.total:,} games", _resume_hint(stop.checkpoint, command))
    except KeyboardInterrupt:
        _stopped("interrupted")
    except Exception:
        if received() is None:
            raise
        _stopped("interrupted")  # the stop broke something on its way out (a library's bare `except:`)


def report_to_write(resume: Path | None, report: Path | None, form: Format) -> Path | None:
    """The report a run writes: the one given, else a resumed run's as its checkpoint records it
    (with a note if it records none and the results would only be shown)."""
    from tournaments import recorded_report

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
        from tournaments import check_names

        check_names(gates, config.names)
    for line in config.warnings:
        typer.echo(line, err=True)
    stop_on_signals()


def _stopped(what: str, hint: str | None = None) -> NoReturn:
    """Say the run stopped (and by which signal, unless Ctrl-C) and how to resume, and exit with its status."""
    import signal

    number = received()
    by = "" if number in (None, signal.SIGINT) else f", by {signal.Signals(number).name}"
    then = "." if hint is None else f"; {hint}"  # no full stop after a command to copy
    typer.echo(f"shutbox: {what}{by}; no report written{then}", err=True)
    raise typer.Exit(stopped_status(number))


def _resume_hint(checkpoint: Path, command: str = "tournament") -> str:
    return f"resume with: shutbox {command} --resume {shlex.quote(str(checkpoint))}"
