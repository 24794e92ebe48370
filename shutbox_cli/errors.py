"""How the face reports a user's mistake: one sentence on stderr and exit status 2."""

from typing import NoReturn

import typer

USAGE_ERROR = 2


def fail(message: str, status: int = USAGE_ERROR) -> NoReturn:
    """Print `shutbox: error: message` to stderr and exit with `status`."""
    typer.echo(f"shutbox: error: {message}", err=True)
    raise typer.Exit(status)
