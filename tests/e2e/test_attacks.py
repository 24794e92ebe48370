"""Issue 20's attacks, each through the real command (`python -m shutbox_cli`): strategies that
tamper with the referee, end or hang their process, leave processes behind, kill another's
process, write to stdout or take all the memory (tests/e2e/attacks/, one small file each).

The bar for a tournament: its report is that of the honest run, where the attacker is replaced by
its honest twin (tests/e2e/attacks/honest.py: the same moves, no harm, copied to `mine.py` as the
attacker is, so the two reports differ only in the file's hash); or the run fails, with a status
above 0 and one sentence naming the attacking strategy. Never exit 0 with changed figures. Every
process a run starts carries a marker in its environment, and none is left once it has ended.
For `analyze`, `check`, `play` and `replay`: a strategy that hangs or ends its process fails the
command within its time limit, named; one that leaves a process behind either changes nothing
the command prints or fails it, named; nothing is left.

Each run gets a deadline far above what it needs (the attacks that hang have a 3-second limit):
a run past it is a failure of its own, and its processes are killed at teardown. `-k` picks an
attack (`-k solver_cache`), a way to run (`-k j2`, `-k cluster`) or a command (`-k check`)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.command import environment, real_shutbox, unconfined
from helpers.processes import READABLE, Mark, marking, wait_for

pytestmark = [
    pytest.mark.slow,  # each test runs the real command, a second or more
    pytest.mark.usefixtures("pooled"),  # -j 2 plays in a pool, however small the run
    pytest.mark.skipif(not READABLE, reason="reads the process table from /proc"),
]

ATTACKS = Path(__file__).parent / "attacks"
DEADLINE = 60
"""Seconds any run here has to end, attack or not: a run past it fails its test."""
LIMIT = ("--timeout", "3")
"""The time limit a run that meets a hanging strategy is given."""
NO_CHECKPOINT = ("--checkpoint-seconds", "86400")
"""No checkpoint within a run: one kept (after 5 s, on a slow machine) adds how to resume to the
messages asserted here (tests/tournaments/running/test_resume.py tests that line)."""
GAMES = ("-n", "200", "--seed", "5")
MODES = {
    "j1": ("-j", "1", *GAMES),
    "j2": ("-j", "2", *GAMES),
    "exact": ("--exact",),
    "dask": ("--scheduler", "local", *GAMES),
}
"""How a tournament runs: one worker, two, computed exactly, on a Dask cluster the run starts on
this machine; or (`cluster`, its own test fixture) on a Dask cluster that outlives the run."""
FIELDS = {
    "trio": ("mine=mine.py:{cls}", "optimal", "greedy-high"),
    "victim": ("mine=mine.py:{cls}", "victim=victim.py:{cls}", "greedy-high"),
}
"""The strategies of a tournament: the attacker (`mine`) with built-ins, or with another user's
strategy (`victim`, an honest one) as well."""
NAMED = re.compile(r"'(mine|mine\.py:(Mine|Reader))'")
"""The attacking strategy, as a message names it."""


def stage(folder: Path, attack: str, mark: Mark) -> Path:
    """A folder with `attack` as `mine.py`, and an honest victim beside it; the processes the attack
    starts record their ids in its `pids/`, which `mark` watches (should their environment lose
    the marker)."""
    (folder / "pids").mkdir(parents=True)
    shutil.copy(ATTACKS / f"{attack}.py", folder / "mine.py")
    shutil.copy(ATTACKS / "honest.py", folder / "victim.py")
    mark.watch(folder / "pids")
    return folder


def run(
    folder: Path, mark: Mark, *args: str, confinement: bool = False, **env: str
) -> subprocess.CompletedProcess[str]:
    """`shutbox ARGS` in the folder, its processes marked (`env` added to their environment); a
    failure if it outlives the deadline. Its stderr keeps the line stating the hosts' confinement
    only if `confinement` asks it."""
    try:
        return real_shutbox(*args, cwd=folder, env={**mark.env, **env}, timeout=DEADLINE, confinement=confinement)
    except subprocess.TimeoutExpired as late:
        pytest.fail(f"`shutbox {' '.join(args)}` did not end within {DEADLINE} s; stderr so far: {late.stderr!r}")


def tournament(
    folder: Path,
    mark: Mark,
    field: str,
    cls: str,
    mode: str,
    *extra: str,
    json_out: bool = False,
    confinement: bool = False,
    **env: str,
) -> subprocess.CompletedProcess[str]:
    """A tournament of the field in the folder, its report to report.toml (or to stdout as JSON);
    `mode` one of MODES, or the address of a Dask scheduler."""
    seats = [option for spec in FIELDS[field] for option in ("-s", spec.format(cls=cls))]
    options = MODES.get(mode, ("--scheduler", mode, *GAMES))
    out = ("--format", "json", "--report", "-") if json_out else ("-q", "-o", "report.toml")
    return run(
        folder, mark, "tournament", *seats, *options, *NO_CHECKPOINT, *out, *extra, confinement=confinement, **env
    )


def figures(report: dict[str, Any]) -> dict[str, Any]:
    """A report without the hashes of the strategies' files (the attacker's file is not its twin's)."""
    for strategy in report["config"]["strategy"]:
        strategy.pop("sha256", None)
    return report


