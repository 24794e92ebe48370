"""Tournament speed and memory, measured (not tested).

1. Games per second for the default tournament (the default field, 2 players per table,
   duplicate deals, 2000 games per matchup) at -j 1 and -j 2, worker start-up included,
   and the peak memory of the main process and of the largest worker.
2. A tournament of about a million games at -j 2, sampling the resident memory of the main
   process and of the workers as it goes: it should stay flat, since workers send back
   tallies, never games.

Run: python benchmarks/tournament.py [--million GAMES] [--skip-million]
Resident memory is read from /proc (Linux).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import resource
import time
from pathlib import Path

from tournaments import Options, default_backend, load_config, run
from tournaments.playing.plan import make_plan


def rss_mb(pid: int | str = "self") -> float:
    """Resident memory of a process in MB (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def children() -> list[int]:
    """Processes whose parent is this one (the workers)."""
    mine = os.getpid()
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == mine:
                found.append(int(entry))
    return found


def speed(workers: int) -> None:
    config = dataclasses.replace(load_config(None, Options()), seed=1)
    plan = make_plan(config)
    start = time.perf_counter()
    run(config, backend=default_backend(workers, plan))
    seconds = time.perf_counter() - start
    print(
        f"-j {workers}: {plan.total_games:,} games ({len(config.strategies)} strategies, "
        f"{len(plan.matchups)} matchups) in {seconds:.2f} s = {plan.total_games / seconds:,.0f} games/s"
    )


def million(games: int) -> None:
    base = load_config(None, Options(strategies=("greedy-high", "optimal", "tips")))
    config = dataclasses.replace(base, seed=1, games=games // 3)
    plan = make_plan(config)
    samples: list[tuple[int, float, float]] = []
    next_sample = 0

    def progress(done: int, total: int) -> None:
        nonlocal next_sample
        if done >= next_sample:
            workers = max((rss_mb(pid) for pid in children()), default=0.0)
            samples.append((done, rss_mb(), workers))
            next_sample += plan.total_games // 10

    start = time.perf_counter()
    run(config, backend=default_backend(2, plan), progress=progress)
    seconds = time.perf_counter() - start
    print(f"\n{plan.total_games:,} games at -j 2 in {seconds:.1f} s = {plan.total_games / seconds:,.0f} games/s")
    print(f"{'games done':>12}  {'main RSS':>9}  {'worker RSS (largest)':>20}")
    for count, main, worker in samples:
        print(f"{count:>12,}  {main:>6.1f} MB  {worker:>17.1f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--million", type=int, default=1_000_000, help="games in the memory run")
    parser.add_argument("--skip-million", action="store_true", help="only the speed figures")
    arguments = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores")
    speed(1)
    speed(2)
    peak_main = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    peak_worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak memory: main process {peak_main:.1f} MB, largest worker {peak_worker:.1f} MB")
    if not arguments.skip_million:
        million(arguments.million)


if __name__ == "__main__":
    main()
