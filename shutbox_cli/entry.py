"""The `shutbox` console script: `shutbox --version` answers at once; anything else loads the
command line (typer and the commands) first."""

import sys

from . import __version__


def main() -> None:
    """Print the version without loading the command line, or run the command; either way on
    streams that write what their encoding lacks and end quietly when their reader goes away."""
    from .streams import closed_pipe, flushed, write_what_encodes

    write_what_encodes()
    if sys.argv[1:] == ["--version"]:
        try:
            print(f"shutbox {__version__}")
        except BrokenPipeError:
            sys.exit(closed_pipe())
        sys.exit(flushed(0))
    from .cli import main as run

    run()
