"""A Dask worker's players (`dask_worker.Players`), here in this process as a worker holds
them: a user's strategy in real hosts, one player per thread, its hosts stopped as the run ends
or once idle, and none started for a run that has ended."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Collection, Iterator
from pathlib import Path

import pytest

from tournaments import Options, load_config
from tournaments.backends import dask_worker
from tournaments.backends.dask_shipment import Shipment, strategy_files
from tournaments.backends.dask_worker import Kept, Players, RunEnded
from tournaments.playing.plan import make_plan
from tournaments.referee import idle
from tournaments.version import shutbox_version

MINE = """
from strategies import Strategy


class Mine(Strategy):
    reads_context = True

    def choose_move(self, view):
        return view.legal_moves[-1]
"""


def hosts(besides: Collection[int] = ()) -> list[int]:
    """This process's children that run a host, alive (a stopped host is reaped as it is stopped),
    but those in `besides`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes()
        except (OSError, IndexError):
            continue
        if int(stat[1]) == os.getpid() and stat[0] != "Z" and b"tournaments.referee.host" in command:
            if int(entry.name) in besides:
                continue
            found.append(int(entry.name))
    return found


def gone(besides: Collection[int], within: float = 10) -> bool:
    deadline = time.monotonic() + within
    while hosts(besides) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not hosts(besides)


@pytest.fixture
def shipment(tmp_path: Path) -> Shipment:
    (tmp_path / "mine.py").write_text(MINE)
    options = Options(strategies=[f"{tmp_path / 'mine.py'}:Mine", "greedy-high"], games=20, seed=1)
    plan = make_plan(load_config(None, options))
    idle.stop_all()  # the field's probe host, kept for a run here; a run on a cluster stops it first
    return Shipment("run", shutbox_version(), plan, strategy_files(plan))


@pytest.fixture
def earlier(shipment: Shipment) -> set[int]:
    """The hosts this process had before the test: another module's, where a test worker (pytest -n)
    ran it first; not the test's to count."""
    return set(hosts())


@pytest.fixture
def players(shipment: Shipment) -> Iterator[Players]:
    """A worker's players; the run ended after the test, whatever happened."""
    kept = Players()
    yield kept
    kept.end(shipment.run)


@pytest.mark.slow
def test_a_run_s_players_are_one_per_thread_and_their_hosts_end_with_the_run(
    shipment: Shipment, players: Players, earlier: set[int], tmp_path: Path
) -> None:
    folder = tmp_path / "worker"
    unit = next(shipment.plan.units())
    kept = players.take(shipment, folder)
    played = kept.player.play(unit)
    players.done(kept)
    assert len(hosts(earlier)) == 1
    assert players.take(shipment, folder) is kept  # the thread's next unit of the run
    players.done(kept)
    elsewhere: list[Kept] = []
    ended = threading.Event()

    def other() -> None:  # a host dies with the thread that started it: this one waits for the end
        elsewhere.append(players.take(shipment, folder))
        ended.wait(60)

    thread = threading.Thread(target=other)
    thread.start()
    try:
        while thread.is_alive() and not elsewhere:
            time.sleep(0.01)
        assert elsewhere[0] is not kept and len(hosts(earlier)) == 2
        assert elsewhere[0].player.play(unit) == played
        players.end(shipment.run)  # one player busy, one not: both stopped
        assert gone(earlier, 0)
    finally:
        ended.set()
        thread.join()
    with pytest.raises(RunEnded):
        players.take(shipment, folder)
    assert hosts(earlier) == []


@pytest.mark.slow
def test_a_player_idle_for_long_has_its_hosts_stopped_and_is_made_again_if_needed(
    shipment: Shipment, players: Players, earlier: set[int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run whose end the worker was never told (its client killed)."""
    monkeypatch.setattr(dask_worker, "IDLE_SECONDS", 0.2)
    folder = tmp_path / "worker"
    unit = next(shipment.plan.units())
    kept = players.take(shipment, folder)
    played = kept.player.play(unit)
    players.done(kept)
    assert gone(earlier)
    again = players.take(shipment, folder)
    assert again is not kept and again.player.play(unit) == played
    players.end(shipment.run)
    assert gone(earlier, 0)
