"""What going on after a strategy's failure costs, measured (not tested): the same field, with a
user's strategy that plays on (`Rare`) and one that fails in three of its six units
(`RaisesRarely`, under `on_failure = "forfeit"`), in this process (-j 1) and in a pool of two
(-j 2). Each forfeit starts the units left again (a pool's workers and the hosts), and its unit's
games are not played: the ratio says what that nets. Best of --repeats, the runs alternating so
that load changes hit them alike; the machine's load is printed beside the figures.

Run: python benchmarks/forfeits.py [--repeats R] [--games N]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from tournaments import Options, Summary, run

FAILING = Path(__file__).resolve().parent.parent / "tests" / "hostile" / "forfeits.py"
"""The strategies that fail in some units and not others (the tests' own)."""


def played(name: str, workers: int, games: int) -> tuple[float, Summary]:
    """One run's seconds and summary: greedy-high and tips against the strategy `name`."""
    options = Options(
        strategies=("greedy-high", "tips", f"{FAILING}:{name}"),
        games=games,
        seed=5,
        workers=workers,
        on_failure="forfeit",
    )
    started = time.perf_counter()
    summary = run(options)
    assert isinstance(summary, Summary)
    return time.perf_counter() - started, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", type=int, default=6000)
    arguments = parser.parse_args()
    os.environ["SHUTBOX_POOL"] = "always"  # -j 2 plays in a pool whatever the load
    print(f"load before: {Path('/proc/loadavg').read_text().strip()}")
    best: dict[tuple[str, int], float] = {}
    forfeits: dict[tuple[str, int], int] = {}
    for _ in range(arguments.repeats):
        for workers in (1, 2):
            for name in ("Rare", "RaisesRarely"):
                seconds, summary = played(name, workers, arguments.games)
                best[name, workers] = min(seconds, best.get((name, workers), seconds))
                forfeits[name, workers] = len(summary.forfeits)
    for workers in (1, 2):
        clean, failing = best["Rare", workers], best["RaisesRarely", workers]
        print(
            f"-j {workers}: plays on {clean:.2f} s; {forfeits['RaisesRarely', workers]} forfeits {failing:.2f} s; "
            f"ratio {failing / clean:.2f}"
        )
    print(f"load after: {Path('/proc/loadavg').read_text().strip()}")


if __name__ == "__main__":
    main()
