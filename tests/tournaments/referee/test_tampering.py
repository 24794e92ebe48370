"""Strategies that tamper with the referee (the random generators, the rules, the engine's score,
the dice) through the real command: caught with one sentence naming them in the default mode, at
one worker and at two."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from helpers.command import environment, real_shutbox
from helpers.paths import HOSTILE, ROOT

TAMPERERS = {
    "tamper-random": ("tamper_random.py:TamperRandom", "random.Random.random was set"),
    "tamper-rules": ("tamper_rules.py:TamperRules", "the rules' scoring was changed from 'sum' to 'count'"),
    "tamper-score": ("tamper_score.py:TamperScore", "shutbox_cli.game.box.score was replaced"),
    "tamper-dice": ("tamper_dice.py:TamperDice", "shutbox_cli.game.dice.PAIRS was replaced"),
}
FIELD = ("greedy-high", "optimal")
NO_CHECKPOINT = ("--checkpoint-seconds", "86400")
"""No checkpoint within a test's run: one kept (after 5 s, on a slow machine) adds how to resume to
the one sentence asserted here (tests/tournaments/running/test_resume.py tests that line)."""


def shutbox(*args: str) -> subprocess.CompletedProcess[str]:
    return real_shutbox("tournament", *args, *NO_CHECKPOINT)


def field_args(*specs: str) -> list[str]:
    return [argument for spec in specs for argument in ("-s", spec)]


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("name", sorted(TAMPERERS))
def test_a_tamperer_is_caught_and_named_in_one_sentence(name: str, workers: str, tmp_path: Path) -> None:
    spec, change = TAMPERERS[name]
    report = tmp_path / "report.toml"
    done = shutbox(
        *field_args(str(HOSTILE / spec), *FIELD), "-n", "400", "--seed", "5", "-j", workers, "--report", str(report)
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    message = done.stderr.strip()
    assert message.count("\n") == 0, message
    assert message.startswith(f"shutbox: error: strategy {name!r} tampered with the referee ")
    assert change in message
    assert "--isolate" in message
    assert not report.exists()


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_honest_strategy_of_a_users_file_is_not_taken_for_a_tamperer(workers: str) -> None:
    done = shutbox(
        *field_args("examples/cautious.py:Cautious", *FIELD, "tips"), "-n", "400", "--seed", "5", "-j", workers
    )
    assert done.returncode == 0, done.stderr
    assert "tampered" not in done.stderr


def head_to_head(report: Path) -> dict[tuple[str, str], dict[str, object]]:
    rows = tomllib.loads(report.read_text())["head_to_head"]
    return {(row["strategy"], row["opponent"]): row for row in rows}


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("name", sorted(TAMPERERS))
def test_under_isolate_a_tamperer_is_harmless_to_the_other_matchups(name: str, workers: str, tmp_path: Path) -> None:
    spec = str(HOSTILE / TAMPERERS[name][0])
    run = ["-n", "400", "--seed", "5", "-j", workers, "-q"]
    done = shutbox(*field_args(spec, *FIELD), *run, "--isolate", "--report", str(tmp_path / "with.toml"))
    assert done.returncode == 0, done.stderr
    assert shutbox(*field_args(*FIELD), *run, "--report", str(tmp_path / "without.toml")).returncode == 0
    with_tamperer, without = head_to_head(tmp_path / "with.toml"), head_to_head(tmp_path / "without.toml")
    assert with_tamperer[FIELD] == without[FIELD]
    assert with_tamperer[FIELD[::-1]] == without[FIELD[::-1]]


USERS = """
import os
from pathlib import Path

from strategies import Strategy

Path(os.environ["SHUTBOX_TEST_PIDS"], str(os.getpid())).touch()  # which processes import this file


class Reader(Strategy):
    name = "reader"
    reads_context = True

    def choose_move(self, view):
        if view.context.score_to_beat is not None and len(view.turn) > 1:
            return view.legal_moves[-1]
        return view.legal_moves[0]


class Dicey(Strategy):
    name = "dicey"
    stochastic = True

    def choose_move(self, view):
        return self.rng.choice(view.legal_moves)

    def choose_dice(self, view):
        return self.rng.choice(view.dice_options)


class Secret(Strategy):
    name = "secret"

    def choose_move(self, view):
        import random

        return random.choice(view.legal_moves)


class Cautious(Strategy):
    name = "cautious"

    def choose_move(self, view):
        return view.legal_moves[-1] if view.open_sum > 20 else view.legal_moves[0]


class Crash(Strategy):
    name = "crash"
    reads_context = True

    def choose_move(self, view):
        os._exit(3)


