"""`shutbox tournament` through its real entry point, in real processes: reports that do
not depend on the number of workers, failing and dying strategies, a stuck strategy,
Ctrl-C sent to the process group, the progress bar; and what the screen shows, which the
command renders the same in this process."""

from __future__ import annotations

import os
import pty
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.text import Text
from typer.testing import CliRunner

from shutbox_cli.face.cli import app
from shutbox_cli.game import Rules, mask_of, play_turn, turn_rolls
from strategies.loading import load_strategy
from strategies.player import StrategyError, StrategyPlayer

from helpers.command import environment, real_shutbox
from helpers.paths import EXAMPLES
from helpers.processes import group_members

pytestmark = pytest.mark.slow  # every test runs whole tournaments, most through the real command

SMALL = ["-s", "greedy-high", "-s", "random", "-s", "tips", "--games", "1000"]
NO_CHECKPOINT = ("--checkpoint-seconds", "86400")
"""No checkpoint within a test's run: one kept (after 5 s, on a slow machine) adds how to resume to
the messages asserted here (tests/tournaments/running/test_resume.py tests that line)."""
"""Three strategies, three matchups of 1000 games (one bulk unit: all three are context-free)."""

BAD_STRATEGIES = '''
import os
import pathlib
import time

from strategies import Strategy


class Raises(Strategy):
    def choose_move(self, view):
        if len(view.open_tiles) < 5:
            raise ZeroDivisionError("no luck today")
        return view.legal_moves[0]


class RaisesInGame(Raises):
    """Plays turn by turn (it declares reading the context), so it fails inside a game."""

    reads_context = True


class Illegal(Strategy):
    def choose_move(self, view):
        return (13,) if len(view.open_tiles) < 6 else view.legal_moves[0]


class Dies(Strategy):
    def choose_move(self, view):
        if len(view.open_tiles) < 4:
            os._exit(3)
        return view.legal_moves[0]


class Exits(Strategy):
    def choose_move(self, view):
        if len(view.open_tiles) < 4:
            raise SystemExit(4)
        return view.legal_moves[0]


class Interrupts(Strategy):
    def choose_move(self, view):
        raise KeyboardInterrupt


class Stuck(Strategy):
    def choose_move(self, view):
        while len(view.open_tiles) < 4:
            pass
        return view.legal_moves[0]


class Slow(Strategy):
    """Marks a file when it starts playing, then takes its time."""

    reads_context = True

    def __init__(self, mark=""):
        self.mark = mark

    def choose_move(self, view):
        pathlib.Path(self.mark).touch()
        time.sleep(0.005)
        return view.legal_moves[0]
'''


def frame(path: Path, code: str) -> list[str]:
    """The two lines a failing strategy's message shows for the line of bad.py holding `code`."""
    number = next(number for number, line in enumerate(BAD_STRATEGIES.splitlines(), 1) if code in line)
    return [f'  File "{path}", line {number}, in choose_move', f"    {code}"]


