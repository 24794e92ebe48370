"""The referee's processes, attacked through the real command (`python -m shutbox_cli
tournament`): strategies that start processes or threads, that will not stop, that take all
the memory or end their process, and signals sent to the real processes. Each run is marked
with an environment variable that every process it starts inherits, so the process table
shows whether anything it started is left once it has ended."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.command import environment, unconfined
from helpers.paths import HOSTILE
from helpers.processes import MARKER, kill_all, left, marked

pytestmark = [
    pytest.mark.slow,  # each test starts shutbox and its workers, a second or more
    pytest.mark.usefixtures("pooled"),  # -j 2 plays in a pool, however small the run
    pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads the process table from /proc"),
]

HOLD_FILES = """
import os
held = [os.open(os.devnull, os.O_RDONLY) for _ in range({count})]
from shutbox_cli.entry import main
main()
"""
ATTACKS = HOSTILE / "referee_attacks.py"
WORKERS = ["1", "2"]
NO_CHECKPOINT = ("--checkpoint-seconds", "86400")
"""No checkpoint within a test's run: one kept (after 5 s, on a slow machine) adds how to resume to
the messages asserted here (tests/tournaments/running/test_resume.py tests that line)."""


class Run:
    """One `shutbox tournament` in a folder of its own, its processes marked."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.mark = uuid.uuid4().hex
        self.started = folder / "started"
        self.report = folder / "report.toml"
        self.process: subprocess.Popen[str] | None = None

    def start(self, *args: str, files: int | None = None, held: int = 0) -> subprocess.Popen[str]:
        """Start the run; with `files`, it may open at most that many files, `held` of them
        taken before shutbox starts."""
        env = environment(**{MARKER: self.mark}, REFEREE_STARTED=str(self.started))
        command = ["-m", "shutbox_cli"] if not held else ["-c", HOLD_FILES.format(count=held)]
        arguments = ["tournament", *args, "--seed", "1", "-q", *NO_CHECKPOINT, "-o", str(self.report)]
        self.process = subprocess.Popen(
            [sys.executable, *command, *arguments],
            cwd=self.folder,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            start_new_session=True,
            preexec_fn=None if files is None else lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (files, files)),
        )
        return self.process

    def finish(self, *args: str, files: int | None = None, held: int = 0) -> tuple[int, str]:
        """Run to the end: the exit status and stderr."""
        process = self.start(*args, files=files, held=held)
        _, err = process.communicate(timeout=90)
        return process.returncode, unconfined(err)

    def wait_until_playing(self) -> int:
        """Wait until a strategy has made its first decision: the process id it played in."""
        assert self.process is not None
        deadline = time.monotonic() + 60
        while not (self.started.exists() and self.started.read_text()) and time.monotonic() < deadline:
            assert self.process.poll() is None, self.process.communicate()
            time.sleep(0.02)
        return int(self.started.read_text())

    def left(self) -> list[int]:
        """Marked processes still there, once the dying have had a moment to go."""
        return left(lambda: marked(self.mark), within=3)

    def no_report(self) -> bool:
        return not self.report.exists() and not list(self.folder.glob(".report.toml*"))

    def clean_up(self) -> None:
        kill_all(lambda: marked(self.mark))


@pytest.fixture
def run(tmp_path: Path) -> Iterator[Run]:
    marked = Run(tmp_path)
    try:
        yield marked
    finally:
        marked.clean_up()


def attack(name: str, display: str | None = None) -> list[str]:
    """The options that seat one attacking strategy against greedy-high."""
    return ["-s", f"{display or name.lower()}={ATTACKS}:{name}", "-s", "greedy-high"]


def one_error(err: str) -> str:
    """The one error line of stderr (a strategy's own frames may follow it), never a traceback."""
    assert "Traceback" not in err, err
    first = err.splitlines()[0]
    assert first.startswith("shutbox: error: "), err
    assert all(line.startswith("  ") for line in err.splitlines()[1:]), err
    return first


