"""`analyze` (exact, simulated, --against), `check`, `play --computer`, `replay` and `tournament
--exact` run a user's strategy in a host of its own, never in shutbox's process: a strategy that
loops (catching every exception, or in C), ends its process with status 0 or starts a child in a
process group of its own, at import or in a decision, ends the command within its time limit,
named, with a non-zero status; Ctrl-C still stops it; a saboteur that patches the referee's
code at import changes no figure; an honest user's strategy gets the figures it gets in process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from shutbox_cli.game import Rules, distribution
from strategies.loading import load_strategy
from strategies.player import StrategyPlayer

from helpers.command import environment, real_shutbox
from helpers.paths import ROOT
from helpers.processes import MARKER, marked, marking

pytestmark = pytest.mark.slow  # every test runs the real command, most to a strategy's time limit

LIMIT = "2"
"""The commands' --timeout: long enough for a host to load on a loaded machine."""
BOUND = 60
"""Seconds a command may take in a test before it counts as hung: far past its limit."""
MARK = MARKER
"""The environment variable that marks the processes a test's strategies start."""

HARMS = {
    "catching": (
        "while True:\n        try:\n            time.sleep(0.01)\n        except BaseException:\n            continue"
    ),
    "c-loop": "collections.deque(itertools.count(), maxlen=0)",
    "exit-0": "os._exit(0)",
    "setpgid": (
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)'], process_group=0,\n"
        "        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "    collections.deque(itertools.count(), maxlen=0)"
    ),
}
"""What a strategy does to its process, as Python statements."""

HEADER = """import collections, itertools, os, subprocess, sys, time
from pathlib import Path

from strategies import Strategy


def harm():
    started = os.environ.get("HARM_STARTED")
    if started:
        Path(started).write_text(str(os.getpid()))
    {harm}
"""

AT_IMPORT = (
    HEADER
    + """

harm()


class Plays(Strategy):
    name = "plays"

    def choose_move(self, view):
        return view.legal_moves[0]
"""
)

IN_A_DECISION = (
    HEADER
    + """

class Plays(Strategy):
    \"\"\"Exact: its decisions are asked as its host makes its table.\"\"\"

    name = "plays"

    def choose_move(self, view):
        if len(view.open_tiles) <= 7:
            harm()
        return view.legal_moves[0]


class Peeks(Plays):
    \"\"\"Reads the context: asked turn by turn.\"\"\"

    name = "peeks"
    reads_context = True
"""
)


def commands(spec: str, peeks: str) -> dict[str, list[str]]:
    """Each command under test, seating the strategy `spec` (exact) or `peeks` (asked turn by turn)."""
    return {
        "analyze": ["analyze", spec, "--timeout", LIMIT],
        "analyze simulated": ["analyze", peeks, "--turns", "200", "--seed", "1", "--timeout", LIMIT],
        "analyze --against": ["analyze", "optimal", "--against", spec, "--timeout", LIMIT],
        "check": ["check", spec, "--samples", "5", "--timeout", LIMIT],
        "replay": [
            "replay",
            "-s",
            peeks,
            "-s",
            "optimal",
            "--seed",
            "1",
            "-g",
            "0",
            "--delay",
            "0",
            "--timeout",
            LIMIT,
        ],
        "tournament --exact": ["tournament", "--exact", "-s", spec, "-s", "optimal", "--timeout", LIMIT],
    }


@pytest.fixture
def mark() -> Iterator[str]:
    """A marker for this test's processes (`MARK`); whatever is left of them is killed at the end."""
    with marking() as marks:
        yield marks.mark


