"""What counting who finished ahead of whom costs the bulk engine, measured (not tested).

Plays the first bulk units of a tournament of the exact field (optimal, max-shut, fewest-tiles,
tips, greedy-high) in this process, dice and strategies' turns included, and times the part spent
in `tournaments.playing.bulk.finished_ahead` (every pair of seats of every game), best of --repeats.

Run: python benchmarks/ahead.py [--repeats R]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import tournaments.playing.bulk as bulk
from tournaments import Options, load_config
from tournaments.playing.plan import make_plan
from tournaments.playing.units import UnitPlayer

FIELD = ["optimal", "max-shut", "fewest-tiles", "tips", "greedy-high"]
CASES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (2, {"drop_out": 100}),
    (3, {}),
    (4, {}),
    (4, {"rounds": 3, "ties": "playoff"}),
]


def share(table: int, rules: dict[str, Any], repeats: int) -> tuple[float, float]:
    """Seconds for four bulk units, and the seconds of it spent on who finished ahead."""
    config = load_config(None, Options(strategies=FIELD, games=200_000, table=table, seed=1, rules=rules))
    plan = make_plan(config)
    player = UnitPlayer(plan)
    units = [unit for unit in plan.units() if unit.bulk][:4]
    inner, spent = bulk.finished_ahead, [0.0]

    def timed(*arguments: Any) -> Any:
        start = time.perf_counter()
        found = inner(*arguments)
        spent[0] += time.perf_counter() - start
        return found

    bulk.finished_ahead = timed
    best = (float("inf"), 0.0)
    for _ in range(repeats):
        spent[0] = 0.0
        start = time.perf_counter()
        for unit in units:
            bulk.BulkUnit(plan, unit, player.bulk.strategy_turns).play()
        best = min(best, (time.perf_counter() - start, spent[0]))
    bulk.finished_ahead = inner
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    repeats = parser.parse_args().repeats
    for table, rules in CASES:
        total, ahead = share(table, rules, repeats)
        shown = ", ".join(f"{key}={value}" for key, value in rules.items()) or "one round"
        print(
            f"table {table}, {shown:<24} units {1000 * total:7.0f} ms, "
            f"who finished ahead {1000 * ahead:5.1f} ms ({100 * ahead / total:4.1f}%)"
        )


if __name__ == "__main__":
    main()
