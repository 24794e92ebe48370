"""`shutbox tournament --scheduler` on a real Dask cluster on 127.0.0.1: a scheduler and
workers started with Dask's own programs, the real command as a user runs it, reports byte
for byte those of one process, failures named as one sentence, and every process gone after."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import command
from helpers.command import environment
from helpers.paths import ROOT
from helpers.processes import MARKER, group_members, group_of, marked

STRATEGIES = '''
import pathlib
import time

from strategies import Strategy


class Slow(Strategy):
    """Marks a file when it starts playing, then takes its time: a run of some seconds."""

    reads_context = True

    def __init__(self, mark=""):
        self.mark = mark

    def choose_move(self, view):
        if self.mark:
            pathlib.Path(self.mark).touch()
        time.sleep(0.003)
        return view.legal_moves[-1]


class Raises(Strategy):
    reads_context = True  # played game by game, so the failure names its game

    def choose_move(self, view):
        if len(view.open_tiles) < 5:
            raise ZeroDivisionError("no luck today")
        return view.legal_moves[0]


class Rare(Strategy):
    """Raises in one state, first met in game 2181 of its matchup with greedy-high at seed 5."""

    reads_context = True

    def choose_move(self, view):
        if view.open_tiles == (3, 4, 6, 7, 9) and view.dice == (3, 6):
            raise ZeroDivisionError("rare")
        return view.legal_moves[-1]


class Stuck(Strategy):
    def choose_move(self, view):
        while len(view.open_tiles) < 4:
            pass
        return view.legal_moves[0]
'''

SLOW_FIELD = ["-s", "greedy-high", "-s", "random", "--games", "800", "--seed", "12"]
"""With slow.py:Slow, three matchups of one unit each; the two with Slow take some seconds each."""

POISON = '''
import os
import threading
import time

from shutbox_cli.game import Rules, move_table
from shutbox_cli.game.solver import solve_expected_score
from strategies import Strategy

with open({importers!r}, "a") as importers:
    importers.write(f"{{os.getpid()}}\\n")


def poison():
    """After a while, make the solver's cached `optimal` play the worst move of every throw."""
    time.sleep(0.3)
    rules = Rules()
    solution = solve_expected_score(rules)
    rows = [move_table(rules).row(mask) for mask in range(rules.full_box + 1)]
    worst = tuple(
        tuple(max(moves, key=lambda move: solution.values[mask & ~move]) if moves else 0 for moves in row)
        for mask, row in enumerate(rows)
    )
    object.__setattr__(solution, "moves", worst)


threading.Thread(target=poison, daemon=True).start()


class Poison(Strategy):
    reads_context = True

    def choose_move(self, view):
        time.sleep(0.001)
        return view.legal_moves[0]
'''

EDITS = """
from pathlib import Path

from strategies import Strategy

HERE = Path(__file__)
if "shutbox-strategies" in str(HERE):  # its copy on a Dask worker: rewritten for whoever loads it next
    HERE.write_text(HERE.read_text().replace("legal_moves[0]", "legal_moves[-1]"))


class Edits(Strategy):
    reads_context = True

    def choose_move(self, view):
        return view.legal_moves[0]
"""

FORKS = '''
import os
import time

from strategies import Strategy


class Forks(Strategy):
    """At its first decision in a process, leaves a child asleep for five minutes."""

    reads_context = True
    forked = False

    def choose_move(self, view):
        if not Forks.forked:
            Forks.forked = True
            if os.fork() == 0:
                time.sleep(300)
                os._exit(0)
        return view.legal_moves[0]
