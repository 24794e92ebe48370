"""The worker pool through the library: the units a few worker processes play give the results
this process gives them, each unit once, and a pool of no workers is refused."""

from __future__ import annotations

import pytest

from tournaments import ConfigError, InProcess, ProcessPool
from tournaments.playing.plan import make_plan
from tournaments.playing.units import UnitResult

from helpers.field import small_config


def played(backend: InProcess | ProcessPool, games: int) -> dict[int, UnitResult]:
    plan = make_plan(small_config(games=games, rules={"tiles": 4}), bulk=False)
    results: list[UnitResult] = []
    backend.run(plan, results.append)
    assert len({result.unit for result in results}) == len(results) == plan.unit_count  # each unit once
    return {result.unit: result for result in results}


@pytest.mark.slow
def test_a_pool_plays_each_unit_as_this_process_does() -> None:
    assert played(ProcessPool(2), 1000) == played(InProcess(), 1000)  # three units


def test_a_pool_of_no_workers_is_refused() -> None:
    with pytest.raises(ConfigError, match="at least 1 worker"):
        ProcessPool(0)
