"""The history's folder is private to shutbox: a strategy's host, confined, can neither read the
history nor write beside it, even where a folder it may write holds it (docs/history.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tournaments.referee.confinement import WRITABLE_SETTING

from helpers.command import environment, real_shutbox
from helpers.confined import LINUX_ONLY, STRATEGY, run_confined

pytestmark = LINUX_ONLY


@pytest.mark.slow  # three confined processes
def test_a_host_cannot_read_or_write_the_history_even_in_a_folder_it_may_write(tmp_path: Path) -> None:
    strategy, scratch, kept, other = (tmp_path / name for name in ("strategy", "scratch", "kept", "other"))
    for folder in (strategy, scratch, kept, other):
        folder.mkdir()
    (strategy / "mine.py").write_text(STRATEGY)
    place = kept / "history.sqlite3"
    place.write_text("the runs")
    env = {**environment(SHUTBOX_HISTORY=str(place)), WRITABLE_SETTING: str(tmp_path)}
    tries = {
        f"open({str(place)!r}).read()": "PermissionError",
        f"open({str(kept / 'history.sqlite3-wal')!r}, 'w')": "PermissionError",
        f"open({str(other / 'note')!r}, 'w').write('x')": "done",  # the rest of the folder it may write
    }
    for code, said in tries.items():
        done = run_confined(f"{strategy / 'mine.py'}:Mine", scratch, code, env, scratch)
        assert (done.returncode, done.stdout.strip()) == (0, said), (code, done.stderr)
    assert place.read_text() == "the runs"


SPY = """from strategies import Strategy


class Spy(Strategy):
    stochastic = True  # asked at each turn of the games, wherever they are played: never tabulated

    def choose_move(self, view):
        with open({place!r}, "rb") as kept:
            raise RuntimeError("read: " + kept.read(15).decode("ascii", "replace"))
"""
TAMPER = """import sqlite3

from strategies import Strategy


class Tamper(Strategy):
    def choose_move(self, view):
        with sqlite3.connect({place!r}) as kept:
            kept.execute("UPDATE entrants SET elo = 9999")
        raise RuntimeError("tampered")
"""


def _kept_history(tmp_path: Path) -> Path:
    """A history with one run recorded in it, in a folder of its own."""
    place = tmp_path / "kept" / "hist.db"
    done = real_shutbox("match", "tips", "random", "-n", "20", "--seed", "1", "--history", str(place))
    assert done.returncode == 0, done.stderr
    return place


@pytest.mark.slow  # real runs, each hosting a strategy
@pytest.mark.parametrize(
    ("given", "env", "played"),
    [
        ("flag", {}, []),
        ("variable", {}, []),
        ("flag", {"SHUTBOX_POOL": "always"}, ["-j", "2"]),  # the strategy's hosts in the pool's workers
        ("flag", {"SHUTBOX_POOL": "idle"}, ["-j", "2"]),
        ("flag", {}, ["--scheduler", "local"]),  # in the workers of a Dask cluster started for the run
    ],
    ids=["flag", "variable", "pool", "pool-idle", "dask-local"],
)
def test_a_strategy_cannot_read_the_history_the_run_records_in(
    tmp_path: Path, given: str, env: dict[str, str], played: list[str]
) -> None:
    place = _kept_history(tmp_path)
    (tmp_path / "spy.py").write_text(SPY.format(place=str(place)))
    named = ["--history", str(place)] if given == "flag" else []
    env = {**env, "SHUTBOX_HISTORY": str(place) if given == "variable" else str(tmp_path / "elsewhere" / "other.db")}
    done = real_shutbox(
        "match", "spy.py:Spy", "tips", "-n", "40", "--seed", "1", *played, *named, env=env, cwd=tmp_path
    )
    assert done.returncode == 1, done.stderr
    assert "PermissionError" in done.stderr and "SQLite format" not in done.stderr, done.stderr


@pytest.mark.slow  # real runs, each hosting a strategy
def test_a_history_named_by_a_link_keeps_its_targets_folder_private(tmp_path: Path) -> None:
    place = _kept_history(tmp_path)
    link = tmp_path / "named" / "hist.db"
    link.parent.mkdir()
    link.symlink_to(place)
    (tmp_path / "spy.py").write_text(SPY.format(place=str(place)))
    env = {"SHUTBOX_HISTORY": str(tmp_path / "elsewhere" / "other.db")}
    done = real_shutbox(
        "match", "spy.py:Spy", "tips", "-n", "20", "--seed", "1", "--history", str(link), env=env, cwd=tmp_path
    )
    assert done.returncode == 1, done.stderr
    assert "PermissionError" in done.stderr and "SQLite format" not in done.stderr, done.stderr


@pytest.mark.slow  # real runs, each hosting a strategy
def test_a_folder_a_host_may_write_never_opens_the_history_the_flag_names(tmp_path: Path) -> None:
    place = _kept_history(tmp_path)
    (tmp_path / "tamper.py").write_text(TAMPER.format(place=str(place)))
    env = {WRITABLE_SETTING: str(tmp_path), "SHUTBOX_HISTORY": str(tmp_path / "elsewhere" / "other.db")}
    done = real_shutbox(
        "match", "tamper.py:Tamper", "tips", "-n", "20", "--seed", "1", "--history", str(place), env=env, cwd=tmp_path
    )
    assert done.returncode == 1, done.stderr
    assert "tampered" not in done.stderr, done.stderr
    listed = real_shutbox("history", "tips", "--history", str(place), "--format", "json")
    assert 9999 not in [seen.get("elo") for seen in json.loads(listed.stdout)["appearance"]], listed.stdout


@pytest.mark.slow  # real runs
def test_a_model_in_the_historys_folder_is_not_read(tmp_path: Path) -> None:
    place = _kept_history(tmp_path)
    model = place.parent / "policy.zip"
    model.write_bytes(b"not a model, and not to be read")
    env = {"SHUTBOX_HISTORY": str(tmp_path / "elsewhere" / "other.db")}
    done = real_shutbox("match", str(model), "tips", "-n", "20", "--seed", "1", "--history", str(place), env=env)
    assert done.returncode in (1, 2), done.stderr
    assert "not a model" not in done.stderr
    assert "ermission" in done.stderr, done.stderr


LISTENER = """import os

from strategies import Strategy


class Listener(Strategy):
    def choose_move(self, view):
        raise RuntimeError("heard: " + os.environ.get("SHUTBOX_HISTORY", "nothing"))
"""


@pytest.mark.slow  # a real run hosting a strategy
def test_a_url_given_to_the_flag_never_reaches_a_strategys_environment(tmp_path: Path) -> None:
    (tmp_path / "listener.py").write_text(LISTENER)
    url = "postgresql://bob:s3cret@127.0.0.1:1/db?password=s3cret"
    env = {"SHUTBOX_HISTORY": str(tmp_path / "elsewhere" / "other.db")}
    done = real_shutbox("match", "listener.py:Listener", "tips", "-n", "20", "--history", url, env=env, cwd=tmp_path)
    assert done.returncode == 1 and "heard: " in done.stderr, done.stderr
    assert "s3cret" not in done.stderr, done.stderr
