"""The one home of running `shutbox ARGS` in a test, in one terminal environment (`environment`):

- `shutbox`: as its console script runs it, in this process: usage errors in our words, exit
  statuses, stdout and stderr apart, the environment and folder given. For tests of what a command
  says and does where no process behaviour (signals, pipes, encodings, threads left running, a fresh
  interpreter's imports) is under test: a real `shutbox` costs a third of a second of processor time
  before it does anything, this a few milliseconds.
- `real_shutbox`: the real command, `python -m shutbox_cli ARGS`, in a process of its own, its
  stdin empty and its output in pipes.
- `SHUTBOX`: the console script itself, for tests of the entry point."""

from __future__ import annotations

import contextlib
import functools
import os
import re
import subprocess
import sys
import types
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import typer.main
from typer._click import formatting
from typer.testing import CliRunner

from shutbox_cli.face import cli

from helpers.paths import ROOT

SHUTBOX = str(Path(sys.executable).parent / "shutbox")
"""The console script this environment installed."""
CONFINED = re.compile(r"shutbox: strategies' processes confined: [^\n]*\.\n")
"""The line a run that hosts a user's strategy states its confinement in (docs/trust.md)."""
WIDTH = 80
"""The terminal width a command under test is given, unless a test asks for another."""
TERMINAL = ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "TERM")
"""The variables that say what terminal the output goes to: a test's command never inherits them."""


def terminal(columns: int | None = WIDTH) -> dict[str, str | None]:
    """The terminal a command under test writes for: `columns` wide (None: no COLUMNS, as a pipe with
    no width), no colour, no terminal type; None unsets a variable."""
    return {
        "COLUMNS": None if columns is None else str(columns),
        "LINES": None,
        "NO_COLOR": "1",
        "FORCE_COLOR": None,
        "TERM": None,
    }


def environment(columns: int | None = WIDTH, **extra: str) -> dict[str, str]:
    """This process's environment for a command in a process of its own: `terminal(columns)`, and
    `extra` laid over it."""
    env = {key: value for key, value in os.environ.items() if key not in TERMINAL}
    env.update({key: value for key, value in terminal(columns).items() if value is not None})
    return {**env, **extra}


@functools.cache
def _built(app: typer.Typer) -> Any:
    """The app's command line (click's command), built once for the tests: typer builds it again at
    every call, which the console script makes once per process, and a test's command dozens of
    times (four fifths of a short command's time in this process)."""
    return _building(app)


_building = typer.main.get_command
typer.main.get_command = _built  # what `app()` calls (`Typer.__call__`), in this process only


def shutbox(
    *args: str,
    env: Mapping[str, str | None] | None = None,
    cwd: Path | None = None,
    columns: int | None = WIDTH,
    confinement: bool = False,
) -> subprocess.CompletedProcess[str]:
    """Run the command as the console script does (`shutbox_cli.face.cli.main` but for ending the
    process), for `terminal(columns)`; `env` is laid over this process's environment for the run.
    Its stderr is `unconfined` unless `confinement` keeps the line that states it."""
    with contextlib.ExitStack() as stack:
        # $SHUTBOX_HISTORY is named so that the isolation puts it back: a command's --history sets it.
        kept = {"SHUTBOX_HISTORY": os.environ.get("SHUTBOX_HISTORY")}
        out, err, _ = stack.enter_context(CliRunner().isolation(env={**terminal(columns), **kept, **(env or {})}))
        formatting.FORCED_WIDTH = None  # the isolation's 80 columns (it puts them back): COLUMNS, as a command reads it
        if cwd is not None:
            stack.enter_context(contextlib.chdir(cwd))
        # The program's name, `shutbox`, is read from these as the console script has them (not `python -m pytest`).
        argv, main = sys.argv, sys.modules["__main__"]
        sys.argv, sys.modules["__main__"] = ["shutbox", *args], types.ModuleType("__main__")
        try:
            status = cli.run()
        except SystemExit as stop:  # what ends the process in `main`
            status = 0 if stop.code is None else stop.code if isinstance(stop.code, int) else 1
        finally:
            sys.argv, sys.modules["__main__"] = argv, main
            sys.stdout.flush()
            sys.stderr.flush()
        said = err.getvalue().decode()
        return subprocess.CompletedProcess(
            ["shutbox", *args], status, out.getvalue().decode(), said if confinement else unconfined(said)
        )


def real_shutbox(
    *args: str,
    cwd: Path = ROOT,
    columns: int | None = WIDTH,
    env: Mapping[str, str] | None = None,
    timeout: float = 120,
    confinement: bool = False,
) -> subprocess.CompletedProcess[str]:
    """The real command run to its end in a process of its own, for `environment(columns)` with `env`
    laid over it: stdin empty, stdout and stderr captured, stderr `unconfined` unless `confinement`
    keeps the line that states it."""
    done = subprocess.run(
        [sys.executable, "-m", "shutbox_cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env=environment(columns, **(env or {})),
        timeout=timeout,
    )
    return done if confinement else without_confinement(done)


def unconfined(stderr: str) -> str:
    """A command's stderr without the line that states its hosts' confinement, which a run says
    at most once (docs/trust.md): what the tests of its other messages read."""
    assert len(CONFINED.findall(stderr)) <= 1, stderr
    return CONFINED.sub("", stderr, count=1)


def without_confinement(done: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    """A finished command, its stderr `unconfined`."""
    done.stderr = unconfined(done.stderr)
    return done
