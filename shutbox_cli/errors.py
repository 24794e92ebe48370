"""How the face ends a command that went wrong: the exit statuses every command shares, and
errors as one sentence on stderr after the one prefix."""

from typing import NoReturn

import typer

FAILURE = 1
"""The command could not finish: a strategy failed, input ended mid-game, the output went away."""
USAGE_ERROR = 2
"""The user asked for something the command cannot do: a bad option, file or rule set."""
INTERRUPTED = 130
"""Ctrl-C, as shells report a process ended by SIGINT (128 + 2)."""
ERROR_PREFIX = "shutbox: error: "


def say_error(message: str) -> None:
    """Print `shutbox: error: message` to stderr, control characters written out: a message may
    quote a strategy's name, answer or exception, which must not reach the terminal raw."""
    from strategies.shown import printable_lines

    typer.echo(f"{ERROR_PREFIX}{printable_lines(message)}", err=True)


def fail(message: str, status: int = USAGE_ERROR) -> NoReturn:
    """Say the error and exit with `status`."""
    say_error(message)
    raise typer.Exit(status)
