"""Exact strategies' tables made once: kept on disk (whole or not at all, never trusted once
damaged), keyed so a changed source, parameter or rule set misses, a user's table checked as it
is read back, and sent to a pool's workers, which build none; and the estimate that keeps a
small run in this process."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from shutbox_cli.game import Rules
from tournaments import InProcess, Options, ProcessPool, load_config
from tournaments.backends.base import IN_PROCESS_SECONDS, default_backend, estimated_seconds
from tournaments.field.entries import StrategyEntry
from tournaments.playing.plan import make_plan
from tournaments.playing.tables import MAGIC, table_key
from tournaments.playing.units import UnitPlayer

from helpers.command import real_shutbox

MINE = """\
import os

from strategies import Strategy


class Mine(Strategy):
    name = "mine"

    def __init__(self, margin: int = 6) -> None:
        self.margin = margin

    def choose_move(self, view):
        with open(os.environ["MINE_LOG"], "a") as log:  # a question asked: the table is being built
            log.write(f"{os.getpid()}\\n")
        return max(view.legal_moves)

    def choose_dice(self, view):
        return 1 if view.open_sum <= self.margin else 2
"""


def kept(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.table"))


def optimal_table(folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[bytes, bytes]:
    """optimal's table as a new unit player makes it with the cache in `folder`."""
    monkeypatch.setenv("SHUTBOX_TABLE_CACHE", str(folder))
    plan = make_plan(load_config(None, Options(strategies=("optimal", "random"), games=20, seed=1)))
    table = UnitPlayer(plan).policy(0)
    return table.next_mask.tobytes(), table.dice


def test_a_table_is_kept_and_read_back_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built = optimal_table(tmp_path, monkeypatch)
    (file,) = kept(tmp_path)
    assert optimal_table(tmp_path, monkeypatch) == built
    assert kept(tmp_path) == [file]


@pytest.mark.parametrize("damage", ["flip a byte of the table", "cut short", "flip a byte of the digest", "empty"])
def test_a_damaged_or_edited_table_is_built_again_never_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    built = optimal_table(tmp_path, monkeypatch)
    (file,) = kept(tmp_path)
    whole = file.read_bytes()
    data = bytearray(whole)
    if damage == "flip a byte of the table":
        data[-100] ^= 0x01
    elif damage == "cut short":
        del data[-7:]
    elif damage == "flip a byte of the digest":
        data[len(MAGIC) + 70] ^= 0x01
    else:
        data.clear()
    file.write_bytes(bytes(data))
    assert optimal_table(tmp_path, monkeypatch) == built
    assert file.read_bytes() == whole  # built again, and kept again


def test_an_unwritable_cache_folder_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    in_the_way = tmp_path / "a file"
    in_the_way.write_text("not a folder")
    built = optimal_table(tmp_path / "elsewhere", monkeypatch)
    assert optimal_table(in_the_way / "tables", monkeypatch) == built
    assert in_the_way.read_text() == "not a folder"


def test_the_cache_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    optimal_table(Path("off"), monkeypatch)
    assert not list(tmp_path.rglob("*.table"))


def entry(**given: Any) -> StrategyEntry:
    return StrategyEntry(**{"spec": "mine.py:Mine", "name": "mine", "params": {}, "exact": True, **given})


def test_a_changed_source_parameter_or_rule_set_is_another_key() -> None:
    source, rules = "a" * 64, Rules()
    key = table_key(entry(), source, rules)
    assert key == table_key(entry(name="renamed", spec="elsewhere/mine.py:Mine"), source, rules)
    others = [
        table_key(entry(), "b" * 64, rules),
        table_key(entry(params={"margin": 4}), source, rules),
        table_key(entry(spec="mine.py:Other"), source, rules),
        table_key(entry(), source, Rules(tiles=10)),
        table_key(entry(), source, Rules(one_die="off")),  # type: ignore[arg-type]
    ]
    assert key is not None and key not in others and len(set(others)) == len(others)
    assert table_key(entry(), None, rules) is None  # no source to read: never kept


def tournament(folder: Path, *args: str) -> Any:
    return real_shutbox(
        "tournament", "-s", "mine.py:Mine", "-s", "random", "--seed", "1", *args, cwd=folder,
        env={"SHUTBOX_TABLE_CACHE": str(folder / "cache"), "MINE_LOG": str(folder / "asked.log")},
    )  # fmt: skip


def askers(folder: Path) -> set[str]:
    """The processes that asked the strategy a question since the last look, and a fresh log."""
    log = folder / "asked.log"
    found = set(log.read_text().split()) if log.exists() else set()
    log.unlink(missing_ok=True)
    return found


