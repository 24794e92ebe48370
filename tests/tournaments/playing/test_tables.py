"""Exact strategies' tables made once: a user's kept on disk (whole or not at all, sealed with the
user's tables key, never trusted once damaged or forged), keyed so a changed source, parameter or
rule set misses, checked as it is read back; a built-in's built in each run, never read back; all
sent to a pool's workers, which build none; and the estimate that keeps a small run in this process."""

from __future__ import annotations

import hashlib
import shutil
from array import array
from pathlib import Path
from typing import Any

import pytest

from shutbox_cli.game import Rules
from strategies.loading import StrategyLoadError
from strategies.table import THROW_COUNT, PolicyTable
from tournaments import InProcess, Options, ProcessPool, keys, load_config
from tournaments.backends.base import IN_PROCESS_SECONDS, default_backend, estimated_seconds
from tournaments.field.entries import StrategyEntry
from tournaments.folders import cache_folder
from tournaments.playing.plan import make_plan
from tournaments.playing.tables import KEY_FILE, MAGIC, keep_table, read_table, table_key
from tournaments.playing.units import UnitPlayer

from helpers.command import real_shutbox

ATTACKS = Path(__file__).parents[2] / "e2e" / "attacks"
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


def built_in_table(folder: Path | str, monkeypatch: pytest.MonkeyPatch, name: str = "optimal") -> PolicyTable:
    """A built-in's table as a new unit player makes it with the cache in `folder` (`off`: none)."""
    monkeypatch.setenv("SHUTBOX_TABLE_CACHE", str(folder))
    plan = make_plan(load_config(None, Options(strategies=(name, "random"), games=20, seed=1)))
    return UnitPlayer(plan).policy(0)


def lookups(table: PolicyTable | None) -> tuple[bytes, bytes] | None:
    return None if table is None else (table.next_mask.tobytes(), table.dice)


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's state folder (which holds the key folder), one per test."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path / "state"


