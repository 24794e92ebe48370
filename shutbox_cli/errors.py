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
    """Print `shutbox: error: message` to stderr."""
    typer.echo(f"{ERROR_PREFIX}{message}", err=True)


def fail(message: str, status: int = USAGE_ERROR) -> NoReturn:
    """Say the error and exit with `status`."""
    say_error(message)
    raise typer.Exit(status)