def run(args: list[str], mark: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return real_shutbox(*args, env={MARK: mark, "SHUTBOX_DATA_DIR": str(tmp_path / "data")}, timeout=BOUND)


def assert_named_failure(done: subprocess.CompletedProcess[str], names: tuple[str, ...]) -> None:
    assert done.returncode not in (0, 130), done
    assert "Traceback" not in done.stderr, done.stderr
    assert any(name in done.stderr for name in names), done.stderr
    assert "every check holds" not in (done.stdout + done.stderr).lower()


def strategy_file(tmp_path: Path, template: str, harm: str) -> Path:
    path = tmp_path / "harmful.py"
    path.write_text(template.replace("{harm}", HARMS[harm]))
    return path


@pytest.mark.parametrize("harm", ["catching", "exit-0"])  # a hang and an end; the C loop and a child: in a decision
@pytest.mark.parametrize("command", sorted(commands("", "")))
def test_a_strategy_that_harms_its_process_at_import_ends_the_command_named(
    tmp_path: Path, mark: str, command: str, harm: str
) -> None:
    path = strategy_file(tmp_path, AT_IMPORT, harm)
    spec = f"{path}:Plays"
    start = time.monotonic()
    done = run(commands(spec, spec)[command], mark, tmp_path)
    assert time.monotonic() - start < BOUND
    assert_named_failure(done, (spec,))


@pytest.mark.parametrize("harm", ["c-loop", "exit-0", "setpgid"])  # the catching loop: at import
@pytest.mark.parametrize("command", sorted(commands("", "")))
def test_a_strategy_that_harms_its_process_in_a_decision_ends_the_command_named(
    tmp_path: Path, mark: str, command: str, harm: str
) -> None:
    path = strategy_file(tmp_path, IN_A_DECISION, harm)
    done = run(commands(f"{path}:Plays", f"{path}:Peeks")[command], mark, tmp_path)
    assert_named_failure(done, ("'plays'", "'peeks'"))
    assert done.returncode == 1, done


@pytest.mark.parametrize("harm", sorted(HARMS))
def test_a_computer_seat_that_harms_its_process_ends_play_named(tmp_path: Path, mark: str, harm: str) -> None:
    path = strategy_file(tmp_path, IN_A_DECISION, harm)
    child = spawn_play(tmp_path, mark, "--computer", f"{path}:Peeks")
    child.expect(pexpect.EOF, timeout=BOUND)
    child.close()
    assert child.exitstatus == 1, child.before
    assert "'peeks'" in child.before and "Traceback" not in child.before


def spawn_play(tmp_path: Path, mark: str, *options: str, **extra: str) -> pexpect.spawn:
    """`shutbox play` in a pseudo-terminal, with no person at the table: the computers play while it watches."""
    env = {key: value for key, value in os.environ.items() if key not in ("FORCE_COLOR", "COLUMNS", "LINES")}
    env.update({"SHUTBOX_DATA_DIR": str(tmp_path / "data"), "NO_COLOR": "1", "TERM": "xterm", MARK: mark, **extra})
    arguments = ["-m", "shutbox_cli", "play", "--delay", "0", "--seed", "1", "--timeout", LIMIT, *options]
    return pexpect.spawn(sys.executable, arguments, env=env, encoding="utf-8", timeout=BOUND, dimensions=(40, 100))


def test_a_child_in_a_group_of_its_own_is_not_left_behind(tmp_path: Path, mark: str) -> None:
    path = strategy_file(tmp_path, IN_A_DECISION, "setpgid")
    assert_named_failure(run(["analyze", f"{path}:Plays", "--timeout", LIMIT], mark, tmp_path), ("'plays'",))
    assert marked(mark) == []


@pytest.mark.parametrize(
    "command",
    [
        ["analyze", "{spec}"],
        ["analyze", "optimal", "--against", "{spec}"],
        ["check", "{spec}"],
        ["tournament", "--exact", "-s", "{spec}", "-s", "optimal"],
    ],
    ids=lambda command: " ".join(command[:2]),
)
def test_ctrl_c_stops_a_command_whose_strategy_loops(tmp_path: Path, mark: str, command: list[str]) -> None:
    path = strategy_file(tmp_path, IN_A_DECISION, "catching")
    started = tmp_path / "started"
    args = [word.replace("{spec}", f"{path}:Plays") for word in command]
    env = environment(**{MARK: mark, "HARM_STARTED": str(started)})
    with subprocess.Popen(
        [sys.executable, "-m", "shutbox_cli", *args, "--timeout", "600"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        deadline = time.monotonic() + BOUND
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert started.exists(), "the strategy never started looping"
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=BOUND)
    assert process.returncode == 130, err
    assert "Traceback" not in err


def test_ctrl_c_stops_play_while_a_computer_seat_loops(tmp_path: Path, mark: str) -> None:
    path = strategy_file(tmp_path, IN_A_DECISION, "catching")
    # A folder of its own, made before the host starts: the host may write in the test's folders
    # (SHUTBOX_HOST_WRITABLE), but not in the one that holds play's data folder, which is private.
    (tmp_path / "marks").mkdir()
    started = tmp_path / "marks" / "started"
    child = spawn_play(tmp_path, mark, "--computer", f"{path}:Peeks", "--timeout", "600", HARM_STARTED=str(started))
    deadline = time.monotonic() + BOUND
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert started.exists(), "the strategy never started looping"
    child.sendintr()
    child.expect_exact("Interrupted. Goodbye.", timeout=BOUND)
    child.expect(pexpect.EOF, timeout=BOUND)
    child.close()
    assert child.exitstatus == 130


SABOTEUR = """from strategies import Strategy
import strategies.builtin
import strategies.solved


def _worst(self, view):
    return view.legal_moves[-1]


class Honest(Strategy):
    name = "saboteur"

    def choose_move(self, view):
        return view.legal_moves[0]


class Saboteur(Honest):
    pass
"""
PATCH = """
strategies.solved.Optimal.choose_move = _worst
strategies.solved.MaxShut.choose_move = _worst
strategies.builtin.GreedyHigh.choose_move = _worst
"""


def figures(report: dict[str, object]) -> object:
    """A report's figures, every strategy's spec and the config (with its files' sha256) left out."""
    text = json.dumps({key: value for key, value in report.items() if key != "config"})
    for word in ("honest.py:Honest", "saboteur.py:Saboteur"):
        text = text.replace(word, "SPEC")
    return json.loads(text)


@pytest.mark.parametrize(
    "command",
    [
        ["tournament", "--exact", "-s", "optimal", "-s", "greedy-high", "-s", "max-shut", "-s", "{spec}"],
        ["analyze", "{spec}", "--against", "optimal"],
    ],
    ids=["tournament --exact", "analyze --against"],
)
def test_a_saboteur_that_patches_the_built_ins_at_import_changes_no_figure(
    tmp_path: Path, mark: str, command: list[str]
) -> None:
    (tmp_path / "honest.py").write_text(SABOTEUR)
    (tmp_path / "saboteur.py").write_text(SABOTEUR + PATCH)
    reports = []
    for spec in ("honest.py:Honest", "saboteur.py:Saboteur"):
        args = [word.replace("{spec}", spec) for word in command]
        done = real_shutbox(*args, "--format", "json", cwd=tmp_path, env={MARK: mark}, timeout=BOUND)
        assert done.returncode == 0, done.stderr
        reports.append(figures(json.loads(done.stdout)))
    assert reports[0] == reports[1]


def test_an_honest_users_exact_strategy_gets_the_figures_it_gets_in_process(tmp_path: Path) -> None:
    spec = f"{ROOT / 'tests' / 'golden' / 'cautious.py'}:Cautious"
    done = real_shutbox("analyze", spec, "--format", "json", timeout=BOUND)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    loaded = load_strategy(spec)
    player = StrategyPlayer(loaded.make(), Rules(), loaded.name)
    found = distribution(Rules(), player.move_policy, player.dice_policy)
    assert report["mean_score"] == found.expected_score and report["shut_rate"] == found.shut_probability
    assert report["distribution"] == {str(score): chance for score, chance in found.probabilities.items()}


def test_check_of_a_users_strategy_reports_every_check_from_its_host(tmp_path: Path) -> None:
    spec = f"{ROOT / 'tests' / 'golden' / 'cautious.py'}:Cautious"
    done = real_shutbox("check", spec, "--samples", "5", timeout=BOUND)
    assert done.returncode == 0, done.stderr
    assert "Every check holds." in done.stdout and "legal answers" in done.stdout


def test_check_of_a_users_strategy_tells_the_key_its_undeclared_read_fits(tmp_path: Path) -> None:
    """The hint comes from the host as data (the features read, asked again) and is worded here."""
    path = tmp_path / "reads_round.py"
    path.write_text(
        "from strategies import Strategy\n\n"
        "class ReadsTheRound(Strategy):\n"
        "    name = 'reads-the-round'\n\n"
        "    def choose_move(self, view):\n"
        "        return view.legal_moves[0] if view.context.round else view.legal_moves[-1]\n"
    )
    done = real_shutbox("check", f"{path}:ReadsTheRound", "--samples", "3", columns=None, timeout=BOUND)
    assert done.returncode == 1, done.stderr
    assert 'add `key = ("round",)` to its class instead.' in done.stdout