def test_a_built_in_table_is_built_in_each_run_never_read_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No file anyone wrote decides how a built-in plays: none is kept, none is read."""
    built = lookups(built_in_table("off", monkeypatch))
    assert lookups(built_in_table(tmp_path, monkeypatch)) == built
    assert list(tmp_path.iterdir()) == []


def users_entry() -> StrategyEntry:
    return StrategyEntry(spec="mine.py:Mine", name="mine", params={}, exact=True, sha256="a" * 64)


RULES = Rules()
KEY = table_key(users_entry(), "a" * 64, RULES) or ""


@pytest.mark.usefixtures("state")
def test_a_users_table_is_kept_sealed_and_read_back_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache, table = tmp_path / "cache", built_in_table("off", monkeypatch, "max-shut")
    keep_table(cache, KEY, table)
    assert [file.name for file in kept(cache)] == [f"{KEY}.table"]
    assert lookups(read_table(cache, KEY, users_entry(), RULES)) == lookups(table)
    assert keys.key_path(KEY_FILE).stat().st_mode & 0o777 == 0o600
    assert keys.key_folder().stat().st_mode & 0o777 == 0o700  # its owner's alone, apart from the cache
    assert not keys.key_folder().is_relative_to(cache) and list(cache.iterdir()) == kept(cache)


def resealed_by_anyone(data: bytes) -> bytes:
    """A kept table sealed again with a sha256 of its key and table, which anyone can compute."""
    key, body = data[len(MAGIC) : len(MAGIC) + 64], data[len(MAGIC) + 130 :]
    return data[: len(MAGIC)] + key + b"\n" + hashlib.sha256(key + body).hexdigest().encode() + b"\n" + body


def forged_by_hand(tmp_path: Path, how: str) -> None:
    """The table attack `forge_tables` makes at import, made between runs."""
    namespace: dict[str, Any] = {}
    exec(compile((ATTACKS / "forge_tables.py").read_text(), "forge_tables.py", "exec"), namespace)
    namespace["forge"](tmp_path, how)


@pytest.mark.parametrize(
    "damage",
    [
        "flip a byte of the table",
        "cut short",
        "flip a byte of the seal",
        "empty",
        "another legal table, resealed by anyone",
        "an illegal table, resealed by anyone",
        "another legal table, resealed by anyone (forge_tables)",
        "an illegal table, resealed by anyone (forge_tables)",
        "the key gone",
    ],
)
@pytest.mark.usefixtures("state")
def test_a_damaged_or_forged_table_is_not_trusted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    keep_table(tmp_path, KEY, built_in_table("off", monkeypatch, "max-shut"))
    (file,) = kept(tmp_path)
    data = bytearray(file.read_bytes())
    if damage == "flip a byte of the table":
        data[-100] ^= 0x01
    elif damage == "cut short":
        del data[-7:]
    elif damage == "flip a byte of the seal":
        data[len(MAGIC) + 70] ^= 0x01
    elif damage == "empty":
        data.clear()
    elif damage == "another legal table, resealed by anyone":
        other = tmp_path / "other"
        keep_table(other, KEY, built_in_table("off", monkeypatch, "greedy-high"))
        data[:] = resealed_by_anyone(kept(other)[0].read_bytes())
    elif damage == "an illegal table, resealed by anyone":
        data[:] = resealed_by_anyone(bytes(data[:-1]) + bytes([7]))  # seven dice from the full box
    elif damage.endswith("(forge_tables)"):
        forged_by_hand(tmp_path, "legal" if "legal" in damage else "stuck")
        assert file.read_bytes() != data  # the attack is live: it changed the table
        data[:] = file.read_bytes()
    else:
        keys.key_path(KEY_FILE).unlink()
    file.write_bytes(bytes(data))
    assert read_table(tmp_path, KEY, users_entry(), RULES) is None  # built again, never played


@pytest.mark.parametrize("illegal", ["seven dice", "every turn ended"])
@pytest.mark.usefixtures("state")
def test_an_illegal_table_sealed_with_the_users_key_is_refused_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, illegal: str
) -> None:
    """A strategy that could read the key (its host unconfined) still cannot make an illegal table play."""
    table = built_in_table("off", monkeypatch, "max-shut")
    if illegal == "seven dice":
        forged, said = PolicyTable(RULES, table.next_mask, table.dice[:-1] + bytes([7])), "rolling 7 dice"
    else:  # the turn ends wherever the rules roll: where a move fits too
        after = array("h", (at // THROW_COUNT if box >= 0 else box for at, box in enumerate(table.next_mask)))
        forged, said = PolicyTable(RULES, after, table.dice), "with an illegal move from box"
    keep_table(tmp_path, KEY, forged)
    with pytest.raises(StrategyLoadError, match=rf"strategy 'mine' has a table kept in .* {said}"):
        read_table(tmp_path, KEY, users_entry(), RULES)


@pytest.mark.usefixtures("state")
def test_an_unwritable_cache_folder_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    in_the_way = tmp_path / "a file"
    in_the_way.write_text("not a folder")
    keep_table(in_the_way / "tables", KEY, built_in_table("off", monkeypatch, "max-shut"))
    assert in_the_way.read_text() == "not a folder"
    assert read_table(in_the_way / "tables", KEY, users_entry(), RULES) is None


@pytest.mark.parametrize("value", ["off", "OFF", "0", "no", " "])
def test_the_cache_can_be_turned_off(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("SHUTBOX_TABLE_CACHE", value)
    assert cache_folder() is None
    monkeypatch.setenv("SHUTBOX_TABLE_CACHE", "elsewhere")
    assert cache_folder() == Path("elsewhere")


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


def tournament(
    folder: Path, *args: str, field: tuple[str, ...] = ("-s", "mine.py:Mine", "-s", "random"), **env: str
) -> Any:
    (folder / "log").mkdir(exist_ok=True)  # a folder of the log's own: a host writes in it even where
    # the test's folder holds the keys (SHUTBOX_HOST_WRITABLE gives such a folder apart from them)
    return real_shutbox(
        "tournament", *field, "--seed", "1", *args, cwd=folder,
        env={"SHUTBOX_TABLE_CACHE": str(folder / "cache"), "MINE_LOG": str(folder / "log" / "asked.log"), **env},
    )  # fmt: skip


def askers(folder: Path) -> set[str]:
    """The processes that asked the strategy a question since the last look, and a fresh log."""
    log = folder / "log" / "asked.log"
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
def test_an_illegal_kept_table_sealed_with_the_users_key_is_refused_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "mine.py").write_text(MINE)
    state = {"XDG_STATE_HOME": str(tmp_path / "state")}
    assert tournament(tmp_path, "--games", "20", "-o", "first.toml", **state).returncode == 0
    (file,) = kept(tmp_path / "cache")
    monkeypatch.setenv("XDG_STATE_HOME", state["XDG_STATE_HOME"])  # sealed by one who can read the key
    table = built_in_table("off", monkeypatch, "max-shut")
    keep_table(file.parent, file.stem, PolicyTable(RULES, table.next_mask, table.dice[:-1] + bytes([7])))
    refused = tournament(tmp_path, "--games", "20", "-j", "2", "-o", "second.toml", **state)
    assert refused.returncode == 1
    assert "strategy 'mine' has a table kept in" in refused.stderr
    assert "a table rolling 7 dice where the rules allow" in refused.stderr
    assert "Traceback" not in refused.stderr and not (tmp_path / "second.toml").exists()


@pytest.mark.slow
def test_a_forged_cache_leaves_the_report_the_honest_runs_in_that_run_and_the_next(tmp_path: Path) -> None:
    """A strategy rewrites every kept table at import, in its host (tables that play otherwise, then
    tables that end every turn), or they are rewritten between runs, each sealed again with a digest
    anyone can compute: each run plays the true tables of the built-ins and of another user's strategy.
    This is the check of what is read back, which holds where hosts are not confined: the runs take
    no Landlock (`SHUTBOX_LANDLOCK_ABI=0`), which would keep the strategy out of the cache at once."""
    (tmp_path / "mine.py").write_text(MINE)
    shutil.copy(ATTACKS / "forge_tables.py", tmp_path / "forger.py")
    field = ("-s", "victim=mine.py:Mine", "-s", "optimal", "-s", "max-shut", "-s", "forger.py:Forger")

    def report(name: str, forge: str = "") -> bytes:
        done = tournament(
            tmp_path, *field, "--games", "2000", "-o", name, FORGE_TABLES=forge, SHUTBOX_LANDLOCK_ABI="0", field=()
        )
        assert done.returncode == 0, done.stderr
        return (tmp_path / name).read_bytes()

    honest = report("honest.toml")
    assert len(kept(tmp_path / "cache")) == 2  # the users' strategies' tables; the built-ins' are never kept
    assert report("legal.toml", "legal") == honest
    assert report("next.toml") == honest
    assert report("stuck.toml", "stuck") == honest
    forged_by_hand(tmp_path / "cache", "legal")
    assert report("between.toml") == honest


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
