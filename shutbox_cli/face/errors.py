"""How the face ends a command that went wrong: the exit statuses every command shares, and
errors as one sentence on stderr after the one prefix."""

import warnings
from typing import Any, NoReturn, TextIO

import typer

FAILURE = 1
"""The command could not finish: a strategy failed, input ended mid-game, the output went away."""
USAGE_ERROR = 2
"""The user asked for something the command cannot do: a bad option, file or rule set."""
FORFEITED = 5
"""The run finished, but a user's strategy failed on the way: it forfeited games or was disqualified
(`--on-failure`), and the report names it."""
INTERRUPTED = 130
"""Ctrl-C, as shells report a process ended by SIGINT (128 + 2)."""
HUNG_UP = 129
"""SIGHUP (the terminal closed), handled like Ctrl-C: 128 + 1."""
TERMINATED = 143
"""SIGTERM (a polite kill), handled like Ctrl-C: 128 + 15."""
ERROR_PREFIX = "shutbox: error: "


def stopped_status(signal_number: int | None) -> int:
    """The exit status of a command stopped by a signal (None: Ctrl-C, as far as we know)."""
    return {1: HUNG_UP, 15: TERMINATED}.get(signal_number or 2, INTERRUPTED)


def say_error(message: str) -> None:
    """Print `shutbox: error: message` to stderr, control characters written out: a message may
    quote a strategy's name, answer or exception, which must not reach the terminal raw."""
    from strategies.runner import printable_lines

    typer.echo(f"{ERROR_PREFIX}{printable_lines(message)}", err=True)


def fail(message: str, status: int = USAGE_ERROR) -> NoReturn:
    """Say the error and exit with `status`."""
    say_error(message)
    raise typer.Exit(status)


def say_warning(message: str) -> None:
    """Print `warning: message` to stderr, control characters written out."""
    from strategies.runner import printable_lines

    typer.echo(f"warning: {printable_lines(message)}", err=True)


def show_strategy_warnings() -> None:
    """Say each warning the strategy loader gives (a strategy name two packages claim) once, as a
    line of its own; the loader keeps them to itself unless told, so its workers stay quiet."""
    # "once", not "default": "default" forgets what it said whenever a filter changes.
    warnings.filterwarnings("once", category=UserWarning, module=r"strategies\.names\Z")
    shown = warnings.showwarning

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> Any:
        from strategies.runner import StrategyNameClash

        if issubclass(category, StrategyNameClash):
            say_warning(str(message))
        else:
            shown(message, category, filename, lineno, file, line)

    warnings.showwarning = show
