"""Checkpoints through the library: what a run has finished, kept in a file, reads back as the
same plan and record; a changed byte breaks the seal; a file already there is not overwritten;
and a finished run's checkpoint is removed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tournaments import ConfigError, InProcess, read_checkpoint
from tournaments.playing.plan import Plan, make_plan
from tournaments.playing.units import UnitResult
from tournaments.running import seal
from tournaments.running.checkpoint import Record
from tournaments.running.checkpoint_keeper import Keeper

from helpers.field import small_config


@pytest.fixture(scope="module")
def played() -> tuple[Plan, list[UnitResult]]:
    """A run of several units, played once for this module's tests."""
    plan = make_plan(small_config(games=5000, rules={"tiles": 4}), bulk=False)  # three units
    results: list[UnitResult] = []
    InProcess().run(plan, results.append)
    assert len(results) > 1
    return plan, results


@pytest.fixture
def kept(
    played: tuple[Plan, list[UnitResult]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, Keeper, UnitResult]:
    """A checkpoint written after the first unit."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))  # the seal's key
    plan, results = played
    record = Record.empty(plan)
    record.add(results[0])
    keeper = Keeper(tmp_path / "run.checkpoint", plan, record, seed_drawn=False, seconds=0)
    keeper.tick()
    assert keeper.written
    return keeper.path, keeper, results[0]


def test_a_checkpoint_reads_back_as_the_plan_and_the_record_so_far(kept: tuple[Path, Keeper, UnitResult]) -> None:
    path, keeper, first = kept
    saved = read_checkpoint(path)
    assert saved.plan.config.seed == 7
    assert saved.record.units == {first.unit}
    assert saved.record.games == first.games
    assert saved.record.tallies == keeper.record.tallies
    assert not saved.seed_drawn


def test_a_changed_byte_breaks_the_seal(kept: tuple[Path, Keeper, UnitResult]) -> None:
    path, _, _ = kept
    path.write_bytes(path.read_bytes().replace(b"games = ", b"games =  ", 1))
    with pytest.raises(ConfigError, match="checkpoint"):
        read_checkpoint(path)


def test_a_file_already_there_is_not_taken_and_a_finished_run_removes_its_own(
    kept: tuple[Path, Keeper, UnitResult],
) -> None:
    path, keeper, _ = kept
    with pytest.raises(ConfigError, match="is already there"):
        Keeper(path, read_checkpoint(path).plan, keeper.record, seed_drawn=False)
    keeper.discard()
    assert not path.exists()


@pytest.mark.parametrize("isolate", ["true", "false"])
def test_a_checkpoint_that_recorded_isolate_still_resumes(kept: tuple[Path, Keeper, UnitResult], isolate: str) -> None:
    path, keeper, _ = kept
    text = path.read_text()
    assert "isolate" not in text  # every run isolates a user's strategy: not recorded any more
    text = text.replace("\ntimeout = ", f"\nisolate = {isolate}\ntimeout = ", 1)  # as format 2 recorded it
    body = text[: text.index("\n[seal]\n")].encode()
    path.write_bytes(body + seal.seal_text(seal.own_key(), body))
    saved = read_checkpoint(path)
    assert saved.record.tallies == keeper.record.tallies


def test_a_match_s_looks_read_back_and_looks_that_cannot_be_are_refused(kept: tuple[Path, Keeper, UnitResult]) -> None:
    """The SPRT's path so far (`looks`) is kept with the record; one past the record's games, out of
    order or without an LLR for each look is a damaged checkpoint."""
    path, keeper, first = kept
    keeper.record.looks.append((first.games, 0.125))
    keeper.tick()
    assert read_checkpoint(path).record.looks == [(first.games, 0.125)]
    text = path.read_text()
    for looks in (
        f"games = [{first.games + 1}]\nllr = [0.5]",
        f"games = [{first.games}, {first.games}]\nllr = [0.5, 0.5]",
        f"games = [{first.games}]\nllr = []",
        f'games = [{first.games}]\nllr = ["nan"]',
    ):
        changed = re.sub(r"\[looks\]\n.*?(?=\n\n\[)", f"[looks]\n{looks}", text, flags=re.DOTALL)
        assert changed != text
        body = changed[: changed.index("\n[seal]\n")].encode()
        path.write_bytes(body + seal.seal_text(seal.own_key(), body))
        with pytest.raises(ConfigError, match="its key 'looks' is not the path of a match's SPRT"):
            read_checkpoint(path)
