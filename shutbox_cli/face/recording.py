"""The history's hook: a tournament, a match or a tune that finishes is recorded where
`--history` (else $SHUTBOX_HISTORY) says, by its report (docs/history.md). Recording never fails
a run: a history that cannot be written is one warning on stderr, the run's status unchanged, and
it comes after the run's results are shown (Ctrl-C then stops the recording alone).

The history's file is private to shutbox wherever a strategy's host runs: a file `--history` names
is put in $SHUTBOX_HISTORY as the command starts, so every process the run starts (pool workers,
Dask workers started here, the hosts) keeps its folder from the strategies as it keeps the
variable's. (A URL is not: it holds no folder, and may hold a password.)"""

import os
import shlex
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from .errors import fail, say_warning

HistoryOption = Annotated[
    str | None,
    typer.Option(
        "--history",
        metavar="WHERE",
        show_default=False,
        help="Where the run is recorded: an SQLite file, a postgresql:// URL, or off [default: $SHUTBOX_HISTORY, "
        "else history.sqlite3 in shutbox's data folder]; `shutbox history` lists what is there.",
    ),
]
"""The `--history` option of the commands whose runs are recorded."""


class Recording:
    """One run of a command, timed from its start, to record once it finishes."""

    def __init__(self, setting: str | None) -> None:
        from tournaments.parts import HISTORY_SETTING, PlaceError, history_place

        self.setting = setting
        self.started = datetime.now(UTC)
        self.clock = time.monotonic()
        try:
            place = history_place(setting)
        except PlaceError as error:
            fail(f"--history: {error}" if setting is not None else str(error))
        if setting is not None and isinstance(place, Path):  # never a URL: its password would reach the hosts
            os.environ[HISTORY_SETTING] = str(place.absolute())  # a process started elsewhere finds the same folder

    def record(self, result: Any) -> None:
        """Record the finished run by its report; anything that stops it is one warning."""
        try:
            from tournaments.parts import history_place

            if history_place(self.setting) is None:
                return  # off: the history's modules stay unloaded
            from tournaments import open_history
            from tournaments.parts import result_table

            history = open_history(self.setting)
            if history is None:
                return
            from tournaments.parts import masked

            command = masked(shlex.join(["shutbox", *sys.argv[1:]]))
            history.record(result_table(result), command, self.started, time.monotonic() - self.clock)
        except Exception as error:  # the run is done and delivered: nothing here may change its status
            say_warning(f"the run is not recorded in the history: {_sentence(error)}")
        except KeyboardInterrupt:  # Ctrl-C while the history is locked stops the recording alone
            say_warning("the run is not recorded in the history: interrupted while it waited for the history.")


def _sentence(error: Exception) -> str:
    """What stopped the recording, any password in a URL it quotes written `***`."""
    from tournaments import HistoryError
    from tournaments.parts import masked

    if isinstance(error, HistoryError):
        return str(error)
    return masked(f"{type(error).__name__}: {error}.")