def shutbox(
    *args: str, cwd: Path, timeout: float = 60, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return real_shutbox("tournament", *args, *NO_CHECKPOINT, cwd=cwd, timeout=timeout, env=env)


def shown(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """The command run in this process, as on an 80-column screen (`env` over that): status, stdout, stderr."""
    unset: dict[str, str | None] = {"FORCE_COLOR": None, "NO_COLOR": None, "TERM": None}
    done = CliRunner().invoke(app, ["tournament", *args], env={**unset, "COLUMNS": "80", **(env or {})})
    return done.exit_code, done.stdout, done.stderr


@pytest.fixture
def bad(tmp_path: Path) -> Path:
    (tmp_path / "bad.py").write_text(BAD_STRATEGIES)
    return tmp_path


@pytest.mark.slow
def test_a_busy_machine_playing_j_2_in_one_process_says_so_on_stderr_and_writes_the_same_report(
    tmp_path: Path,
) -> None:
    run = ["-s", "optimal", "-s", "random", "--games", "20000", "--seed", "3", "-j", "2", "-q"]  # about a second
    busy = shutbox(*run, "--report", "busy.toml", cwd=tmp_path, env={"SHUTBOX_POOL": "busy"})
    assert busy.returncode == 0, busy.stderr
    said = " ".join(busy.stderr.split())
    assert "shutbox: the machine looked busy (1.0 of its " in said
    assert "this process plays alone, where 2 worker processes would take turns with the load (asked: -j 2)" in said
    pooled = shutbox(*run, "--report", "pool.toml", cwd=tmp_path, env={"SHUTBOX_POOL": "always"})
    assert pooled.returncode == 0 and "busy" not in pooled.stderr, pooled.stderr
    assert (tmp_path / "busy.toml").read_bytes() == (tmp_path / "pool.toml").read_bytes()


@pytest.mark.usefixtures("pooled")
def test_reports_are_byte_identical_whatever_the_workers_and_differ_by_seed(tmp_path: Path) -> None:
    for name, workers, seed in (("one.toml", "1", "21"), ("two.toml", "2", "21"), ("other.toml", "2", "22")):
        done = shutbox(
            *SMALL,
            "-s",  # a user's strategy, in its host at either -j
            str(EXAMPLES / "cautious.py") + ":Cautious",
            "--drop-out",
            "40",
            "--table",
            "3",
            "-j",
            workers,
            "--seed",
            seed,
            "--report",
            name,
            "-q",
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr
    one, two, other = ((tmp_path / name).read_bytes() for name in ("one.toml", "two.toml", "other.toml"))
    assert one == two
    assert one != other
    assert b"seed = 21" in one and b"shutbox_version" in one


def test_a_report_runs_again_to_the_same_report(tmp_path: Path) -> None:
    first = shutbox(*SMALL, "--seed", "3", "--report", "first.toml", "-q", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    again = shutbox("first.toml", "--report", "again.toml", "-q", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "first.toml").read_bytes() == (tmp_path / "again.toml").read_bytes()


def test_without_a_seed_one_is_drawn_printed_and_recorded(tmp_path: Path) -> None:
    done = shutbox(*SMALL, "--report", "report.toml", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if "repeat with --seed" in line)
    seed = line.split("repeat with --seed ")[1].rstrip(").")
    assert f"seed = {seed}\n" in (tmp_path / "report.toml").read_text()


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.usefixtures("pooled")
def test_a_strategy_that_raises_stops_the_run_with_where_and_what(bad: Path, workers: str) -> None:
    done = shutbox(
        "-s",
        "bad.py:RaisesInGame",
        "-s",
        "greedy-high",
        "-s",
        "random",
        "--seed",
        "8",
        "-j",
        workers,
        "--report",
        "report.toml",
        cwd=bad,
    )
    assert done.returncode == 1
    # the sentence, then the strategy's own frame
    assert done.stderr.splitlines()[1:] == frame(bad / "bad.py", 'raise ZeroDivisionError("no luck today")')
    for words in (
        "'bad.py:RaisesInGame'",
        "matchup bad.py:RaisesInGame vs greedy-high",
        "game 1 (seat order greedy-high, bad.py:RaisesInGame)",
        "round 0, seat 1, dealt from seed",
        "as game 0",
        "ZeroDivisionError: no luck today",
        "open tiles 1 2 3 5",
        "dice 3+3",
    ):
        assert words in done.stderr
    assert not (bad / "report.toml").exists()
    # The message is enough to replay the failing turn: its seat's dice stream, and the strategy.
    found = re.search(r"round (\d+), seat (\d+), dealt from seed (\d+) as game (\d+)", done.stderr)
    assert found is not None
    round_, seat, seed, game = map(int, found.groups())
    strategy = load_strategy(f"{bad / 'bad.py'}:RaisesInGame").make()
    player = StrategyPlayer(strategy, Rules(), "bad.py:RaisesInGame")
    with pytest.raises(StrategyError) as caught:
        play_turn(Rules(), turn_rolls(seed, game, round_, seat), player)
    assert str(caught.value) in done.stderr


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.usefixtures("pooled")
def test_an_exact_strategy_that_raises_is_named_with_the_box_it_was_asked_about(bad: Path, workers: str) -> None:
    """An exact strategy is asked about every box and roll before its games are played (they
    are played from its answers), so the message names the question it failed on."""
    done = shutbox("-s", "bad.py:Raises", "-s", "greedy-high", "--seed", "8", "-j", workers, cwd=bad)
    assert done.returncode == 1
    assert done.stderr.splitlines()[1:] == frame(bad / "bad.py", 'raise ZeroDivisionError("no luck today")')
    found = re.search(
        r"in matchup bad.py:Raises vs greedy-high, games 0 to 1999 \(dealt from seed \d+\): "
        r"strategy 'bad.py:Raises' raised an error with open tiles ([\d ]+) and dice (\d)\+?(\d)? "
        r"\(asked while tabulating its answers\): ZeroDivisionError: no luck today",
        done.stderr,
    )
    assert found is not None, done.stderr
    tiles = tuple(map(int, found.group(1).split()))
    dice = tuple(int(die) for die in found.groups()[1:] if die)
    player = StrategyPlayer(load_strategy(f"{bad / 'bad.py'}:Raises").make(), Rules(), "bad.py:Raises")
    with pytest.raises(StrategyError) as caught:
        player.move_policy(mask_of(tiles), dice)
    assert str(caught.value) in done.stderr


@pytest.mark.usefixtures("pooled")
def test_an_illegal_move_is_named_the_same_at_any_worker_count(bad: Path) -> None:
    messages = set()
    for workers in ("1", "2"):
        done = shutbox("-s", "greedy-high", "-s", "bad.py:Illegal", "--seed", "7", "-j", workers, cwd=bad)
        assert done.returncode == 1
        assert "answered (13,)" in done.stderr and "other than one of the legal moves" in done.stderr
        messages.add(done.stderr)
    assert len(messages) == 1


@pytest.mark.usefixtures("pooled")
def test_a_strategy_whose_process_dies_is_reported_not_waited_for(bad: Path) -> None:
    done = shutbox("-s", "bad.py:Dies", "-s", "greedy-high", "-j", "2", "--seed", "1", timeout=30, cwd=bad)
    assert done.returncode == 1
    assert "the process of strategy 'bad.py:Dies' ended with status 3" in done.stderr
    assert "matchup bad.py:Dies vs greedy-high" in done.stderr


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.usefixtures("pooled")
def test_a_strategy_that_calls_sys_exit_is_named_not_obeyed(bad: Path, workers: str) -> None:
    done = shutbox("-s", "bad.py:Exits", "-s", "greedy-high", "-j", workers, "--seed", "1", cwd=bad)
    assert done.returncode == 1
    assert done.stderr.splitlines()[1:] == frame(bad / "bad.py", "raise SystemExit(4)")
    assert "matchup bad.py:Exits vs greedy-high" in done.stderr and "'bad.py:Exits' called sys.exit(4)" in done.stderr


@pytest.mark.usefixtures("pooled")
def test_a_strategy_raising_keyboard_interrupt_in_a_worker_is_named_without_a_traceback(bad: Path) -> None:
    done = shutbox("-s", "bad.py:Interrupts", "-s", "greedy-high", "-j", "2", "--seed", "1", cwd=bad)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    # the sentence (where, and what: the strategy's own KeyboardInterrupt), then the strategy's own frame
    assert done.stderr.splitlines()[1:] == frame(bad / "bad.py", "raise KeyboardInterrupt")
    assert "matchup bad.py:Interrupts vs greedy-high" in done.stderr
    assert "'bad.py:Interrupts' raised an error" in done.stderr and ": KeyboardInterrupt." in done.stderr


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.usefixtures("pooled")
def test_a_stuck_strategy_is_stopped_at_the_time_limit(bad: Path, workers: str) -> None:
    # 3 s: the limit holds for loading too, and a loaded machine may take a second to start a host
    done = shutbox("-s", "bad.py:Stuck", "-s", "greedy-high", "-j", workers, "--timeout", "3", timeout=60, cwd=bad)
    assert done.returncode == 1
    # Its host is named a little before the unit's own limit ends the run; on a loaded machine the
    # unit's limit may come first, and then the matchup names it.
    named = "strategy 'bad.py:Stuck' did not answer within 3 seconds (the limit per work unit)"
    unit = "matchup bad.py:Stuck vs greedy-high, games 0 to 1999"
    assert named in done.stderr or unit in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1 and "(raise the limit with --timeout)" in done.stderr


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
@pytest.mark.usefixtures("pooled")
def test_ctrl_c_stops_promptly_without_report_or_leftover_processes(bad: Path) -> None:
    mark = bad / "started"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "shutbox_cli",
            "tournament",
            "-s",
            f"bad.py:Slow(mark={str(mark)!r})",
            "-s",
            "greedy-high",
            "-s",
            "random",
            "-j",
            "2",
            "--seed",
            "1",
            "--report",
            "report.toml",
        ],
        cwd=bad,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(),
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while not mark.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert mark.exists(), "the workers never started playing"
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130
    assert "interrupted after" in err and "no report written" in err
    assert not (bad / "report.toml").exists()
    assert not list(bad.glob(".report.toml.*"))
    assert group_members(process.pid) == []


def test_the_default_tournament_fits_80_columns_and_quiet_is_one_line() -> None:
    status, out, err = shown("--games", "200", env={"FORCE_COLOR": "1"})
    assert status == 0, err
    assert err == ""  # no progress bar when stderr is not a terminal, even with FORCE_COLOR
    lines = Text.from_ansi(out).plain.splitlines()
    assert max(len(line) for line in lines) <= 80
    for words in ("greedy-high", "random", "win rate", "Head to head", "repeat with --seed", "Rules: standard."):
        assert words in out
    status, out, _ = shown("--games", "200", "--seed", "4", "-q")
    assert status == 0
    assert out.count("\n") == 1 and "winner:" in out and "seed 4" in out


@pytest.mark.parametrize("columns", [80, 60])
def test_a_wide_head_to_head_falls_back_to_one_pair_a_line(columns: int) -> None:
    field = [
        arg
        for spec in (
            "greedy-high",
            "random",
            "tips",
            "optimal",
            "max-shut",
            "fewest-tiles",
            "most-tiles",
            "lowest-first",
            "target(margin=1)",
        )
        for arg in ("-s", spec)
    ]
    status, out, err = shown(*field, "--games", "10", "--seed", "1", "-j", "1", env={"COLUMNS": str(columns)})
    assert status == 0, err
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= columns
    assert "opp. won" in out
    pairs = lines[next(number for number, line in enumerate(lines) if line.startswith("Head to head")) :]
    assert (
        sum("random" in line and "tips" in line for line in pairs) == 1
    )  # (the ranking may name both as within noise)
    assert sum("target(margin=1)" in line and "%" in line for line in pairs) == 8  # names whole, a pair a line


def test_solo_tables_show_scores_without_wins() -> None:
    status, out, err = shown(
        "-s",
        "optimal",
        "-s",
        "greedy-high",
        "--table",
        "1",
        "--games",
        "300",
        "--seed",
        "2",
        "--tiles",
        "12",
        "--one-die",
        "high-tiles",
    )
    assert status == 0, err
    assert "Rules: tiles = 12, one_die = high-tiles." in out
    assert "solo tables" in out and "win rate" not in out and "Head to head" not in out


def test_the_progress_bar_goes_to_stderr_on_a_terminal(tmp_path: Path) -> None:
    controller, terminal = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "shutbox_cli", "tournament", *SMALL, "--seed", "1", "-j", "1"],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=terminal,
            text=True,
            timeout=60,
            env=environment(),
        )
        os.close(terminal)
        shown = b""
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(controller)
    assert done.returncode == 0
    assert b"games" in shown and b"3000" in shown.replace(b",", b"")
    assert "\x1b" not in done.stdout
