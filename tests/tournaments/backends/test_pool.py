"""The worker pool through the library: the units a few worker processes play give the results
this process gives them, each unit once, and a pool of no workers is refused; through the command,
this process plays units too, and its workers are forks of it."""

from __future__ import annotations

import collections
import os
import sys
import threading
from pathlib import Path

import pytest

from tournaments import ConfigError, InProcess, ProcessPool
from tournaments.backends.messages import Done, Failed, send
from tournaments.backends.pool_feeding import Feeding
from tournaments.backends.pool_workers import Worker, reply, start_method
from tournaments.playing.plan import make_plan
from tournaments.playing.units import UnitResult
from tournaments.referee import idle

from helpers.command import real_shutbox
from helpers.field import small_config
from helpers.paths import ROOT


def played(backend: InProcess | ProcessPool, games: int) -> dict[int, UnitResult]:
    plan = make_plan(small_config(games=games, rules={"tiles": 4}), bulk=False)
    results: list[UnitResult] = []
    backend.run(plan, results.append)
    assert len({result.unit for result in results}) == len(results) == plan.unit_count  # each unit once
    return {result.unit: result for result in results}


@pytest.mark.slow
def test_a_pool_plays_each_unit_as_this_process_does() -> None:
    pooled = played(ProcessPool(2), 5000)
    assert len(pooled) == 3 and pooled == played(InProcess(), 5000)


@pytest.mark.slow
def test_workers_holding_many_short_units_ahead_count_each_once_as_this_process_does() -> None:
    """Units far shorter than the time a worker holds ahead: it holds many, and several of its replies
    are heard at once. A field with rounds, a user's context-free strategy (its table from its host)
    and a user's strategy that reads the game (asked in its host, game by game)."""
    users = [f"{ROOT}/examples/cautious.py:Cautious", f"{ROOT}/tests/data/context_reader.py:Reader"]
    config = small_config("optimal", "greedy-high", *users, games=400, rules={"tiles": 6, "rounds": 2})
    results = {}
    for backend in (InProcess(), ProcessPool(2)):
        plan = make_plan(config, bulk_unit_games=6)  # one deal of the three bulk matchups a unit
        found: list[UnitResult] = []
        backend.run(plan, found.append)
        assert len({result.unit for result in found}) == len(found) == plan.unit_count > 200
        results[type(backend)] = {result.unit: result for result in found}
    assert results[ProcessPool] == results[InProcess]


def test_the_unit_a_worker_holds_next_is_timed_from_when_the_one_before_is_heard_done() -> None:
    """A bulk unit of built-in strategies has no time limit; the unit held behind it seats a user's
    strategy: its clock starts once the bulk unit is heard done, and the limit holds for it."""
    reader = f"{ROOT}/tests/data/context_reader.py:Reader"
    try:
        plan = make_plan(small_config("optimal", "greedy-high", reader, games=4, rules={"tiles": 4}))
    finally:
        idle.stop_all()  # the field's probe host
    bulk, asked = list(plan.units())[:2]
    assert bulk.bulk and not asked.bulk
    worker = Worker(None, None, collections.deque([bulk, asked]), started=0.0, timed=False, ready=True)
    results: list[UnitResult] = []
    feeding = Feeding(plan, 2, 0, results.append, None)  # type: ignore[arg-type]  # no unit played here
    feeding.left = 0
    feeding._heard(worker, bulk, Done(UnitResult({}, 0, bulk.number)))
    assert worker.unit == asked and worker.timed and worker.started > 0.0 and len(results) == 1


def test_a_pool_of_no_workers_is_refused() -> None:
    with pytest.raises(ConfigError, match="at least 1 worker"):
        ProcessPool(0)


def test_a_process_running_another_thread_spawns_its_workers_rather_than_fork_them() -> None:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert start_method() == "spawn"
    finally:
        stop.set()
        thread.join()


RECORDER = '''
import os
from strategies import Strategy


def parent(pid):
    with open(f"/proc/{pid}/stat") as stat:
        return int(stat.read().rpartition(")")[2].split()[1])


class Recorder(Strategy):
    """Notes the process that referees it (its host's supervisor's parent) and how that one started."""

    reads_context = True

    def __init__(self, notes=""):
        referee = parent(os.getppid())
        with open(f"/proc/{referee}/cmdline", "rb") as command:
            spawned = b"spawn_main" in command.read()
        with open(notes, "a") as file:
            file.write(f"{referee} {parent(referee)} {spawned}\\n")

    def choose_move(self, view):
        return view.legal_moves[0]
'''


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; workers fork on Linux only")
@pytest.mark.usefixtures("pooled")
def test_at_two_workers_the_command_plays_a_users_strategy_itself_too_beside_one_forked_worker(
    tmp_path: Path,
) -> None:
    (tmp_path / "recorder.py").write_text(RECORDER)
    notes = tmp_path / "notes"
    spec = f"recorder.py:Recorder(notes={str(notes)!r})"
    # Three units of 2,000 games: the worker is sent two, and this process plays the third.
    done = real_shutbox(
        "tournament", "-s", spec, "-s", "greedy-high", "--tiles", "4", "--games", "6000", "--seed", "1", "-j", "2",
        "-o", str(tmp_path / "report.toml"), cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    referees = {tuple(line.split()) for line in notes.read_text().splitlines()}
    assert len({referee for referee, _, _ in referees}) == 2  # the command, and its one worker
    (command,) = {referee for referee, _, _ in referees} & {parent for _, parent, _ in referees}
    assert {(parent, spawned) for referee, parent, spawned in referees if referee != command} == {(command, "False")}


def _say_and_end(connection: object) -> None:
    send(connection, Failed("its own words"))
    os._exit(0)


def test_a_worker_that_said_why_and_ended_is_taken_at_its_word_not_reported_dead() -> None:
    """A worker sends its failure, then exits: seen only once it has exited, its last word still counts."""
    import multiprocess

    context = multiprocess.get_context("fork")
    mine, theirs = context.Pipe()
    process = context.Process(target=_say_and_end, args=(theirs,))
    process.start()
    process.join()
    plan = make_plan(small_config(games=4, rules={"tiles": 4}), bulk=False)
    said = reply(plan, Worker(process, mine, collections.deque(plan.units())), 0)
    assert said == Failed("its own words")
