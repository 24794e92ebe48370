"""`shutbox ARGS` as its console script runs it, in this process: usage errors in our words, exit
statuses, stdout and stderr apart, the environment and folder given. For tests of what a command
says and does where no process behaviour (signals, pipes, encodings, threads left running, a fresh
interpreter's imports) is under test: a real `shutbox` costs a third of a second of processor time
before it does anything, this a few milliseconds."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import types
from collections.abc import Mapping
from pathlib import Path

from typer._click import formatting
from typer.testing import CliRunner

from shutbox_cli import cli


def shutbox(
    *args: str, env: Mapping[str, str | None] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the command as the console script does (`shutbox_cli.cli.main` but for ending the
    process); `env` is laid over this process's environment for the run."""
    with contextlib.ExitStack() as stack:
        out, err, _ = stack.enter_context(CliRunner().isolation(env=env))
        formatting.FORCED_WIDTH = None  # the isolation's 80 columns (it puts them back): COLUMNS, as a command reads it
        if cwd is not None:
            stack.enter_context(contextlib.chdir(cwd))
        # The program's name, `shutbox`, is read from these as the console script has them (not `python -m pytest`).
        argv, main = sys.argv, sys.modules["__main__"]
        sys.argv, sys.modules["__main__"] = ["shutbox", *args], types.ModuleType("__main__")
        try:
            status = cli._run()
        except SystemExit as stop:  # what ends the process in `main`
            status = 0 if stop.code is None else stop.code if isinstance(stop.code, int) else 1
        finally:
            sys.argv, sys.modules["__main__"] = argv, main
            sys.stdout.flush()
            sys.stderr.flush()
        return subprocess.CompletedProcess(["shutbox", *args], status, out.getvalue().decode(), err.getvalue().decode())
