"""What a tournament's fingerprints cost it, measured (not tested), side by side in one run.

The default field (its exact strategies fingerprinted in the report, `ranking[].fingerprint`) run
by `tournaments.run` in a fresh process, with the fingerprints as a run makes them (from the tables
it made: `tournaments.playing.fingerprints`) and without them (`field_fingerprints` replaced by one
that finds none), the two taken in turn --repeats times; each figure is the best of its runs, with
the ratio, and the time `field_fingerprints` itself took in the run (the run's tables reused). The
load average is printed before and after.

Run: python benchmarks/fingerprints.py [--repeats R]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

CASES = ((9, 400, 1), (9, 2000, 2), (12, 400, 1))
"""(tiles, games per matchup, workers): a short run in this process, the default run, a big box."""
ONE_RUN = """
import json, sys, time
from tournaments import InProcess, Options, ProcessPool, load_config, run
import tournaments.running.runner as runner
from tournaments.playing.fingerprints import field_fingerprints

tiles, games, workers, fingerprints = map(int, sys.argv[1:5])
spent = []

def timed(config):
    start = time.perf_counter()
    found = field_fingerprints(config) if fingerprints else {}
    spent.append(time.perf_counter() - start)
    return found

runner.field_fingerprints = timed
config = load_config(None, Options(games=games, seed=1, rules={"tiles": tiles}, workers=workers))
backend = InProcess() if workers == 1 else ProcessPool(workers)
start = time.perf_counter()
summary = run(config, backend=backend)
seconds = time.perf_counter() - start
print(json.dumps([seconds, spent[0], len(summary.fingerprints)]))
"""


def one_run(tiles: int, games: int, workers: int, fingerprints: bool) -> list[float]:
    env = {**os.environ, "SHUTBOX_POOL": "idle"}
    arguments = [str(tiles), str(games), str(workers), str(int(fingerprints))]
    done = subprocess.run(
        [sys.executable, "-c", ONE_RUN, *arguments], capture_output=True, text=True, env=env, check=True
    )
    return list(json.loads(done.stdout))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args(argv).repeats
    print("load average before:", Path("/proc/loadavg").read_text().strip())
    print(f"{'tiles':>5} {'games':>6} {'-j':>2} {'with':>8} {'without':>8} {'ratio':>6} {'in the run':>10}")
    for tiles, games, workers in CASES:
        with_, without, after = [], [], []
        for _ in range(repeats):
            seconds, alone, written = one_run(tiles, games, workers, True)
            assert written, "the run wrote no fingerprint"
            with_.append(seconds)
            after.append(alone)
            without.append(one_run(tiles, games, workers, False)[0])
        best, bare = min(with_), min(without)
        figures = f"{best:>7.3f}s {bare:>7.3f}s {best / bare:>6.3f} {min(after) * 1000:>8.2f}ms"
        print(f"{tiles:>5} {games:>6} {workers:>2} {figures}")
    print("load average after:", Path("/proc/loadavg").read_text().strip())


if __name__ == "__main__":
    main()
