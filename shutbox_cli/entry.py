"""The `shutbox` console script: `shutbox --version` answers at once; anything else loads the
command line (typer and the commands) first."""

import sys

from . import __version__


def main() -> None:
    """Print the version without loading the command line, or run the command."""
    if sys.argv[1:] == ["--version"]:
        print(f"shutbox {__version__}")
        return
    from .cli import main as run

    run()
