"""The `shutbox` console script: `shutbox --version` answers at once; anything else takes the
stop signals (`signals`) first, then loads the command line (typer and the commands)."""

import os
import sys

from . import __version__


def main() -> None:
    """Print the version without loading the command line, or run the command; either way on
    streams that write what their encoding lacks and end quietly when their reader goes away. A stop
    signal while the command line loads is said like one during the command."""
    # numpy's linear algebra threads (OpenBLAS's) serve nothing shutbox does, and a process running
    # them could only spawn a pool's workers, not fork them (`tournaments.backends.pool.start_method`).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from .face.streams import closed_pipe, flushed, write_what_encodes

    write_what_encodes()
    if sys.argv[1:] == ["--version"]:
        try:
            print(f"shutbox {__version__}")
        except BrokenPipeError:
            sys.exit(closed_pipe())
        sys.exit(flushed(0))
    from .face.signals import ignore_once_stopped, say_stopped, stop_on_signals

    try:
        stop_on_signals()
        from .face.cli import main as run
    except KeyboardInterrupt:
        status = say_stopped()
        ignore_once_stopped()
        sys.exit(status)
    run()