def report_of(folder: Path) -> dict[str, Any]:
    return figures(tomllib.loads((folder / "report.toml").read_text()))


class Honest:
    """The honest runs the attacks are measured against, each run once for the whole module."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.reports: dict[tuple[str, str, str, bool], dict[str, Any]] = {}

    def report(self, field: str, cls: str, mode: str, json_out: bool = False) -> dict[str, Any]:
        key = (field, cls, mode, json_out)
        if key not in self.reports:
            with marking() as mark:
                folder = stage(self.root / "-".join(map(str, key)), "honest", mark)
                done = tournament(folder, mark, field, cls, mode, json_out=json_out)
                assert done.returncode == 0, done.stderr
                assert mark.left() == [], "the honest run left processes behind"
            self.reports[key] = figures(json.loads(done.stdout)) if json_out else report_of(folder)
        return self.reports[key]


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> Honest:
    return Honest(tmp_path_factory.mktemp("honest"))


@pytest.fixture
def mark() -> Iterator[Mark]:
    with marking() as marked:
        yield marked


def named_failure(done: subprocess.CompletedProcess[str], *names: str) -> str:
    """The run failed with a status (not a signal) and one sentence naming a strategy, never a
    traceback: that sentence. `names`: the strategies it may name (the attacker by default)."""
    assert done.returncode > 0, f"status {done.returncode}; stderr: {done.stderr!r}"
    assert "Traceback" not in done.stderr, done.stderr
    said = unconfined(done.stderr)
    first = said.splitlines()[0] if said else ""
    assert first.startswith("shutbox: error: "), done.stderr
    pattern = re.compile("'({})'".format("|".join(map(re.escape, names)))) if names else NAMED
    assert pattern.search(first), f"the sentence names no attacker: {first!r}"
    return first


def honest_or_named(done: subprocess.CompletedProcess[str], folder: Path, expected: dict[str, Any]) -> None:
    """The bar: exit 0 with the honest run's report, or a named failure and no report."""
    if done.returncode == 0:
        assert report_of(folder) == expected, "exit 0 with figures other than the honest run's"
    else:
        named_failure(done)
        assert not (folder / "report.toml").exists()


# The attacks that tamper with the referee: the results, the built-ins, another user's strategy.
TAMPERING = [
    ("solver_cache", "trio", ["j1", "j2", "exact", "cluster"]),
    ("tally_thread", "trio", ["j1", "j2", "cluster"]),
    ("pipe_send", "trio", ["j1", "j2"]),
    ("patch_other", "victim", ["j1", "j2", "exact", "cluster"]),
]
# The attacks that leave processes behind, or keep one alive after its work: a new session
# everywhere a host runs; the other ways of leaving at -j 1 and in one other place each (a host,
# and its supervisor, are the same wherever they run).
LEAVING = [
    ("setsid_child", "trio", ["j1", "j2", "exact", "cluster"]),
    ("fork_at_import", "trio", ["j1", "exact"]),
    ("setpgid_child", "trio", ["j1", "j2"]),
    ("double_fork", "trio", ["j1", "dask"]),
    ("atexit_sleep", "trio", ["j1", "j2"]),
]


def cases(table: list[tuple[str, str, list[str]]]) -> list[Any]:
    return [
        pytest.param(attack, field, mode, id=f"{attack}-{mode}") for attack, field, modes in table for mode in modes
    ]


@pytest.mark.parametrize(("attack", "field", "mode"), cases(TAMPERING + LEAVING))
def test_an_attack_changes_no_figure_or_fails_the_run_named(
    request: pytest.FixtureRequest, honest: Honest, mark: Mark, tmp_path: Path, attack: str, field: str, mode: str
) -> None:
    """On a cluster that outlives the run, the report is that of one process, and once the cluster
    is stopped (each of its processes with its process group) nothing of it is left."""
    folder = stage(tmp_path / "run", attack, mark)
    cluster = request.getfixturevalue("cluster") if mode == "cluster" else None
    done = tournament(folder, mark, field, "Mine", mode if cluster is None else cluster.address)
    honest_or_named(done, folder, honest.report(field, "Mine", "j1" if cluster else mode))
    assert mark.left() == []
    assert cluster is None or cluster.stop() == [], "the cluster left processes behind"