class Stuck(Strategy):
    name = "stuck"
    reads_context = True

    def choose_move(self, view):
        while True:
            pass
"""
HONEST = ("Reader", "Dicey", "Secret", "Cautious")


def orphaned_hosts() -> list[int]:
    """Host processes whose referee (its pid is a host's last argument) is gone, after a grace period."""
    deadline = time.monotonic() + 3
    while True:
        found = []
        for entry in Path("/proc").iterdir():
            try:
                command = (entry / "cmdline").read_bytes().rstrip(b"\0").split(b"\0")
            except OSError:
                continue
            hosted = any(b"tournaments.referee.host" in part for part in command)
            if hosted and command[-1].isdigit() and not Path(f"/proc/{int(command[-1])}").exists():
                found.append(int(entry.name))
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


@pytest.fixture
def users(tmp_path: Path) -> Path:
    (tmp_path / "users.py").write_text(USERS)
    (tmp_path / "pids").mkdir()
    return tmp_path


@dataclasses.dataclass
class Run:
    returncode: int
    stderr: str
    pid: int


def run_users(users: Path, *args: str) -> Run:
    """The command with the users' file at hand, which leaves the pid of each process importing it in `pids`."""
    process = subprocess.Popen(
        [sys.executable, "-m", "shutbox_cli", "tournament", *args, *NO_CHECKPOINT],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(SHUTBOX_TEST_PIDS=str(users / "pids")),
    )
    _, stderr = process.communicate(timeout=120)
    return Run(process.returncode, stderr, process.pid)


def importers(users: Path) -> set[int]:
    return {int(path.name) for path in (users / "pids").iterdir()}


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_honest_tournament_reports_the_same_bytes_with_and_without_isolate(users: Path, workers: str) -> None:
    specs = [f"{users / 'users.py'}:{name}" for name in HONEST]
    run = [*field_args(*specs, "optimal", "random"), "-n", "300", "--seed", "8", "-j", workers]
    isolated = run_users(users, *run, "--isolate", "--report", str(users / "isolated.toml"))
    assert isolated.returncode == 0, isolated.stderr
    assert importers(users) and isolated.pid not in importers(users)
    assert not orphaned_hosts()
    shared = run_users(users, *run, "--report", str(users / "shared.toml"))
    assert shared.returncode == 0, shared.stderr
    assert shared.pid in importers(users)  # the default mode imports it in the main process
    assert (users / "isolated.toml").read_bytes() == (users / "shared.toml").read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize(
    ("name", "limit", "said"),
    [
        # A limit that a slow start (a loaded machine) stays well within: the crash is what is named.
        ("Crash", "8", "the process of strategy 'crash' ended with status 3"),
        # However slow the start, a host that never answers is named the same: no need to wait longer.
        ("Stuck", "2", "strategy 'stuck' did not answer within 2 seconds (the limit per work unit)"),
    ],
)
def test_under_isolate_a_host_that_dies_or_hangs_is_its_strategys_failure(
    users: Path, name: str, limit: str, said: str, workers: str
) -> None:
    spec = f"{users / 'users.py'}:{name}"
    done = run_users(users, "-s", spec, "-s", "optimal", "-n", "200", "-j", workers, "--timeout", limit, "--isolate")
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    message = done.stderr.strip()
    assert message.count("\n") == 0, message
    assert message.startswith("shutbox: error: in matchup ")
    assert said in message
    assert not orphaned_hosts()


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
def test_under_isolate_a_forged_reply_is_garbage_named(workers: str) -> None:
    spec = str(HOSTILE / "tamper_host.py:TamperHost")
    done = shutbox(*field_args(spec, *FIELD), "-n", "200", "--seed", "5", "-j", workers, "--isolate")
    assert done.returncode == 1, done.stderr
    assert "the process of strategy 'tamper-host' answered garbage" in done.stderr
    assert shutbox(*field_args(spec, *FIELD), "-n", "200", "--seed", "5", "-j", workers).returncode == 0


@pytest.mark.slow
def test_under_isolate_a_strategy_that_cannot_load_is_named_as_without(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("from strategies import Strategy\n\nraise ValueError('no luck')\n")
    spec = f"{tmp_path / 'broken.py'}:Broken"
    isolated, shared = shutbox("-s", spec, "-s", "optimal", "--isolate"), shutbox("-s", spec, "-s", "optimal")
    assert isolated.returncode == shared.returncode == 2
    assert isolated.stderr == shared.stderr
    assert "ValueError: no luck." in isolated.stderr