@pytest.mark.slow
@pytest.mark.usefixtures("pooled")
def test_a_pool_of_workers_builds_no_table_and_a_kept_one_is_not_built_again(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(MINE)
    cold = tournament(tmp_path, "--games", "40000", "-j", "2", "-o", "cold.toml")
    assert cold.returncode == 0, cold.stderr
    assert len(askers(tmp_path)) == 1  # built once, in the main process's host, for both workers
    assert len(kept(tmp_path / "cache")) == 1
    warm = tournament(tmp_path, "--games", "40000", "-j", "2", "-o", "warm.toml")
    assert warm.returncode == 0, warm.stderr
    assert askers(tmp_path) == set()
    assert (tmp_path / "warm.toml").read_text() == (tmp_path / "cold.toml").read_text()
    (tmp_path / "mine.py").write_text(MINE.replace("self.margin = margin", "self.margin = margin + 1"))
    edited = tournament(tmp_path, "--games", "20", "-j", "1", "-o", "edited.toml")
    assert edited.returncode == 0, edited.stderr
    assert len(askers(tmp_path)) == 1 and len(kept(tmp_path / "cache")) == 2  # its source changed: built again


@pytest.mark.slow
@pytest.mark.usefixtures("pooled")  # refused where the run reads it, in a pool too
def test_a_users_kept_table_with_an_illegal_move_is_refused_naming_it(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(MINE)
    assert tournament(tmp_path, "--games", "20", "-o", "first.toml").returncode == 0
    (file,) = kept(tmp_path / "cache")
    data = file.read_bytes()
    key, head = data[len(MAGIC) : len(MAGIC) + 64], len(MAGIC) + 130
    body = data[head:-1] + bytes([7])  # seven dice from the full box
    digest = hashlib.sha256(key + body).hexdigest().encode()  # an edit that passes the digest
    file.write_bytes(MAGIC + key + b"\n" + digest + b"\n" + body)
    refused = tournament(tmp_path, "--games", "20", "-o", "second.toml")
    assert refused.returncode == 1
    assert "strategy 'mine' has a table kept in" in refused.stderr
    assert "a table rolling 7 dice where the rules allow" in refused.stderr
    assert "Traceback" not in refused.stderr and not (tmp_path / "second.toml").exists()


# --- the in-process estimate -----------------------------------------------------------------------


def plan_of(games: int, **rules: Any) -> Any:
    field = ("optimal", "max-shut", "greedy-high")
    return make_plan(load_config(None, Options(strategies=field, games=games, seed=1, rules=rules)))


def test_a_small_plan_of_built_in_strategies_stays_in_this_process() -> None:
    small = plan_of(20_000)
    assert estimated_seconds(small) < IN_PROCESS_SECONDS
    assert default_backend(2, small, idle=lambda: 2.0) == InProcess()
    assert default_backend(2, plan_of(1_000_000), idle=lambda: 2.0) == ProcessPool(2)


def test_a_plan_finding_no_core_idle_stays_in_this_process() -> None:
    chosen = default_backend(2, plan_of(1_000_000), idle=lambda: 0.4)
    assert isinstance(chosen, InProcess) and chosen.busy is not None  # and it says why


def test_the_estimate_counts_rounds_drop_out_table_size_and_seats() -> None:
    one = estimated_seconds(plan_of(400_000))
    assert estimated_seconds(plan_of(400_000, rounds=5)) > 3 * one
    assert estimated_seconds(plan_of(400_000, drop_out=100)) > 5 * one
    assert estimated_seconds(plan_of(400_000, tiles=12)) > one + 1  # three tables of 4,096 boxes
    field = ("optimal", "max-shut", "greedy-high", "fewest-tiles")
    two, four = (  # one matchup each: four seats play twice the turns of two
        make_plan(load_config(None, Options(strategies=field[:table], games=400_000, seed=1, table=table)))
        for table in (2, 4)
    )
    assert estimated_seconds(four) > 1.5 * estimated_seconds(two)


@pytest.mark.slow
@pytest.mark.usefixtures("pooled")
def test_a_table_that_fails_to_build_fails_the_run_alike_at_every_j(tmp_path: Path) -> None:
    """At -j 2 the main process builds it, for the workers: the failure names the unit that needed it."""
    (tmp_path / "mine.py").write_text(MINE.replace("return max(view.legal_moves)", 'raise ValueError("no table")'))
    one, two = (tournament(tmp_path, "--games", "40000", "-j", workers) for workers in ("1", "2"))
    assert one.returncode == two.returncode == 1
    assert one.stderr == two.stderr
    assert one.stderr.startswith("shutbox: error: in matchup") and "strategy 'mine'" in one.stderr
    assert "no table" in one.stderr