def test_a_host_cannot_run_code_in_the_local_dask_scheduler(honest: Honest, mark: Mark, tmp_path: Path) -> None:
    """Under --scheduler local the scheduler lives in the shutbox process, on 127.0.0.1: the
    attacker finds the ports its ancestors listen on and asks each, as a Dask client, to run
    code there. The cluster's TLS, with credentials made for the run, refuses it: nothing runs
    in the referee, the report is the honest run's (or the run fails named), nothing is left."""
    folder = stage(tmp_path / "run", "dask_scheduler", mark)
    breached = tmp_path / "breached"
    breached.mkdir()
    done = tournament(folder, mark, "trio", "Mine", "dask", SHUTBOX_TEST_BREACHED=str(breached))
    assert list(breached.iterdir()) == [], "a host's code ran in the scheduler's process"
    honest_or_named(done, folder, honest.report("trio", "Mine", "dask"))
    assert mark.left() == []


ENDING = [("exit_at_import", []), ("exit_in_tabulable", []), ("loop_catching", LIMIT), ("loop_c", LIMIT)]


@pytest.mark.parametrize("mode", ["j1", "j2", "exact"])
@pytest.mark.parametrize(("attack", "extra"), ENDING, ids=[attack for attack, _ in ENDING])
def test_a_strategy_that_ends_or_hangs_its_process_fails_the_run_named(
    mark: Mark, tmp_path: Path, attack: str, extra: list[str], mode: str
) -> None:
    """os._exit(0) at import or in tabulable(), a loop at import that catches everything or runs
    in C: a status above 0 within the deadline, never 0 with no report."""
    folder = stage(tmp_path / "run", attack, mark)
    done = tournament(folder, mark, "trio", "Mine", mode, *extra)
    named_failure(done)
    assert not (folder / "report.toml").exists()
    assert mark.left() == []


@pytest.mark.parametrize("mode", ["j1", "j2", "exact"])
def test_a_memory_hog_at_import_fails_named_within_the_memory_limit(mark: Mark, tmp_path: Path, mode: str) -> None:
    """No process that runs the hog's code gets to hold its gibibyte (each leaves a file if it does)."""
    folder = stage(tmp_path / "run", "memory_hog", mark)
    hoarded = folder / "hoarded"
    hoarded.mkdir()
    done = tournament(folder, mark, "trio", "Mine", mode, "--memory-limit", "512", SHUTBOX_TEST_HOARDED=str(hoarded))
    assert "memory" in named_failure(done).lower()
    assert not (folder / "report.toml").exists()
    assert list(hoarded.iterdir()) == [], "a process running the strategy held more than the limit"
    assert mark.left() == []


@pytest.mark.parametrize("mode", ["j1", "j2", "exact"])
def test_a_strategys_prints_never_reach_the_results_stream(
    honest: Honest, mark: Mark, tmp_path: Path, mode: str
) -> None:
    """print() at import and at every decision: stdout is the report, one JSON document, the honest one."""
    folder = stage(tmp_path / "run", "print_out", mark)
    done = tournament(folder, mark, "trio", "Mine", mode, json_out=True)
    assert done.returncode == 0, done.stderr
    assert figures(json.loads(done.stdout)) == honest.report("trio", "Mine", mode, json_out=True)
    assert mark.left() == []


@pytest.mark.parametrize("mode", ["j1", "j2"])
def test_killing_another_strategys_process_never_passes_for_an_honest_run(
    honest: Honest, mark: Mark, tmp_path: Path, mode: str
) -> None:
    """The attacker SIGKILLs every other process of its parent (a rival's host, a worker). What is
    guaranteed: the run ends with the honest report, or fails with one sentence naming a strategy
    of the field, and leaves nothing behind. Not guaranteed: that the sentence names the attacker
    rather than its victim (a process killed from outside looks the same whoever killed it)."""
    folder = stage(tmp_path / "run", "kill_siblings", mark)
    done = tournament(folder, mark, "victim", "Reader", mode)
    if done.returncode == 0:
        assert report_of(folder) == honest.report("victim", "Reader", mode)
    else:
        named_failure(done, "mine", "victim", "greedy-high")
        assert not (folder / "report.toml").exists()
    assert mark.left() == []


# The other commands that run a user's strategy, its spec `mine.py:Mine` (or `mine=` it).
COMMANDS = {
    "analyze": "analyze mine.py:Mine",
    "analyze-simulated": "analyze mine.py:Reader --turns 2000 --seed 1",
    "analyze-against": "analyze mine.py:Mine --against optimal",
    "check": "check mine.py:Mine --samples 5",
    "play": "play --computer mine=mine.py:Mine --computer optimal --seed 1 --delay 0 --no-save",
    "replay": "replay -s mine=mine.py:Mine -s optimal --seed 1 -n 10 -g 0",
}
"""Each with stdin closed: `play` with computer seats only watches them play, then reads no answer.
Where the command plays a built-in, it is `optimal`, the one the solver's cache attack aims at."""


