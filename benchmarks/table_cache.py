"""A built-in's table built again in each run against one kept on disk, measured (not tested), side
by side in one run: why a built-in's table is never read back (tournaments/playing/tables.py).

For 9, 10 and 12 tiles, in a fresh process each time (as a run starts: the solver cold), the table
of each exact built-in strategy as a run makes it (`UnitPlayer.policy`, the cache off), in the
order a field of them all builds them (optimal's solution then serves max-shut); then the same
table kept sealed and read back as a user's is (`keep_table`, then `read_table`: the HMAC checked,
every entry checked legal; the checking code loaded beforehand, the rule set's lookups made by the
first), which is what sealing built-ins' tables would cost instead. Each figure
is the best of --repeats (the runs taken in turn); the load average is printed before and after.

Run: python benchmarks/table_cache.py [--repeats R]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence

BUILT_INS = ("optimal", "max-shut", "greedy-high", "fewest-tiles", "most-tiles", "lowest-first", "tips")
TILES = (9, 10, 12)
ONE_RUN = """
import json, sys, time
from pathlib import Path
from tournaments import Options, load_config
from tournaments.field.entries import StrategyEntry
from tournaments.playing.plan import make_plan
from tournaments.playing.tables import keep_table, read_table
from tournaments.playing.units import UnitPlayer
import tournaments.referee.table_check  # numpy and the hosts' checks, loaded by any run that reads a table

tiles, names, cache = int(sys.argv[1]), sys.argv[2].split(","), Path(sys.argv[3])
plan = make_plan(load_config(None, Options(strategies=tuple(names), games=20, seed=1, rules={"tiles": tiles})))
player, found = UnitPlayer(plan), {}
for index, name in enumerate(names):
    start = time.perf_counter()
    table = player.policy(index)
    built = time.perf_counter() - start
    entry = StrategyEntry(spec="mine.py:Mine", name=name, params={}, exact=True, sha256="a" * 64)
    keep_table(cache, name.ljust(64, "x")[:64], table)
    start = time.perf_counter()
    assert read_table(cache, name.ljust(64, "x")[:64], entry, plan.config.rules) is not None
    found[name] = (built, time.perf_counter() - start)
print(json.dumps(found))
"""


def one_run(tiles: int) -> dict[str, list[float]]:
    """Seconds to build each table, and to read it back sealed, in a fresh process."""
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "SHUTBOX_TABLE_CACHE": "off", "XDG_STATE_HOME": folder}
        done = subprocess.run(
            [sys.executable, "-c", ONE_RUN, str(tiles), ",".join(BUILT_INS), f"{folder}/cache"],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        )
    found: dict[str, list[float]] = json.loads(done.stdout)
    return found


def load() -> str:
    with open("/proc/loadavg") as file:
        return " ".join(file.read().split()[:3])


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="fresh processes per rule set (default 5)")
    options = parser.parse_args(argv)
    print(f"load average before: {load()}; best of {options.repeats}, milliseconds")
    best: dict[tuple[int, str], list[float]] = {}
    for _ in range(options.repeats):
        for tiles in TILES:
            for name, figures in one_run(tiles).items():
                now = best.setdefault((tiles, name), list(figures))
                best[(tiles, name)] = [min(old, new) for old, new in zip(now, figures, strict=True)]
    print(f"{'tiles':>5}  {'strategy':<13} {'built':>8} {'read back':>10}")
    for tiles in TILES:
        totals = [0.0, 0.0]
        for name in BUILT_INS:
            built, read = best[(tiles, name)]
            totals = [totals[0] + built, totals[1] + read]
            print(f"{tiles:>5}  {name:<13} {built * 1000:8.1f} {read * 1000:10.1f}")
        print(f"{tiles:>5}  {'all seven':<13} {totals[0] * 1000:8.1f} {totals[1] * 1000:10.1f}")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