@pytest.mark.parametrize("workers", WORKERS)
@pytest.mark.parametrize("strategy", ["Forks", "ShellJob", "Thread"])
def test_what_a_strategy_starts_neither_outlives_nor_hangs_the_run(run: Run, strategy: str, workers: str) -> None:
    status, err = run.finish(*attack(strategy), "-n", "1000", "-j", workers)
    assert status == 0, err
    assert err == f"Report written to {run.report}.\n" and run.report.exists()
    assert run.left() == []


@pytest.mark.parametrize("workers", WORKERS)
def test_a_thread_a_module_starts_at_import_does_not_keep_shutbox_running(run: Run, workers: str) -> None:
    spec = f"{HOSTILE / 'referee_thread_at_import.py'}:Plain"
    status, err = run.finish("-s", spec, "-s", "greedy-high", "-n", "1000", "-j", workers)
    assert status == 0, err
    assert run.report.exists()
    assert run.left() == []


@pytest.mark.parametrize("workers", WORKERS)
@pytest.mark.parametrize("strategy", ["CatchesAll", "OwnAlarm", "LoopsInC"])
def test_a_strategy_that_will_not_stop_is_stopped_at_the_time_limit(run: Run, strategy: str, workers: str) -> None:
    status, err = run.finish(*attack(strategy), "-n", "1000", "-j", workers, "--timeout", "2")
    assert status == 1
    assert f"strategy '{strategy.lower()}' did not answer within 2 seconds (the limit per work unit)" in one_error(err)
    assert err.count("\n") == 1
    assert run.no_report() and run.left() == []


@pytest.mark.parametrize("workers", WORKERS)
def test_a_strategy_out_of_memory_is_named_with_the_limit(run: Run, workers: str) -> None:
    status, err = run.finish(*attack("Hoards"), "-n", "1000", "-j", workers, "--memory-limit", "512")
    assert status == 1
    assert one_error(err).endswith(
        "strategy 'hoards' raised an error with open tiles 1 2 3 4 5 6 7 8 9 and dice 3+4: MemoryError."
    )
    assert "matchup hoards vs greedy-high" in err
    assert run.no_report() and run.left() == []


@pytest.mark.parametrize("workers", WORKERS)
def test_a_host_ended_with_status_0_is_a_failure_named(run: Run, workers: str) -> None:
    status, err = run.finish(*attack("ExitsZero", "exits"), "-n", "1000", "-j", workers)
    assert status == 1
    line = one_error(err)
    assert line.startswith("shutbox: error: in matchup exits vs greedy-high, game 0 ")
    assert line.endswith("the process of strategy 'exits' ended with status 0.")
    assert run.no_report() and run.left() == []


@pytest.mark.parametrize("workers", WORKERS)
def test_sys_exit_0_while_playing_is_a_failure_named(run: Run, workers: str) -> None:
    status, err = run.finish(*attack("SysExitZero", "exits"), "-n", "1000", "-j", workers)
    assert status == 1
    assert "strategy 'exits' called sys.exit(0)" in one_error(err)
    assert run.no_report() and run.left() == []


STOPS = [(signal.SIGINT, 130, ""), (signal.SIGTERM, 143, ", by SIGTERM"), (signal.SIGHUP, 129, ", by SIGHUP")]


@pytest.mark.parametrize("workers", WORKERS)
@pytest.mark.parametrize(("sent", "status", "by"), STOPS, ids=[sent.name for sent, _, _ in STOPS])
def test_a_signal_to_shutbox_stops_the_run_cleanly(
    run: Run, sent: signal.Signals, status: int, by: str, workers: str
) -> None:
    """The strategy leaves a child of its worker asleep: it goes with the run."""
    process = run.start(*attack("SlowForks", "slow"), "-n", "4000", "-j", workers)
    run.wait_until_playing()
    os.kill(process.pid, sent)
    _, err = process.communicate(timeout=30)
    err = unconfined(err)
    assert process.returncode == status
    assert err.startswith("shutbox: interrupted after ") and err.endswith(f"(seed 1){by}; no report written.\n")
    assert err.count("\n") == 1
    assert run.no_report() and run.left() == []