@pytest.fixture(scope="module")
def honest_output(tmp_path_factory: pytest.TempPathFactory) -> dict[str, subprocess.CompletedProcess[str]]:
    """Each command's run with the honest twin, once for the whole module."""
    found = {}
    for command, args in COMMANDS.items():
        with marking() as mark:
            folder = stage(tmp_path_factory.mktemp("honest") / command, "honest", mark)
            found[command] = run(folder, mark, *args.split(), *LIMIT)
            assert mark.left() == []
    return found


def untimed(output: str) -> str:
    """A command's words without the times it measured (`check`'s decision time), which also
    change how its table is padded and wrapped."""
    return " ".join(re.sub(r"\d[\d.,]* ?(µs|ms|s)\b", "(a time)", output).split())


# How each of these commands ends when its strategy hangs or ends its process (a catching loop, a
# C loop, os._exit(0), at import and in a decision) is tests/e2e/test_hosted_commands.py's; here,
# what an attacker gains by a child left behind or by rewriting a built-in: nothing.
@pytest.mark.parametrize("attack", ["fork_at_import", "solver_cache"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_command_prints_what_it_does_for_the_honest_twin_or_fails_named(
    honest_output: dict[str, subprocess.CompletedProcess[str]], mark: Mark, tmp_path: Path, command: str, attack: str
) -> None:
    """A child left asleep for minutes, or `optimal`'s solution rewritten: the command prints what
    it does for the honest twin, or fails named; either way it ends, and leaves nothing behind."""
    done = run(stage(tmp_path / "run", attack, mark), mark, *COMMANDS[command].split(), *LIMIT)
    twin = honest_output[command]
    assert twin.returncode == 0, twin.stderr
    if done.returncode == 0:
        assert (untimed(done.stdout), done.stderr) == (untimed(twin.stdout), twin.stderr)
    else:
        named_failure(done)
    assert mark.left() == []


def test_a_strategy_that_patches_the_checker_fails_the_check_its_honest_twin_fails(mark: Mark, tmp_path: Path) -> None:
    """The attacker plays illegal moves and, in its host, forges every verdict made or sent there
    (the checker's functions, the host's replies): the verdicts are given in the referee, so its
    check prints what its honest twin's does (`patch_check.py` with nothing patched), and fails."""
    source = (ATTACKS / "patch_check.py").read_text()
    honest = source.replace("\nATTACK = True\n", "\nATTACK = False\n")
    assert honest != source
    done = {}
    for who, text in (("twin", honest), ("attacker", source)):
        folder = stage(tmp_path / who, "honest", mark)
        (folder / "mine.py").write_text(text)
        done[who] = run(folder, mark, *COMMANDS["check"].split(), *LIMIT)
    twin, attacker = done["twin"], done["attacker"]
    assert twin.returncode == 1 and twin.stdout.rstrip().endswith("1 of 6 checks fail."), twin.stdout
    assert (attacker.returncode, untimed(attacker.stdout), attacker.stderr) == (1, untimed(twin.stdout), twin.stderr)
    assert mark.left() == []


class Cluster:
    """A Dask scheduler and one worker on 127.0.0.1, started by Dask's own programs, each in a
    session of its own and all carrying a marker of their own (as tests/tournaments/backends/
    test_dask.py starts them): one worker, so that a second run plays where the first did."""

    def __init__(self, folder: Path, mark: Mark) -> None:
        self.folder, self.mark = folder, mark
        self.processes: list[subprocess.Popen[bytes]] = []
        where = folder / "scheduler.json"
        ports = ("--port", "0", "--no-dashboard", "--dashboard-address", "127.0.0.1:0")
        self._start("scheduler", "--host", "127.0.0.1", *ports, "--scheduler-file", str(where))
        assert wait_for(lambda: where.exists() and where.read_text()), "the scheduler did not start"
        self.address: str = json.loads(where.read_text())["address"]
        options = ("--nworkers", "1", "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard")
        self._start("worker", self.address, *options, "--local-directory", str(folder / "scratch"))
        from distributed import Client

        with Client(self.address, timeout=30, set_as_default=False) as client:
            client.wait_for_workers(1, timeout=60)

    def _start(self, *arguments: str) -> None:
        with (self.folder / f"{arguments[0]}.log").open("w") as log:
            self.processes.append(
                subprocess.Popen(
                    [sys.executable, "-m", "dask", *arguments],
                    cwd=self.folder,  # not the run's folder: a file strategy must travel
                    env=environment(**self.mark.env),
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )

    def stop(self) -> list[int]:
        """Stop the worker, then the scheduler, each with its whole process group: what is left."""
        for process in reversed(self.processes):
            for sent in (signal.SIGTERM, signal.SIGKILL):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, sent)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=30)
                    break
        return self.mark.left()


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    with marking() as mark:
        (tmp_path / "cluster").mkdir()
        running = Cluster(tmp_path / "cluster", mark)
        try:
            yield running
        finally:
            running.stop()


def test_a_dask_worker_carries_no_strategy_into_the_next_run(
    honest: Honest, mark: Mark, tmp_path: Path, cluster: Cluster
) -> None:
    """The attacker's thread, once its run is over, keeps rewriting the solution `optimal` plays
    by, wherever it was imported: a later run of honest strategies on the same worker must report
    what one process reports."""
    on_cluster = ("--scheduler", cluster.address, "-n", "200", "--seed", "5", *NO_CHECKPOINT, "-q", "-o", "report.toml")
    seats = ("-s", "mine=mine.py:Mine", "-s", "optimal", "-s", "greedy-high")
    expected = honest.report("trio", "Mine", "j1")  # a cluster reports byte for byte as one process
    first = stage(tmp_path / "first", "dask_poison", mark)
    honest_or_named(run(first, mark, "tournament", *seats, *on_cluster), first, expected)
    time.sleep(4)  # the attacker's thread waits two seconds before it strikes: past them, with room
    second = stage(tmp_path / "second", "honest", mark)
    done = run(second, mark, "tournament", *seats, *on_cluster)
    assert done.returncode == 0, done.stderr
    assert report_of(second) == expected, "a run on the cluster played otherwise than one process"
    assert mark.left() == []
    assert cluster.stop() == [], "the cluster left processes behind"


# A strategy's host is confined by the operating system (docs/trust.md): what it reaches outside.
CONFINED = ["read_home", "tcp_connect", "stop_referee"]


@pytest.mark.parametrize("mode", ["j1", "j2", "dask"])
@pytest.mark.parametrize("attack", CONFINED)
def test_a_confined_strategy_reaches_nothing_outside_its_host(
    honest: Honest, mark: Mark, tmp_path: Path, attack: str, mode: str
) -> None:
    """A secret in $HOME and the table cache unread, no file written in $HOME, no connection to a
    real listener on 127.0.0.1, the referee and the supervisor neither stopped nor traced: the
    honest run's report (or a named failure), within the deadline, nothing left."""
    home = tmp_path / "home"
    (home / ".cache" / "shutbox").mkdir(parents=True)
    (home / "secret").write_text("the key")
    folder = stage(tmp_path / "run", attack, mark)
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = str(listener.getsockname()[1])
        env = {"HOME": str(home), "SHUTBOX_TEST_PORT": port, "SHUTBOX_HOST_WRITABLE": ""}
        done = tournament(folder, mark, "trio", "Reader", mode, **env)
        listener.setblocking(False)
        with pytest.raises(BlockingIOError):  # no connection came, nor waits to be taken
            listener.accept()
    honest_or_named(done, folder, honest.report("trio", "Reader", mode))
    assert not (home / "planted").exists()
    assert mark.left() == []


def test_a_run_states_its_confinement_and_a_strict_run_refuses_less_than_full(mark: Mark, tmp_path: Path) -> None:
    """One line on stderr and a field of the report; a kernel without Landlock's newer rules
    (SHUTBOX_LANDLOCK_ABI) is said, and SHUTBOX_CONFINEMENT=strict then refuses in one sentence."""
    folder = stage(tmp_path / "run", "honest", mark)
    full = tournament(folder, mark, "trio", "Mine", "j1", confinement=True)
    assert full.returncode == 0, full.stderr
    assert full.stderr.splitlines()[0] == "shutbox: strategies' processes confined: full."
    assert tomllib.loads((folder / "report.toml").read_text())["confinement"] == "full"
    partial = tournament(folder, mark, "trio", "Mine", "j2", confinement=True, SHUTBOX_LANDLOCK_ABI="3")
    said = "partial (Landlock ABI 3: no network rules, no signal or abstract socket scoping)"
    assert partial.stderr.count("confined") == 1 and f"confined: {said}." in partial.stderr
    assert tomllib.loads((folder / "report.toml").read_text())["confinement"] == said
    (folder / "report.toml").unlink()
    refused = tournament(
        folder, mark, "trio", "Mine", "j1", confinement=True, SHUTBOX_LANDLOCK_ABI="0", SHUTBOX_CONFINEMENT="strict"
    )
    assert refused.returncode == 2
    assert refused.stderr.splitlines() == [
        "shutbox: error: --strategy 'mine=mine.py:Mine': strategy 'mine.py:Mine' would run with confinement "
        "none (no Landlock on this kernel), and SHUTBOX_CONFINEMENT=strict demands full confinement."
    ]
    assert not (folder / "report.toml").exists()
    assert mark.left() == []


# Red team (s31): what a confined host still reaches, each through the real command.


@pytest.mark.parametrize("mode", ["j1", "j2"])
def test_a_module_strategy_cannot_have_its_table_kept_as_another_files(mark: Mark, tmp_path: Path, mode: str) -> None:
    """`claim_digest` is loaded by its module (`mine:Mine`), whose digest the referee takes from
    its host's word: it says the digest of `victim.py` beside it. Its table (legal, its own play)
    must not be kept, nor read back, as the victim's: the run reports what it does with its honest
    twin (the same play, its own digest), and so does a later run of the victim alone on the same
    cache of tables; or the run fails naming the attacker."""
    source = (ATTACKS / "claim_digest.py").read_text()
    twin_source = source.replace("\nATTACK = True\n", "\nATTACK = False\n")
    assert twin_source != source
    seats = ("-s", "mine=mine:Mine", "-s", "victim=victim.py:Mine", "-s", "greedy-high")
    later = ("-s", "victim=victim.py:Mine", "-s", "greedy-high")
    options = (*MODES[mode], *NO_CHECKPOINT, "-q", "-o", "report.toml")
    done, reports, afterwards = {}, {}, {}
    for who, text in (("twin", twin_source), ("attacker", source)):
        folder = stage(tmp_path / who, "honest", mark)
        (folder / "mine.py").write_text(text)
        env = {"SHUTBOX_TABLE_CACHE": str(tmp_path / who / "cache"), "SHUTBOX_HOST_WRITABLE": ""}
        done[who] = run(folder, mark, "tournament", *seats, *options, **env)
        reports[who] = report_of(folder) if done[who].returncode == 0 else None
        (folder / "report.toml").unlink(missing_ok=True)
        again = run(folder, mark, "tournament", *later, *options, **env)
        assert again.returncode == 0, again.stderr
        afterwards[who] = report_of(folder)
    assert done["twin"].returncode == 0, done["twin"].stderr
    if done["attacker"].returncode == 0:
        assert reports["attacker"] == reports["twin"], "exit 0 with the victim playing the attacker's table"
    else:
        named_failure(done["attacker"])
    assert afterwards["attacker"] == afterwards["twin"], "a later run played the victim by the attacker's table"
    assert mark.left() == []


@pytest.mark.parametrize("mode", ["j1", "j2", "dask"])
def test_a_host_cannot_lift_its_supervisors_limits_to_leave_a_process_behind(
    honest: Honest, mark: Mark, tmp_path: Path, mode: str
) -> None:
    """`prlimit_escape` sets its supervisor's limit of open files to none (prlimit64 on another
    process), then daemonizes a grandchild: the supervisor, blind to its descendants, must still
    end it. The honest report (or a named failure), and nothing left."""
    folder = stage(tmp_path / "run", "prlimit_escape", mark)
    done = tournament(folder, mark, "trio", "Mine", mode)
    honest_or_named(done, folder, honest.report("trio", "Mine", mode))
    assert mark.left() == [], "a strategy's process outlived the run"


@pytest.mark.parametrize("mode", ["j1", "j2"])
def test_a_confined_strategy_sends_nothing_to_a_named_unix_socket(
    honest: Honest, mark: Mark, tmp_path: Path, mode: str
) -> None:
    """A named Unix datagram socket of the user's (a logger's, a desktop service's): a host that
    makes a datagram socket pair and sends from it to the socket's path reaches nothing."""
    import tempfile

    folder = stage(tmp_path / "run", "unix_datagram", mark)
    with tempfile.TemporaryDirectory(prefix="s31-") as short:  # a socket's path is at most 107 bytes
        path = str(Path(short) / "listening")
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
            listener.bind(path)
            done = tournament(folder, mark, "trio", "Reader", mode, SHUTBOX_TEST_SOCKET=path, SHUTBOX_HOST_WRITABLE="")
            listener.setblocking(False)
            with pytest.raises(BlockingIOError):  # no datagram came
                print(listener.recv(100))
    honest_or_named(done, folder, honest.report("trio", "Reader", mode))
    assert mark.left() == []


@pytest.mark.parametrize("mode", ["j1", "j2"])
def test_a_confined_strategy_neither_reads_nor_writes_the_users_shared_memory(
    honest: Honest, mark: Mark, tmp_path: Path, mode: str
) -> None:
    """A System V shared memory segment of the user's (another program's, made with its owner's
    rights alone): a host reaches neither its contents nor writes over them. The honest report (or
    a named failure), the segment as it was, nothing left."""
    import ctypes
    import secrets

    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    key = secrets.randbelow(1 << 30) + 1
    shmid = libc.shmget(key, 4096, 0o1000 | 0o600)  # IPC_CREAT, the owner's alone
    assert shmid >= 0, ctypes.get_errno()
    try:
        address = libc.shmat(shmid, None, 0)
        ctypes.memmove(address, b"the user's data\0", 16)
        folder = stage(tmp_path / "run", "sysv_shm", mark)
        done = tournament(folder, mark, "trio", "Reader", mode, SHUTBOX_TEST_SHM_KEY=str(key), SHUTBOX_HOST_WRITABLE="")
        assert ctypes.string_at(address, 16) == b"the user's data\0", "a host wrote over the user's shared memory"
        libc.shmdt(ctypes.c_void_p(address))
    finally:
        libc.shmctl(shmid, 0, None)  # IPC_RMID
    honest_or_named(done, folder, honest.report("trio", "Reader", mode))
    assert mark.left() == []


@pytest.mark.parametrize("mode", ["j1", "j2"])
def test_a_strategy_in_the_home_folder_reads_no_key_through_a_link_named_like_a_module(
    honest: Honest, mark: Mark, tmp_path: Path, mode: str
) -> None:
    """`~/mine.py` beside links shipped with it (`~/notes.py` to the tables key, `~/diary.py` to a
    file of the user's): the home folder is given only in part, and never its private folders nor
    the user's other files, however a link is named. The honest report (or a named failure)."""
    home = stage(tmp_path / "home", "home_symlink", mark)
    keys = home / ".local" / "state" / "shutbox" / "keys"
    keys.mkdir(parents=True, mode=0o700)
    (keys / "tables.key").write_text("ab" * 32 + "\n")
    (keys / "tables.key").chmod(0o600)
    (home / "secret").write_text("the user's secret")
    (home / "notes.py").symlink_to(Path(".local/state/shutbox/keys/tables.key"))
    (home / "diary.py").symlink_to(Path("secret"))
    env = {
        "HOME": str(home),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "SHUTBOX_TABLE_CACHE": str(home / ".cache" / "shutbox" / "tables"),
        "SHUTBOX_HOST_WRITABLE": "",
    }
    done = tournament(home, mark, "trio", "Reader", mode, **env)
    honest_or_named(done, home, honest.report("trio", "Reader", mode))
    assert mark.left() == []


def test_a_strategy_cannot_make_a_rivals_process_fail_for_it(mark: Mark, tmp_path: Path) -> None:
    """`prlimit_rival` sets the address space limit of its rivals' hosts to nothing (prlimit64 on
    another process of the user's): the run must not fail naming the honest victim. The honest
    report, or a failure naming the attacker."""
    folder = stage(tmp_path / "run", "prlimit_rival", mark)
    done = tournament(folder, mark, "victim", "Reader", "j1", SHUTBOX_HOST_WRITABLE="")
    if done.returncode == 0:
        twin = stage(tmp_path / "twin", "honest", mark)
        assert tournament(twin, mark, "victim", "Reader", "j1").returncode == 0
        assert report_of(folder) == report_of(twin)
    else:
        named_failure(done)  # the attacker, never 'victim'
    assert mark.left() == []


def test_a_host_cannot_hang_whoever_reads_the_runs_output(honest: Honest, mark: Mark, tmp_path: Path) -> None:
    """`prlimit_escape` holding the run's stderr in the grandchild its supervisor cannot see: the
    run, read to the end of its output as a pipe or CI reads it, must end within the deadline."""
    folder = stage(tmp_path / "run", "prlimit_escape", mark)
    done = tournament(folder, mark, "trio", "Mine", "j1", SHUTBOX_TEST_HOLD="1")
    honest_or_named(done, folder, honest.report("trio", "Mine", "j1"))
    assert mark.left() == []


def test_a_writable_folder_that_holds_the_keys_gives_a_host_neither_keys_nor_cache(
    honest: Honest, mark: Mark, tmp_path: Path
) -> None:
    """SHUTBOX_HOST_WRITABLE names the home folder (for a strategy that keeps files of its own): like
    a readable one, it must not give the private folders it holds (docs/trust.md: never given whole).
    The tables key unread, nothing written in the key folder or the cache; the honest report."""
    home = tmp_path / "home"
    keys = home / ".local" / "state" / "shutbox" / "keys"
    cache = home / ".cache" / "shutbox" / "tables"
    keys.mkdir(parents=True, mode=0o700)
    cache.mkdir(parents=True)
    (keys / "tables.key").write_text("ab" * 32 + "\n")
    (keys / "tables.key").chmod(0o600)
    folder = stage(tmp_path / "run", "writable_private", mark)
    env = {
        "HOME": str(home),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "SHUTBOX_TABLE_CACHE": str(cache),
        "SHUTBOX_HOST_WRITABLE": str(home),
    }
    done = tournament(folder, mark, "trio", "Reader", "j1", **env)
    assert not (keys / "planted").exists() and not (cache / "planted").exists(), "a host wrote in a private folder"
    honest_or_named(done, folder, honest.report("trio", "Reader", "j1"))
    assert mark.left() == []


def test_a_host_cannot_have_the_kernel_kill_its_referee(mark: Mark, tmp_path: Path) -> None:
    """`prlimit_referee` sets its referee's processor time limit to a second: the kernel would send
    the referee SIGXCPU (and SIGKILL), which Landlock's scoping forbids the host to send itself. A
    run long enough for the referee to use that second ends with its report, or fails named; never
    killed by a signal."""
    folder = stage(tmp_path / "run", "prlimit_referee", mark)
    seats = ("-s", "mine=mine.py:Reader", "-s", "optimal", "-s", "greedy-high")
    done = run(
        folder,
        mark,
        "tournament",
        *seats,
        "-j",
        "1",
        "-n",
        "300000",
        "--seed",
        "5",
        *NO_CHECKPOINT,
        "-q",
        "-o",
        "report.toml",
    )
    assert done.returncode >= 0, f"the referee was killed by signal {-done.returncode}"
    if done.returncode > 0:
        named_failure(done)
    assert mark.left() == []


def test_a_host_types_nothing_into_the_users_terminal(mark: Mark, tmp_path: Path) -> None:
    """shutbox run in a terminal (its controlling terminal, its stdin and stderr), as from a shell:
    `tiocsti` queues a command line on the terminal's input with TIOCSTI (where the kernel allows
    it: dev.tty.legacy_tiocsti). Nothing may wait there for the shell once the run ends."""
    import fcntl
    import pty
    import termios

    legacy = Path("/proc/sys/dev/tty/legacy_tiocsti")
    if legacy.exists() and legacy.read_text().strip() == "0":
        pytest.skip("this kernel refuses TIOCSTI to everyone")
    folder = stage(tmp_path / "run", "tiocsti", mark)
    master, slave = pty.openpty()

    def in_the_terminal() -> None:
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

    seats = ("-s", "mine=mine.py:Mine", "-s", "optimal", "-s", "greedy-high")
    try:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "shutbox_cli",
                "tournament",
                *seats,
                *MODES["j1"],
                *NO_CHECKPOINT,
                "-q",
                "-o",
                "report.toml",
            ],
            cwd=folder,
            stdin=slave,
            stdout=subprocess.PIPE,
            stderr=slave,
            env=environment(**mark.env, SHUTBOX_HOST_WRITABLE=""),
            preexec_fn=in_the_terminal,
            timeout=DEADLINE,
        )
        os.set_blocking(slave, False)
        typed = b""
        with contextlib.suppress(BlockingIOError):
            typed = os.read(slave, 4096)
    finally:
        os.close(slave)
        os.close(master)
    assert typed == b"", f"a host typed {typed!r} for the user's shell to run"
    assert done.returncode in (0, 1, 2)
    assert mark.left() == []


