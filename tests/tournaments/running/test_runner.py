"""The runner through the library, in this process: one call plans, plays and sums up; a seed is
drawn when none is given and said so; the same seed gives the same summary; a report is written
only when asked, and a checkpoint is gone once the run finishes."""

from __future__ import annotations

import tomllib
from pathlib import Path

import tournaments
from tournaments import InProcess

from helpers.field import small_config


def test_the_same_seed_gives_the_same_summary() -> None:
    config = small_config(rules={"tiles": 4})
    first, second = (tournaments.run(config, backend=InProcess()) for _ in range(2))
    assert first.tallies == second.tallies
    assert [standing.name for standing in first.ranking] == [standing.name for standing in second.ranking]
    assert not first.seed_drawn
    assert sum(tally.games for tally in first.tallies[0]) == 2 * 60  # each of the two seats plays every game


def test_a_seed_is_drawn_when_none_is_given_and_kept_in_the_summary() -> None:
    summary = tournaments.run(small_config(seed=None, rules={"tiles": 4}), backend=InProcess())
    assert summary.seed_drawn
    assert summary.config.seed is not None


def test_a_report_is_written_when_asked_and_no_checkpoint_outlives_the_run(tmp_path: Path) -> None:
    report, checkpoint = tmp_path / "report.toml", tmp_path / "run.checkpoint"
    summary = tournaments.run(
        small_config(rules={"tiles": 4}), backend=InProcess(), report=report, checkpoint=checkpoint
    )
    assert tomllib.loads(report.read_text()) == tournaments.report_table(summary)
    assert not checkpoint.exists()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["report.toml"]
