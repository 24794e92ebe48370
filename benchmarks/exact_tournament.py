"""Exact tournaments, timed (not tested): a 2-seat exact tournament of the default exact strategies
(optimal, max-shut, fewest-tiles, tips, greedy-high), one round and drop-out at 100, as
`shutbox tournament --exact` computes it: the configuration loaded, every strategy tabulated and
its turn distribution found, every seating of every matchup computed.

For each format it prints the time of the whole run (best of the repeats, each in a fresh process
so no table is cached from an earlier run), the time of the `shutbox` command itself, and the
leader's figures.

Run: python benchmarks/exact_tournament.py [--repeats R] [--drop-out L]
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
import time
from collections.abc import Sequence

STRATEGIES = ("optimal", "max-shut", "fewest-tiles", "tips", "greedy-high")

ONE_RUN = """
import sys, time
from tournaments import Options, load_config, run
rules = {} if sys.argv[1] == "none" else {"drop_out": int(sys.argv[1])}
marks = []
start = time.perf_counter()
summary = run(
    load_config(None, Options(strategies=sys.argv[2:], method="exact", rules=rules)),
    progress=lambda done, total: marks.append(time.perf_counter()) if done == 0 else None,
)
end = time.perf_counter()
best = summary.ranking[0]
print(end - start, marks[0] - start, end - marks[0], summary.arithmetic, best.name, best.win_rate, summary.games)
"""


def in_process(drop_out: int | None) -> tuple[tuple[float, float, float], str]:
    """One run in a fresh process: its seconds inside `run` (imports excluded), split into the
    strategies' turn distributions (tables included: told by the first progress call) and the
    seatings; and what it found."""
    done = subprocess.run(
        [sys.executable, "-c", ONE_RUN, "none" if drop_out is None else str(drop_out), *STRATEGIES],
        capture_output=True,
        text=True,
        check=True,
    )
    whole, turns, games_time, arithmetic, name, rate, games = done.stdout.split()
    found = f"{games} games in {arithmetic}s; leader {name}, win rate {100 * float(rate):.3f}%"
    return (float(whole), float(turns), float(games_time)), found


def command(drop_out: int | None) -> float:
    """The wall time of `shutbox tournament --exact -q`, start-up included."""
    options = [] if drop_out is None else ["--drop-out", str(drop_out)]
    strategies = [argument for name in STRATEGIES for argument in ("-s", name)]
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "shutbox_cli", "tournament", "--exact", "-q", *strategies, *options],
        capture_output=True,
        check=True,
    )
    return time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per format (default 3)")
    parser.add_argument("--drop-out", type=int, default=100, help="the drop-out limit (default 100)")
    options = parser.parse_args(argv)
    print(
        f"Python {platform.python_version()} on {platform.machine()} ({platform.system()}); "
        f"{options.repeats} repeats, best shown, time.perf_counter"
    )
    formats = (("one round (instant win on)", None), (f"drop-out at {options.drop_out}", options.drop_out))
    for title, drop_out in formats:
        runs = [in_process(drop_out) for _ in range(options.repeats)]
        whole, turns, games = min(seconds for seconds, _ in runs)
        wall = min(command(drop_out) for _ in range(options.repeats))
        print(f"\n{title}: {runs[0][1]}")
        print(f"  tournaments.run:                  {whole:6.3f} s")
        print(f"    of which turn distributions:    {turns:6.3f} s (the strategies' tables included)")
        print(f"    and the games:                  {games:6.3f} s")
        print(f"  shutbox tournament --exact -q:    {wall:6.3f} s (process start-up and imports included)")


if __name__ == "__main__":
    main()
