"""The progress bar of long work: live on stderr when stderr is a terminal (a tournament's games,
an analysis's turns, a check's answers), nothing in a pipe."""

from __future__ import annotations

import os
import pty
import subprocess
import threading

import pytest

from shutbox_cli.face.progress import progress_bar

from helpers.command import SHUTBOX
from helpers.terminal import ENV, on_a_terminal


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "last", "total"),
    [
        (("analyze", "random", "--turns", "2000", "--seed", "1"), "turns", 2000),
        (("check", "tips", "--samples", "3", "--seed", "1"), "answers", 120),  # 40 questions, asked 3 times
    ],
    ids=["analyze", "check"],
)
def test_long_work_shows_a_live_bar_on_a_terminal_and_nothing_in_a_pipe(
    args: tuple[str, ...], last: str, total: int
) -> None:
    status, out, shown = on_a_terminal(*args)
    assert status == 0 and out
    assert f"\r\x1b[2K{last} " in shown  # the bar redrawn in place
    assert f"{total}/{total} " in shown  # and drawn once more at the end, complete
    piped = subprocess.run([SHUTBOX, *args], capture_output=True, text=True, env=ENV, timeout=120)
    assert piped.returncode == 0 and piped.stderr == "" and piped.stdout.split("\n")[0] == out.split("\n")[0]


@pytest.mark.slow
def test_a_run_the_machines_load_keeps_in_one_process_says_so_on_the_bar() -> None:
    run = ("tournament", "-s", "optimal", "-s", "random", "-n", "20000", "--seed", "3", "-j", "2")
    status, out, shown = on_a_terminal(*run, env={"SHUTBOX_POOL": "busy"})
    assert status == 0 and out.startswith("Tournament: ")
    assert "one process: busy machine" in shown and "shutbox: the machine looked busy" in shown
    status, out, shown = on_a_terminal(*run, env={"SHUTBOX_POOL": "idle"})
    assert status == 0 and "busy" not in shown


@pytest.mark.slow
def test_an_exact_analysis_reports_no_progress_and_shows_no_bar() -> None:
    status, out, shown = on_a_terminal("analyze", "optimal")
    assert status == 0 and "Method: exact" in out and shown == ""


@pytest.mark.slow
def test_a_match_shows_its_llr_and_bounds_on_the_bar() -> None:
    status, out, shown = on_a_terminal(
        "match", "optimal", "fewest-tiles", "-n", "400000", "--seed", "5", "--sprt", "elo0=0 elo1=2"
    )
    assert status == 0 and "H1 accepted" in out
    assert "LLR 3.17 (-2.94, 2.94) [0, 2] 5,248 games" in shown


def test_the_live_bar_runs_no_thread_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker pool forks only a process that runs one thread: a bar's own redrawing thread would
    have the pool spawn its workers instead, slower to start."""
    leader, follower = pty.openpty()
    with os.fdopen(follower, "w") as terminal:
        monkeypatch.setattr("sys.stderr", terminal)
        before = threading.active_count()
        with progress_bar() as update:
            assert update is not None
            update(1, 10)
            assert threading.active_count() == before
            update(10, 10)
    os.close(leader)