def test_a_host_cannot_rewrite_the_runs_output_file_after_it_ends(honest: Honest, mark: Mark, tmp_path: Path) -> None:
    """`shutbox tournament --format json --report - > results.json 2>&1`: the report in the file,
    once the run and every process it started have ended, is the one the run wrote (the honest
    run's figures), not one `prlimit_rewrite`'s escaped grandchild wrote over it."""
    folder = stage(tmp_path / "run", "prlimit_rewrite", mark)
    seats = ("-s", "mine=mine.py:Mine", "-s", "optimal", "-s", "greedy-high")
    results = folder / "results.json"
    with results.open("wb") as out:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "shutbox_cli",
                "tournament",
                *seats,
                *MODES["j1"],
                *NO_CHECKPOINT,
                "--format",
                "json",
                "--report",
                "-",
            ],
            cwd=folder,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=environment(**mark.env),
            timeout=DEADLINE,
        )
    written = results.read_bytes()
    left = mark.left()
    assert done.returncode == 0, written
    assert results.read_bytes() == written, f"the output was rewritten after the run: {results.read_bytes()[:80]!r}"
    assert left == []


@pytest.mark.parametrize("mode", ["j1", "j2"])
def test_no_module_beside_a_strategy_runs_in_its_host_before_it_is_confined(
    honest: Honest, mark: Mark, tmp_path: Path, mode: str
) -> None:
    """`platformdirs.py` shipped beside an honest strategy, in the folder the run starts in (on the
    referee's import path, as `python -m shutbox_cli` or PYTHONPATH=. puts it): the host imports
    nothing from there before it is confined. Nothing written in $HOME; the honest report."""
    home = tmp_path / "home"
    home.mkdir()
    folder = stage(tmp_path / "run", "honest", mark)
    shutil.copy(ATTACKS / "shadow_platformdirs.py", folder / "platformdirs.py")
    done = tournament(folder, mark, "trio", "Reader", mode, HOME=str(home), SHUTBOX_HOST_WRITABLE="")
    assert not (home / "planted").exists(), (home / "planted").read_text()
    honest_or_named(done, folder, honest.report("trio", "Reader", mode))
    assert mark.left() == []
