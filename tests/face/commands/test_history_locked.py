"""A history another connection holds locked: the run's results are shown and its report written
before the recording waits its turn, and Ctrl-C during that wait stops the recording alone (one
warning, the run's own exit status)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.command import environment, real_shutbox
from helpers.processes import wait_for

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads what a process holds open in /proc")


COMMAND = [sys.executable, "-m", "shutbox_cli", "match", "tips", "random", "-n", "20", "--seed", "2"]


def _holds_open(pid: int, place: Path) -> bool:
    """Whether the process has the file open (what it does only while it records the run)."""
    try:
        return any(os.readlink(f"/proc/{pid}/fd/{fd}") == str(place) for fd in os.listdir(f"/proc/{pid}/fd"))
    except OSError:  # a descriptor closed while read
        return False


@pytest.mark.slow  # two real runs
def test_ctrl_c_while_the_history_is_locked_stops_the_recording_alone(tmp_path: Path) -> None:
    place = tmp_path / "lock.db"
    made = real_shutbox("match", "tips", "random", "-n", "20", "--seed", "1", "-q", "--history", str(place))
    assert made.returncode == 0, made.stderr
    holder = sqlite3.connect(place, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another connection's transaction, never ending while the run waits
    try:
        run = subprocess.Popen(
            [*COMMAND, "-o", "report.json", "--history", str(place)],
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**environment(), "PYTHONUNBUFFERED": "1"},
        )
        assert run.stdout is not None
        shown = []
        for line in run.stdout:  # up to the results' last line, read while the history is locked
            shown.append(line)
            if line.startswith("Pairs scoring"):
                break
        assert wait_for(lambda: _holds_open(run.pid, place) or run.poll() is not None)
        run.send_signal(signal.SIGINT)
        _, err = run.communicate(timeout=60)
    finally:
        holder.rollback()
        holder.close()
    assert run.returncode == 0, err
    assert shown[0].startswith("Match: tips vs random") and shown[-1].startswith("Pairs scoring")
    assert err.splitlines()[-1] == (
        "warning: the run is not recorded in the history: interrupted while it waited for the history."
    ), err
    assert json.loads((tmp_path / "report.json").read_text())["match"]["strategy"] == "tips"
    listed = json.loads(real_shutbox("history", "--history", str(place), "--format", "json").stdout)
    assert [one["seed"] for one in listed["run"]] == ["1"]  # the run stopped is not recorded
