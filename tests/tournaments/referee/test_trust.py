"""A user's strategy runs only in its host, through the real command: one that patches the referee
(the random generators, the rules, the engine's score, the dice, the solver's cache, another
strategy's class) changes nothing but its own answers, at one worker and at two; no process but
a host imports a user's file; a host that dies, hangs or forges a reply is its strategy's
failure, named; and `--isolate`, what every run does, is accepted, `--no-isolate` refused."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from tournaments import Options, load_config

from helpers import command
from helpers.command import environment, real_shutbox, unconfined
from helpers.paths import HOSTILE, ROOT

VICTIM = "examples/cautious.py:Cautious"
"""A user's strategy that an attacker patches, where it can reach its class."""
FIELD = (VICTIM, "greedy-high", "optimal", "tips")
ATTACKERS = {
    "tamper-random": "tamper_random.py:TamperRandom",
    "tamper-rules": "tamper_rules.py:TamperRules",
    "tamper-score": "tamper_score.py:TamperScore",
    "tamper-dice": "tamper_dice.py:TamperDice",
    "patch-solver": "patch_solver.py:PatchSolver",
    "patch-classes": "patch_classes.py:PatchClasses",
}
NO_CHECKPOINT = ("--checkpoint-seconds", "86400")
"""No checkpoint within a test's run: one kept (after 5 s, on a slow machine) adds how to resume to
the one sentence asserted here (tests/tournaments/running/test_resume.py tests that line)."""


def shutbox(*args: str) -> subprocess.CompletedProcess[str]:
    return real_shutbox("tournament", *args, *NO_CHECKPOINT)


def field_args(*specs: str) -> list[str]:
    return [argument for spec in specs for argument in ("-s", spec)]


def head_to_head(report: Path) -> dict[tuple[str, str], dict[str, object]]:
    rows = tomllib.loads(report.read_text())["head_to_head"]
    return {(row["strategy"], row["opponent"]): row for row in rows}


@pytest.fixture(scope="module", params=["1", "2"])
def honest(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """The honest field's report, at one worker and at two."""
    report = tmp_path_factory.mktemp("honest") / "report.toml"
    run = ["-n", "400", "--seed", "5", "-j", request.param, "-q", "--report", str(report)]
    done = shutbox(*field_args(*FIELD), *run)
    assert done.returncode == 0, done.stderr
    return request.param, report


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ATTACKERS))
@pytest.mark.usefixtures("pooled")
def test_a_strategy_that_patches_the_referee_or_the_others_changes_only_its_own_games(
    name: str, honest: tuple[str, Path], tmp_path: Path
) -> None:
    workers, honest_report = honest
    report = tmp_path / "report.toml"
    run = ["-n", "400", "--seed", "5", "-j", workers, "-q", "--report", str(report)]
    done = shutbox(*field_args(*FIELD, str(HOSTILE / ATTACKERS[name])), *run)
    assert done.returncode == 0, done.stderr
    found, expected = head_to_head(report), head_to_head(honest_report)
    assert {pair: row for pair, row in found.items() if name not in pair} == expected