@pytest.mark.parametrize("workers", WORKERS)
@pytest.mark.parametrize(
    ("first", "second", "status"), [(signal.SIGINT, signal.SIGINT, 130), (signal.SIGTERM, signal.SIGINT, 143)]
)
def test_a_second_signal_during_the_stop_does_not_cut_it_short(
    run: Run, first: signal.Signals, second: signal.Signals, status: int, workers: str
) -> None:
    process = run.start(*attack("SlowForks", "slow"), "-n", "4000", "-j", workers)
    run.wait_until_playing()
    os.kill(process.pid, first)
    time.sleep(0.1)
    if process.poll() is None:
        os.kill(process.pid, second)
    _, err = process.communicate(timeout=30)
    err = unconfined(err)
    assert process.returncode == status  # an exit, not a death by the second signal
    assert "interrupted" in err and err.endswith("no report written.\n") and err.count("\n") == 1
    assert run.no_report() and run.left() == []


@pytest.mark.parametrize("workers", WORKERS)
def test_a_host_killed_is_its_strategys_failure_and_the_run_stops(run: Run, workers: str) -> None:
    process = run.start(*attack("SlowForks", "slow"), "-n", "4000", "-j", workers)
    host = run.wait_until_playing()
    assert host != process.pid  # a user's strategy plays in its host, never in shutbox's process
    os.kill(host, signal.SIGKILL)
    _, err = process.communicate(timeout=30)
    err = unconfined(err)
    assert process.returncode == 1
    line = one_error(err)
    assert line.startswith("shutbox: error: in matchup slow vs greedy-high, game ")
    assert line.endswith("the process of strategy 'slow' was killed by signal 9 (SIGKILL).")
    assert err.count("\n") == 1
    assert run.no_report() and run.left() == []


@pytest.mark.parametrize("workers", WORKERS)
def test_killing_shutbox_leaves_no_worker_nor_what_a_strategy_started(run: Run, workers: str) -> None:
    """SIGKILL cannot be handled: the workers die with the main process, and each takes its
    whole group (a child the strategy left asleep) with it; the resource tracker then ends."""
    process = run.start(*attack("SlowForks", "slow"), "-n", "4000", "-j", workers)
    run.wait_until_playing()
    os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=30)
    assert process.returncode == -signal.SIGKILL
    assert run.no_report() and run.left() == []


@pytest.mark.parametrize("workers", ["2", "3"])  # at -j 1 the referee plays in shutbox's process: no pool
def test_a_pool_this_process_has_not_the_open_files_for_is_refused_in_one_sentence(run: Run, workers: str) -> None:
    status, err = run.finish(*attack("SlowForks", "slow"), "-n", "5000", "-j", workers, files=10)
    assert status == 2
    assert one_error(err) == (
        f"shutbox: error: a pool of {workers} worker processes needs about "
        f"{16 + 2 * int(workers)} open files, but this process may open only 10 (ulimit -n); raise the limit "
        "(ulimit -n 1024) or use fewer workers (-j)."
    )
    assert err.count("\n") == 1
    assert run.no_report() and run.left() == []


def test_running_out_of_open_files_in_a_pool_is_one_sentence(run: Run) -> None:
    """The limit is high enough, but this process holds most of the files it may open already (a
    pool of 3 starts two workers: this process plays too; each holds none of its files)."""
    status, err = run.finish(*attack("SlowForks", "slow"), "-n", "5000", "-j", "3", files=40, held=30)
    assert status == 2
    assert one_error(err) == (
        "shutbox: error: ran out of open files while running a pool of 3 worker processes (ulimit -n); "
        "raise the limit (ulimit -n 1024)."
    )
    assert run.no_report() and run.left() == []