'''


def _marked(mark: str, besides: Collection[int] = ()) -> list[int]:
    """Running processes marked `mark` (the marker's value), outside the process groups `besides`."""
    return [pid for pid in marked(mark) if group_of(pid) not in (None, *besides)]


def _gone(group: int, within: float = 20) -> bool:
    _wait_for(lambda: not group_members(group), within)
    return not group_members(group)


def _stop(process: subprocess.Popen[Any]) -> None:
    """Stop a process started in its own session, and everything it started."""
    for sent in (signal.SIGTERM, signal.SIGKILL):
        if _gone(process.pid, 0):
            break
        try:
            os.killpg(process.pid, sent)
        except ProcessLookupError:
            break
        _gone(process.pid, 15)
    process.wait(timeout=15)


def limited(soft: int, hard: int) -> Callable[[], None]:
    """A child's start: at most `soft` open files, up to `hard` if it raises its limit."""

    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

    return limit


def _wait_for(done: Any, within: float = 60) -> None:
    deadline = time.monotonic() + within
    while not done() and time.monotonic() < deadline:
        time.sleep(0.05)


class Cluster:
    """A Dask scheduler and workers on 127.0.0.1, each started by its command-line program in
    its own session (so that each can be killed, and checked for leftovers, as a whole)."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        self.folder = folder
        self.mark = uuid.uuid4().hex  # unique among parallel test workers (a folder's name is not)
        self.env = {**env, MARKER: self.mark}
        self.workers: list[subprocess.Popen[Any]] = []
        where = folder / "scheduler.json"
        ports = ["--port", "0", "--no-dashboard", "--dashboard-address", "127.0.0.1:0"]
        self.scheduler = self._start("scheduler", "--host", "127.0.0.1", *ports, "--scheduler-file", str(where))
        _wait_for(lambda: (where.exists() and where.read_text()) or self.scheduler.poll() is not None)  # whole
        self.address: str = json.loads(where.read_text())["address"]

    def _start(self, *arguments: str) -> subprocess.Popen[Any]:
        with (self.folder / f"{arguments[0]}-{len(self.workers)}.log").open("w") as log:
            return subprocess.Popen(
                [sys.executable, "-m", "dask", *arguments],
                cwd=self.folder,  # not the run's folder: a file strategy must travel
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def add_workers(self, count: int) -> None:
        options = ["--nworkers", "1", "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard"]
        scratch = ["--local-directory", str(self.folder / "scratch")]
        self.workers += [self._start("worker", self.address, *options, *scratch) for _ in range(count)]
        self.wait_for(len(self.workers))

    def client(self) -> Any:
        from distributed import Client

        return Client(self.address, timeout=10, set_as_default=False)

    def wait_for(self, count: int) -> None:
        with self.client() as client:
            client.wait_for_workers(count, timeout=60)

    def worker_addresses(self) -> set[str]:
        with self.client() as client:
            return set(client.nthreads())

    def idle(self, within: float = 30) -> bool:
        """Whether, within some seconds, the scheduler holds no task of a run (all done or cancelled)."""

        def ours(dask_scheduler: Any) -> list[str]:
            return [str(key) for key in dask_scheduler.tasks if str(key).startswith("shutbox-")]

        with self.client() as client:
            _wait_for(lambda: not client.run_on_scheduler(ours), within)
            return not client.run_on_scheduler(ours)

    def strays(self, within: float = 10) -> list[int]:
        """Processes started on the cluster's workers that outlive their worker or run: those
        with the cluster's mark outside its own processes' groups, after a grace to end."""
        own = {process.pid for process in [*self.workers, self.scheduler]}
        _wait_for(lambda: not _marked(self.mark, own), within)
        return _marked(self.mark, own)

    def pids(self) -> set[int]:
        """The workers' processes (where tasks run)."""
        with self.client() as client:
            return set(client.run(os.getpid).values())

    def stop(self) -> None:
        for process in [*self.workers, self.scheduler]:
            _stop(process)
        left = [pid for process in [*self.workers, self.scheduler] for pid in group_members(process.pid)]
        assert left == [], f"processes left behind: {left}"


@pytest.fixture(scope="module")
def lucky(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """examples/shutbox-lucky installed into a folder, to put on PYTHONPATH of both the command
    and the workers (an installed package strategy, found by its entry point)."""
    folder = tmp_path_factory.mktemp("lucky")
    package = shutil.copytree(ROOT / "examples" / "shutbox-lucky", folder / "source")  # builds leave files
    pip = [sys.executable, "-m", "pip", "install", "--no-deps", "--disable-pip-version-check"]
    installed = subprocess.run(
        [*pip, "--quiet", "--target", str(folder / "site"), str(package)], capture_output=True, text=True
    )
    if installed.returncode and "setuptools" in installed.stderr and "satisf" in installed.stderr:
        pytest.skip("pip cannot fetch setuptools to build the example package (no network and no local index).")
    assert installed.returncode == 0, installed.stderr
    return folder / "site"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory, lucky: Path) -> Iterator[Cluster]:
    """A scheduler and two workers, for the tests that leave them as they found them."""
    running = Cluster(tmp_path_factory.mktemp("cluster"), environment(PYTHONPATH=str(lucky)))
    try:
        running.add_workers(2)
        yield running
    finally:
        running.stop()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "slow.py").write_text(STRATEGIES)
    shutil.copy(ROOT / "examples" / "cautious.py", tmp_path / "cautious.py")
    return tmp_path


TOURNAMENT = [sys.executable, "-m", "shutbox_cli", "tournament"]


def start(
    *args: str,
    cwd: Path,
    env: dict[str, str] | None = None,
    program: list[str] = TOURNAMENT,
    open_files: tuple[int, int] | None = None,
) -> subprocess.Popen[str]:
    """The real command (or `program`), in its own session; `open_files` its soft and hard limits
    on open files (`ulimit -n`), else this process's."""
    return subprocess.Popen(
        [*program, *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env or environment(),
        start_new_session=True,
        preexec_fn=None if open_files is None else limited(*open_files),
    )


def finish(process: subprocess.Popen[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Its output when it ends; afterwards nothing it started is left running."""
    try:
        out, err = process.communicate(timeout=timeout)
    finally:
        _stop(process)
    assert group_members(process.pid) == [], "the command left processes behind"
    return subprocess.CompletedProcess(process.args, process.returncode, out, command.unconfined(err))


def shutbox(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return finish(start(*args, cwd=cwd, env=env))


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """The error's sentence; what follows is only the strategy's own traceback lines, if any, and
    how to resume if the run kept a checkpoint."""
    first, *frames = done.stderr.splitlines()
    if frames and frames[-1].startswith("shutbox: the finished games are kept; resume with: "):
        frames.pop()
    assert "Traceback" not in done.stderr and all(line.startswith("  ") for line in frames), done.stderr
    return first


@pytest.mark.slow
def test_a_cluster_reports_byte_for_byte_as_one_process(cluster: Cluster, folder: Path, lucky: Path) -> None:
    """Built-in, file and installed-package strategies; the file is not in the workers' folder."""
    field = ["-s", "greedy-high", "-s", "cautious.py:Cautious(margin=4)", "-s", "lucky", "-s", "random"]
    rest = ["--table", "3", "--drop-out", "40", "--games", "900", "--seed", "31", "-q"]
    env = environment(PYTHONPATH=str(lucky))
    alone = shutbox(*field, *rest, "-j", "1", "--report", "alone.toml", cwd=folder, env=env)
    assert alone.returncode == 0, alone.stderr
    spread = shutbox(*field, *rest, "--scheduler", cluster.address, "--report", "cluster.toml", cwd=folder, env=env)
    assert (spread.returncode, spread.stderr) == (0, "Report written to cluster.toml.\n")
    assert (folder / "cluster.toml").read_bytes() == (folder / "alone.toml").read_bytes()
    assert b'spec = "lucky"' in (folder / "cluster.toml").read_bytes()
    assert cluster.idle()


@pytest.mark.slow
@pytest.mark.usefixtures("pooled")
def test_keyed_strategies_report_byte_for_byte_alike_at_j_1_j_2_and_on_a_cluster(
    cluster: Cluster, folder: Path
) -> None:
    """A user's keyed strategy (its file not in the workers' folder) and target, keyed in one-round games."""
    shutil.copy(ROOT / "examples" / "chaser.py", folder / "chaser.py")
    field = ["-s", "chaser.py:Chaser", "-s", "target", "-s", "optimal", "--games", "300", "--seed", "17", "-q"]
    places = {"one": ["-j", "1"], "two": ["-j", "2"], "cluster": ["--scheduler", cluster.address]}
    reports = set()
    for name, where in places.items():
        done = shutbox(*field, *where, "--report", f"{name}.toml", cwd=folder)
        assert (done.returncode, done.stderr) == (0, f"Report written to {name}.toml.\n")
        reports.add((folder / f"{name}.toml").read_bytes())
    assert len(reports) == 1
    assert cluster.idle()


@pytest.mark.slow
def test_a_match_s_sprt_stops_at_the_same_game_on_a_cluster_as_in_one_process(cluster: Cluster) -> None:
    from tournaments import DaskCluster, Options, Sprt, play_match

    options = Options(strategies=["optimal", "fewest-tiles"], games=400_000, seed=5)
    alone = play_match(options, Sprt(0, 2))
    spread = play_match(options, Sprt(0, 2), backend=DaskCluster(cluster.address))
    assert spread.games == alone.games > 2048  # stopped after some units, before the budget
    assert spread.match == alone.match and spread.tallies == alone.tallies
    assert alone.match is not None and len(alone.match.path) == alone.games // 128  # the same LLR path
    assert cluster.idle()  # the units it did not need were cancelled


@pytest.mark.slow
def test_a_strategy_that_raises_on_a_worker_is_named_as_in_one_process(cluster: Cluster, folder: Path) -> None:
    field = ["-s", "slow.py:Raises", "-s", "greedy-high", "-s", "random", "--seed", "8", "--report", "r.toml"]
    alone = shutbox(*field, "-j", "1", cwd=folder)
    spread = shutbox(*field, "--scheduler", cluster.address, cwd=folder)
    assert (spread.returncode, alone.returncode) == (1, 1)
    assert one_line(spread) == one_line(alone)
    assert "matchup slow.py:Raises vs greedy-high, game 1 " in spread.stderr and "ZeroDivisionError" in spread.stderr
    assert not (folder / "r.toml").exists()
    assert cluster.idle()


@pytest.mark.slow
def test_with_units_enough_for_a_few_per_task_the_report_and_the_failure_are_as_in_one_process(
    cluster: Cluster, folder: Path
) -> None:
    """Rare plays game by game (it reads the context): 12 units of 2,000 games beside the bulk unit
    of greedy-high vs random, a few a task, and it fails in the second unit of its matchup, inside a task."""
    for first, report in (("tips", "report.toml"), ("slow.py:Rare", "failed.toml")):
        field = ["-s", first, "-s", "greedy-high", "-s", "random", "--games", "12000", "--seed", "5", "-q"]
        alone = shutbox(*field, "-j", "1", "--report", f"alone-{report}", cwd=folder)
        spread = shutbox(*field, "--scheduler", cluster.address, "--report", report, cwd=folder)
        assert spread.returncode == alone.returncode
        said_alone = alone.stderr.replace(f"alone-{report}", report)  # the note names each run's report
        assert spread.stderr.splitlines()[:1] == said_alone.splitlines()[:1]
    assert (folder / "report.toml").read_bytes() == (folder / "alone-report.toml").read_bytes()
    assert "in matchup slow.py:Rare vs greedy-high, game 2181 " in one_line(spread)
    assert not (folder / "failed.toml").exists()


@pytest.mark.slow
def test_a_module_missing_on_the_workers_is_named_once_with_a_worker(cluster: Cluster, folder: Path) -> None:
    (folder / "only_here.py").write_text(
        "from strategies import Strategy\n\n\nclass First(Strategy):\n"
        "    def choose_move(self, view):\n        return view.legal_moves[0]\n"
    )
    done = shutbox("-s", "only_here:First", "-s", "greedy-high", "--scheduler", cluster.address, cwd=folder)
    assert done.returncode == 1
    message = one_line(done)
    assert "no module named 'only_here' for strategy 'only_here:First'" in message
    assert any(f"Dask worker {worker} cannot load the strategies" in message for worker in cluster.worker_addresses())


@pytest.mark.slow
def test_a_stuck_strategy_is_named_at_the_time_limit_and_its_hosts_stopped(cluster: Cluster, folder: Path) -> None:
    """Stuck in its host, not in a worker: the worker stops the host and names it; the workers stay free."""
    # 3 s: the limit holds for loading too, and a loaded machine may take a second to start a host
    field = ["-s", "slow.py:Stuck", "-s", "greedy-high", "--timeout", "3"]
    done = shutbox(*field, "--scheduler", cluster.address, cwd=folder)
    assert done.returncode == 1
    assert "matchup slow.py:Stuck vs greedy-high, games 0 to 1999" in one_line(done)
    assert "strategy 'slow.py:Stuck' did not answer within 3 seconds (the limit per work unit)" in done.stderr
    assert cluster.strays() == []
    cluster.wait_for(2)
    assert cluster.idle()
    with cluster.client() as client:
        assert not any(client.processing().values())


@pytest.mark.slow
def test_a_strategy_that_poisons_built_ins_changes_no_later_run_on_the_cluster(cluster: Cluster, folder: Path) -> None:
    """Its module starts a thread that rewrites `optimal`'s cached solution a moment later: it
    runs only in its own hosts, which the run stops, so a later run of built-ins on the same
    workers reports as one process does; and no worker ever imported it."""
    (folder / "poison.py").write_text(POISON.format(importers=str(folder / "importers")))
    first = shutbox(
        "-s", "poison.py:Poison", "-s", "greedy-high", "-n", "400", "--scheduler", cluster.address, cwd=folder
    )
    assert first.returncode == 0, first.stderr
    assert cluster.strays() == []
    time.sleep(0.5)  # past the moment the thread would have struck
    field = ["-s", "optimal", "-s", "greedy-high", "--games", "4000", "--seed", "6", "-q"]
    alone = shutbox(*field, "-j", "1", "--report", "alone.toml", cwd=folder)
    spread = shutbox(*field, "--scheduler", cluster.address, "--report", "cluster.toml", cwd=folder)
    assert (alone.returncode, spread.returncode) == (0, 0), spread.stderr
    assert (folder / "cluster.toml").read_bytes() == (folder / "alone.toml").read_bytes()
    importers = {int(pid) for pid in (folder / "importers").read_text().split()}
    assert importers and not importers & cluster.pids()


@pytest.mark.slow
def test_a_strategy_that_rewrites_its_copy_on_a_worker_changes_no_later_run(cluster: Cluster, folder: Path) -> None:
    """Each run writes its strategy files afresh on the workers: the same file in a later run
    plays as written, not as an earlier run's host left it."""
    (folder / "edits.py").write_text(EDITS)
    field = ["-s", "edits.py:Edits", "-s", "greedy-high", "--games", "400", "--seed", "2", "-q"]
    alone = shutbox(*field, "-j", "1", "--report", "alone.toml", cwd=folder)
    assert alone.returncode == 0, alone.stderr
    for run in ("first", "second"):
        spread = shutbox(*field, "--scheduler", cluster.address, "--report", f"{run}.toml", cwd=folder)
        assert spread.returncode == 0, spread.stderr
        assert (folder / f"{run}.toml").read_bytes() == (folder / "alone.toml").read_bytes(), run
    assert list((cluster.folder / "scratch").rglob("shutbox-strategies/*")) == []  # each run's copies removed


@pytest.mark.slow
def test_a_run_s_hosts_end_with_their_worker_and_with_the_run(cluster: Cluster, folder: Path) -> None:
    """The workers restarted mid-run (as the time limit restarts a stuck one): their hosts end
    with them. The run then interrupted: the hosts started since end too, on every worker."""
    mark = folder / "started"
    slow = f"slow.py:Slow(mark={str(mark)!r})"
    process = start("-s", slow, *SLOW_FIELD, "--scheduler", cluster.address, "--report", "r.toml", cwd=folder)
    _wait_for(lambda: mark.exists() or process.poll() is not None)
    hosts = cluster.strays(within=0)
    assert hosts, "no host outside the workers' processes while a user's strategy plays"
    with cluster.client() as client:
        client.restart_workers(list(client.nthreads()), timeout=30)
    _wait_for(lambda: not set(hosts) & set(cluster.strays(within=0)), 20)
    assert not set(hosts) & set(cluster.strays(within=0)), "a restarted worker's hosts lived on"
    mark.unlink()
    _wait_for(lambda: mark.exists() or process.poll() is not None)
    if process.poll() is not None:
        # A host may be stopped with its worker before the worker's task ends: the run may then fail,
        # in one sentence (a known race, not the strategy's fault), with no report and nothing left.
        done = finish(process, timeout=60)
        assert done.returncode == 1 and one_line(done), done.stderr
        assert not (folder / "r.toml").exists()
    else:
        assert cluster.strays(within=0), "the run played on without a host"
        os.killpg(process.pid, signal.SIGINT)
        done = finish(process, timeout=60)
        assert done.returncode == 130, done.stderr
    assert cluster.strays() == []
    cluster.wait_for(2)


@pytest.mark.slow
def test_a_plan_of_any_size_keeps_a_few_tasks_per_thread_on_the_cluster(cluster: Cluster, folder: Path) -> None:
    """A trillion games a matchup: a billion units, submitted as the cluster plays them."""

    def ours(dask_scheduler: Any) -> int:
        return sum(str(key).startswith("shutbox-units-") for key in dask_scheduler.tasks)

    field = ["-s", "greedy-high", "-s", "tips", "--games", str(10**12), "--seed", "3", "--report", "r.toml"]
    process = start(*field, "--scheduler", cluster.address, cwd=folder)
    counts = []
    with cluster.client() as client:
        _wait_for(lambda: client.run_on_scheduler(ours) > 0 or process.poll() is not None)
        for _ in range(10):
            counts.append(client.run_on_scheduler(ours))
            time.sleep(0.1)
    os.killpg(process.pid, signal.SIGINT)
    done = finish(process, timeout=60)
    assert 0 < max(counts) <= 2 * 64  # two worker threads
    assert done.returncode == 130
    assert "of 1,000,000,000,000 games" in one_line(done)
    assert cluster.idle()


@pytest.mark.slow
def test_ctrl_c_cancels_the_run_and_leaves_the_cluster_running(cluster: Cluster, folder: Path) -> None:
    mark = folder / "started"
    slow = f"slow.py:Slow(mark={str(mark)!r})"
    process = start("-s", slow, *SLOW_FIELD, "--scheduler", cluster.address, "--report", "report.toml", cwd=folder)
    _wait_for(lambda: mark.exists() or process.poll() is not None)
    assert mark.exists(), "the workers never started playing"
    os.killpg(process.pid, signal.SIGINT)
    done = finish(process, timeout=30)
    assert done.returncode == 130
    assert "interrupted after" in one_line(done) and "no report written" in done.stderr
    assert not (folder / "report.toml").exists()
    assert cluster.idle(), "the run's tasks were not cancelled"
    assert all(process.poll() is None for process in [*cluster.workers, cluster.scheduler])
    again = shutbox("-s", "greedy-high", "-s", "random", "--scheduler", cluster.address, "-q", cwd=folder)
    assert again.returncode == 0, again.stderr


@pytest.mark.slow
def test_a_dead_worker_s_units_are_played_again_and_with_none_left_the_run_fails(
    tmp_path_factory: pytest.TempPathFactory, folder: Path
) -> None:
    """SIGKILL to a worker mid-run: Dask plays its units elsewhere and the report is unchanged.
    Then SIGKILL to the last one: the run says the cluster has no workers. The run in one process
    plays while that run waits for a worker (it would mark the start of a cluster run)."""
    own = Cluster(tmp_path_factory.mktemp("fragile"), environment())
    mark = folder / "started"
    slow = f"slow.py:Slow(mark={str(mark)!r})"
    runs, alone = [], None
    try:
        own.add_workers(2)
        for victim in own.workers:
            mark.unlink(missing_ok=True)
            process = start("-s", slow, *SLOW_FIELD, "--scheduler", own.address, "--report", "cluster.toml", cwd=folder)
            _wait_for(lambda process=process: mark.exists() or process.poll() is not None)
            time.sleep(0.5)  # well into the run: both workers are playing
            assert process.poll() is None, "the run ended before a worker could be killed"
            os.kill(victim.pid, signal.SIGKILL)
            if victim is own.workers[-1]:
                alone = start("-s", slow, *SLOW_FIELD, "-j", "1", "--report", "alone.toml", "-q", cwd=folder)
            runs.append(finish(process))
            if runs[-1].returncode == 0:
                (folder / "cluster.toml").rename(folder / "first.toml")
    finally:
        own.stop()
        done_alone = None if alone is None else finish(alone)
    assert done_alone is not None and done_alone.returncode == 0, done_alone
    first, last = runs
    assert (first.returncode, first.stderr) == (0, "Report written to cluster.toml.\n")
    assert (folder / "first.toml").read_bytes() == (folder / "alone.toml").read_bytes()
    assert last.returncode == 1
    assert f"the Dask cluster at {own.address} has had no workers for 10 seconds" in one_line(last)
    assert not (folder / "cluster.toml").exists()


@pytest.mark.slow
def test_workers_of_another_shutbox_version_are_refused(tmp_path_factory: pytest.TempPathFactory, folder: Path) -> None:
    """A worker whose installed shutbox says another version (its metadata first on its path)."""
    other = tmp_path_factory.mktemp("other-version")
    (other / "shutbox-0.0.1.dist-info").mkdir()
    metadata = "Metadata-Version: 2.1\nName: shutbox\nVersion: 0.0.1\n"
    (other / "shutbox-0.0.1.dist-info" / "METADATA").write_text(metadata)
    own = Cluster(tmp_path_factory.mktemp("mixed"), environment(PYTHONPATH=str(other)))
    try:
        own.add_workers(1)
        (worker,) = own.worker_addresses()
        done = shutbox("-s", "greedy-high", "-s", "random", "--scheduler", own.address, cwd=folder)
    finally:
        own.stop()
    assert done.returncode == 2
    assert f"Dask worker {worker} runs shutbox 0.0.1 but this run is shutbox " in one_line(done)


@pytest.mark.slow
def test_a_local_cluster_from_the_config_file_reports_as_one_process_and_leaves_nothing_behind(folder: Path) -> None:
    """Not even the child a strategy forks (in its host, whose group is killed as the run ends)."""
    (folder / "forks.py").write_text(FORKS)
    specs = ("cautious.py:Cautious", "tips", "random", "forks.py:Forks")
    field = "".join(f'[[strategy]]\nspec = "{spec}"\n' for spec in specs)
    (folder / "t.toml").write_text(f'seed = 4\ngames = 800\nscheduler = "local"\n{field}')
    alone = shutbox("t.toml", "-j", "1", "--report", "alone.toml", "-q", cwd=folder)
    assert alone.returncode == 0, alone.stderr
    mark = uuid.uuid4().hex
    try:
        # and its cluster gone after (a child left holding the output would keep the command waiting)
        spread = shutbox("t.toml", "--report", "local.toml", "-q", cwd=folder, env=environment(**{MARKER: mark}))
        _wait_for(lambda: not _marked(mark), 10)
        assert _marked(mark) == [], "a strategy's child outlived the run"
    finally:
        for pid in _marked(mark):
            os.kill(pid, signal.SIGKILL)
    assert spread.returncode == 0, spread.stderr
    assert (folder / "local.toml").read_bytes() == (folder / "alone.toml").read_bytes()
    assert b"scheduler" not in (folder / "local.toml").read_bytes()


@pytest.mark.slow
def test_a_script_without_a_main_guard_is_told_why_its_local_cluster_cannot_start(tmp_path: Path) -> None:
    unguarded = tmp_path / "unguarded.py"
    unguarded.write_text(
        "from tournaments import DaskCluster, Options, load_config, run\n"
        "config = load_config(None, Options(strategies=['tips', 'random'], games=10, seed=1))\n"
        "run(config, backend=DaskCluster('local'))\n"
    )
    process = subprocess.Popen(
        [sys.executable, str(unguarded)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    done = finish(process)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("tournaments.errors.TournamentFailure: a local Dask cluster could not start")
    assert 'lack `if __name__ == "__main__":`' in last


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_sentence(folder: Path) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = shutbox("-s", "greedy-high", "-s", "random", "--scheduler", f"tcp://127.0.0.1:{port}", cwd=folder)
    assert done.returncode == 2
    assert f"cannot reach a Dask scheduler at tcp://127.0.0.1:{port} within 3 seconds" in one_line(done)


@pytest.mark.slow
def test_without_distributed_the_scheduler_option_says_what_to_install(folder: Path) -> None:
    """The command with `import distributed` failing, as where the extra is not installed."""

    def without(*args: str) -> subprocess.CompletedProcess[str]:
        hidden = "import sys; sys.modules['distributed'] = None; from shutbox_cli.face.cli import main; main()"
        return subprocess.run(
            [sys.executable, "-c", hidden, "tournament", "-s", "tips", "-s", "random", *args],
            cwd=folder,
            capture_output=True,
            text=True,
            env=environment(),
        )

    refused = without("--scheduler", "tcp://127.0.0.1:8786")
    assert refused.returncode == 2
    assert (
        "needs Dask's distributed package; install it with: pip install \".[dask]\" in shutbox's checkout"
        in one_line(refused)
    )
    alone = without("-j", "1", "--games", "100", "-q")
    assert alone.returncode == 0, alone.stderr


@pytest.mark.parametrize(
    ("args", "file", "message"),
    [
        (["-j", "2", "--scheduler", "local"], "", "--workers and --scheduler do not go together"),
        ([], "workers = 2\nscheduler = 'local'\n", "key 'workers' and key 'scheduler' do not go together"),
        (["--scheduler", "8786"], "", "--scheduler must be a Dask scheduler's address such as tcp://HOST:8786"),
        ([], "scheduler = 8786\n", "key 'scheduler' must be a Dask scheduler's address"),
    ],
)
def test_where_to_run_is_checked(folder: Path, args: list[str], file: str, message: str) -> None:
    (folder / "t.toml").write_text(file)
    done = command.shutbox("tournament", "t.toml", "-s", "tips", "-s", "random", *args, cwd=folder)  # no run
    assert done.returncode == 2
    assert message in one_line(done)


@pytest.mark.slow
def test_an_option_overrides_the_other_way_to_run_in_the_file(folder: Path) -> None:
    """-j on the command line wins over the file's scheduler (and runs without one)."""
    (folder / "t.toml").write_text("scheduler = 'tcp://127.0.0.1:1'\n")
    done = shutbox("t.toml", "-s", "tips", "-s", "random", "--games", "100", "-j", "1", "-q", cwd=folder)
    assert done.returncode == 0, done.stderr


# --- what the user sees when the cluster fails: shutbox's one sentence, not distributed's log -------


def stderr_lines(done: subprocess.CompletedProcess[str]) -> list[str]:
    """Stderr's lines, none of them a line of distributed's log or a traceback."""
    lines = done.stderr.splitlines()
    assert not any(" - distributed." in line or "Traceback" in line for line in lines), done.stderr
    return lines


def logged(sentence: str) -> str:
    """The Dask log file a failure's sentence names, read."""
    assert "; Dask's log of the run: " in sentence
    path = Path(sentence.rsplit("; Dask's log of the run: ", 1)[1].rstrip("."))
    try:
        return path.read_text()
    finally:
        path.unlink()


@pytest.mark.slow
def test_the_scheduler_killed_mid_run_is_one_sentence_and_distributeds_log_a_file(
    tmp_path_factory: pytest.TempPathFactory, folder: Path
) -> None:
    own = Cluster(tmp_path_factory.mktemp("killed"), environment())
    try:
        own.add_workers(1)
        mark = folder / "started"
        slow = f"slow.py:Slow(mark={str(mark)!r})"
        process = start("-s", slow, *SLOW_FIELD, "--scheduler", own.address, "--report", "r.toml", cwd=folder)
        _wait_for(lambda: mark.exists() or process.poll() is not None)
        assert process.poll() is None, "the run ended before the scheduler could be killed"
        _stop(own.scheduler)
        done = finish(process)
    finally:
        own.stop()
    assert done.returncode == 1
    (sentence,) = [line for line in stderr_lines(done) if not line.startswith("shutbox: the finished games are kept")]
    assert sentence.startswith("shutbox: error: ") and own.address in sentence  # lost, or dropped a unit
    if "; Dask's log of the run: " in sentence:  # the client's own error, when it came before the run ended
        assert "distributed.client - ERROR" in logged(sentence)
    assert not (folder / "r.toml").exists()


@pytest.mark.slow
def test_a_strategy_that_ends_its_process_on_a_local_cluster_is_named_in_one_sentence(folder: Path) -> None:
    """It ends its host, not a worker."""
    (folder / "exits.py").write_text(
        "import os\n\nfrom strategies import Strategy\n\n\nclass Exits(Strategy):\n    reads_context = True\n\n"
        "    def choose_move(self, view):\n        os._exit(3)\n"
    )
    done = shutbox("-s", "exits.py:Exits", "-s", "greedy-high", "--scheduler", "local", "-n", "100", cwd=folder)
    assert done.returncode == 1
    (sentence,) = stderr_lines(done)
    assert sentence.startswith("shutbox: error: in matchup exits.py:Exits vs greedy-high, game 0 ")
    assert sentence.endswith(": the process of strategy 'exits.py:Exits' ended with status 3.")


@pytest.mark.slow
def test_a_local_cluster_without_cryptography_for_its_tls_is_refused_in_one_sentence(folder: Path) -> None:
    """The local cluster's TLS needs the cryptography package (the dask extra brings it)."""
    missing = folder / "missing"
    (missing / "cryptography").mkdir(parents=True)
    (missing / "cryptography" / "__init__.py").write_text("raise ImportError('no cryptography here')\n")
    done = shutbox("--scheduler", "local", "-n", "10", cwd=folder, env=environment(PYTHONPATH=str(missing)))
    assert (done.returncode, stderr_lines(done)) == (
        2,
        [
            "shutbox: error: a local Dask cluster needs the cryptography package for its TLS; install it with: "
            'pip install ".[dask]" in shutbox\'s checkout'
        ],
    )


@pytest.mark.slow
def test_a_local_cluster_this_process_has_not_the_open_files_for_is_refused_in_one_sentence(folder: Path) -> None:
    """`ulimit -n 16`: distributed's event loop would log tens of thousands of errors while its
    workers fail to start."""
    process = start("--scheduler", "local", "--seed", "1", "-q", cwd=folder, open_files=(16, 16))
    done = finish(process, timeout=60)
    assert done.returncode == 2
    (sentence,) = stderr_lines(done)
    assert sentence.startswith("shutbox: error: a local Dask cluster of ")
    assert "needs about " in sentence and "open files, but this process may open only 16 (ulimit -n)" in sentence


@pytest.mark.slow
def test_a_soft_limit_on_open_files_is_raised_as_far_as_the_run_needs(folder: Path) -> None:
    field = ["-s", "cautious.py:Cautious", "-s", "tips", "--games", "400", "--seed", "4", "-q"]
    alone = shutbox(*field, "-j", "1", "--report", "alone.toml", cwd=folder)
    assert alone.returncode == 0, alone.stderr
    done = finish(start(*field, "--scheduler", "local", "--report", "local.toml", cwd=folder, open_files=(16, 4096)))
    assert (done.returncode, done.stderr) == (0, "Report written to local.toml.\n")
    assert (folder / "local.toml").read_bytes() == (folder / "alone.toml").read_bytes()


EAT_FILES = """
import os
held = [os.open(os.devnull, os.O_RDONLY) for _ in range({count})]
from shutbox_cli.entry import main
main()
"""


@pytest.mark.slow
def test_running_out_of_open_files_while_the_cluster_starts_is_one_sentence(folder: Path) -> None:
    """The limit is high enough, but this process holds most of the files it may open already."""
    eats = [sys.executable, "-c", EAT_FILES.format(count=40), "tournament"]
    process = start("--scheduler", "local", "--seed", "1", "-q", cwd=folder, program=eats, open_files=(64, 64))
    done = finish(process, timeout=60)
    assert done.returncode == 2
    (sentence,) = stderr_lines(done)
    assert sentence.startswith("shutbox: error: ran out of open files while starting a local Dask cluster (ulimit -n)")
    logged(sentence)


@pytest.mark.slow
def test_a_stop_signal_during_a_run_on_a_cluster_is_raised_where_it_is_safe_as_the_signal_it_was() -> None:
    """SIGTERM and SIGHUP, like Ctrl-C, are noted while distributed's code runs, and raised at the
    run's next look by the handler they had (shutbox's, which remembers which signal it was)."""
    from shutbox_cli.face import signals
    from tournaments.backends.dask_events import Events

    saved = {number: signal.getsignal(number) for number in signals.STOPPING}
    try:
        with pytest.MonkeyPatch.context() as patched:
            patched.setattr(signals, "RECEIVED", [])  # no stop received yet, and none left after
            signals.stop_on_signals()
            stopping = signal.getsignal(signal.SIGTERM)
            events = Events()
            with events.noting_stops():
                signal.raise_signal(signal.SIGTERM)  # noted: nothing raised in the middle of anything
                signal.raise_signal(signal.SIGINT)  # a second one changes nothing
                with pytest.raises(KeyboardInterrupt):
                    events.check()
            assert signals.received() == signal.SIGTERM
            assert signal.getsignal(signal.SIGTERM) == stopping  # given back
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)


@pytest.mark.slow
def test_a_tune_on_a_cluster_plays_the_same_trials_to_the_same_answer_as_one_process(
    cluster: Cluster, folder: Path
) -> None:
    """A user's strategy (its file not in the workers' folder), so the candidates play on the cluster."""
    tune = [sys.executable, "-m", "shutbox_cli", "tune", "cautious.py:Cautious", "-p", "margin=4..6:2"]
    rest = ["-s", "optimal", "--method", "simulate", "-n", "600", "--confirm-games", "300", "--seed", "5", "-q"]
    for name, where in {"one": ["-j", "1"], "cluster": ["--scheduler", cluster.address]}.items():
        done = finish(start(*rest, *where, "--report", f"{name}.toml", cwd=folder, program=tune))
        assert done.returncode == 0, done.stderr
        assert done.stderr.endswith(f"Report written to {name}.toml.\n")  # after a note if the best is 4 or 6
    assert (folder / "cluster.toml").read_bytes() == (folder / "one.toml").read_bytes()
    assert b'search = "grid"' in (folder / "one.toml").read_bytes()
    assert cluster.idle()