USERS = """
import os
import sys
from pathlib import Path

from strategies import Strategy

# Which processes import this file, and whether each is a host.
hosted = "tournaments.referee.host" in sys.modules
Path(os.environ["SHUTBOX_TEST_PIDS"], str(os.getpid())).write_text("host" if hosted else "not a host")


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


def left_behind(users: Path) -> list[int]:
    """The processes a run with the users' file started (marked by its environment) still there
    after a grace period, zombies aside."""
    needle = f"SHUTBOX_TEST_PIDS={users / 'pids'}".encode()
    deadline = time.monotonic() + 3
    while True:
        found = []
        for entry in Path("/proc").iterdir():
            try:
                marked = needle in (entry / "environ").read_bytes().split(b"\0")
            except OSError:
                continue
            if marked:
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
    return Run(process.returncode, unconfined(stderr), process.pid)


def importers(users: Path) -> dict[int, str]:
    return {int(path.name): path.read_text() for path in (users / "pids").iterdir()}


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.usefixtures("pooled")
def test_only_hosts_import_a_users_file_and_the_report_is_the_same_with_isolate(users: Path, workers: str) -> None:
    specs = [f"{users / 'users.py'}:{name}" for name in HONEST]
    run = [*field_args(*specs, "optimal", "random"), "-n", "300", "--seed", "8", "-j", workers]
    plain = run_users(users, *run, "--report", str(users / "plain.toml"))
    assert plain.returncode == 0, plain.stderr
    found = importers(users)
    assert found and plain.pid not in found
    assert set(found.values()) == {"host"}
    if workers == "1":  # the run here plays with the hosts the field was probed in: one per strategy
        assert len(found) == len(HONEST)
    assert not left_behind(users)
    isolated = run_users(users, *run, "--isolate", "--report", str(users / "isolated.toml"))  # a no-op
    assert isolated.returncode == 0, isolated.stderr
    assert (users / "isolated.toml").read_bytes() == (users / "plain.toml").read_bytes()


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
@pytest.mark.usefixtures("pooled")
def test_a_host_that_dies_or_hangs_is_its_strategys_failure(
    users: Path, name: str, limit: str, said: str, workers: str
) -> None:
    spec = f"{users / 'users.py'}:{name}"
    done = run_users(users, "-s", spec, "-s", "optimal", "-n", "200", "-j", workers, "--timeout", limit)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    message = done.stderr.strip()
    assert message.count("\n") == 0, message
    assert message.startswith("shutbox: error: in matchup ")
    assert said in message
    assert not left_behind(users)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("workers", "forger", "said"),
    [
        ("1", "TamperHost", "tamper-host' answered garbage"),
        ("2", "TamperHost", "tamper-host' answered garbage"),
        ("1", "TamperHuge", "tamper-huge' answered garbage (a turn's answers that are not a move's tiles"),
        ("1", "TamperAnswers", "tamper-answers' answered garbage (the move 511 where the legal moves are"),
        ("1", "TamperCut", "tamper-cut' answered garbage (answers cut short)"),
    ],
)
@pytest.mark.usefixtures("pooled")
def test_a_forged_reply_is_garbage_named(workers: str, forger: str, said: str) -> None:
    spec = str(HOSTILE / f"tamper_host.py:{forger}")
    done = shutbox(*field_args(spec, "greedy-high", "optimal"), "-n", "200", "--seed", "5", "-j", workers)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert f"the process of strategy '{said}" in done.stderr


@pytest.mark.parametrize("where", [{"method": "exact"}, {"scheduler": "local"}], ids=["exact", "scheduler"])
def test_isolate_is_accepted_wherever_the_run_goes(where: dict[str, str], tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('isolate = true\n[[strategy]]\nspec = "optimal"\n[[strategy]]\nspec = "tips"\n')
    for path, options in ((None, Options(strategies=("optimal", "tips"), isolate=True)), (config, Options())):
        loaded = load_config(path, dataclasses.replace(options, **where))
        assert loaded.names == ("optimal", "tips")


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (["--no-isolate"], "--no-isolate is not accepted: "),
        (["CONFIG"], "key 'isolate' cannot be false: "),
    ],
)
def test_no_isolate_is_refused_in_one_sentence(given: list[str], said: str, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("isolate = false\n")
    arguments = [str(config) if argument == "CONFIG" else argument for argument in given]
    done = command.shutbox("tournament", "-s", "optimal", "-s", "tips", *arguments)
    assert done.returncode == 2
    message = done.stderr.strip()
    assert message.count("\n") == 0, message
    assert said in message
    assert "a user's strategy always runs in a process of its own" in message


@pytest.mark.slow
def test_a_strategy_that_cannot_load_is_named_in_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("from strategies import Strategy\n\nraise ValueError('no luck')\n")
    spec = f"{tmp_path / 'broken.py'}:Broken"
    done = shutbox("-s", spec, "-s", "optimal")
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0, done.stderr
    assert "ValueError: no luck." in done.stderr
