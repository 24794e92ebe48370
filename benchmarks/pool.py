"""The worker pool's pay and the cache of tables, measured (not tested), side by side in one run.

Three tournaments through the real command, each at -j 1 and -j 2: a 3M-game exact field
(optimal, max-shut, greedy-high, 1,000,000 games a matchup), a context-reading field (target, tips
and optimal) and the default tournament; this checkout with the cache of tables warm (filled by
an earlier run) and cold (an empty folder), and with --baseline PATH an earlier checkout (its own
`.venv`) as it is. Each figure is the best wall time of --repeats (the runs taken in turn, so a
burst of load on a shared machine falls on all of them alike), with the processor seconds of the
command and every process it started; the ratio is -j 1's wall time over -j 2's.

Run: python benchmarks/pool.py [--baseline PATH] [--repeats R]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = {
    "3M-game exact field": ["-s", "optimal", "-s", "max-shut", "-s", "greedy-high", "--games", "1000000"],
    "context-reading field": ["-s", "target", "-s", "tips", "-s", "optimal", "--games", "6000"],
    "default tournament": [],
}


def timed(python: str, cwd: Path, args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and processor seconds (of the command and all it started) of one tournament."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        command = [python, "-m", "shutbox_cli", "tournament", "--seed", "1", *args, "-o", f"{folder}/r.toml"]
        subprocess.run(command, cwd=cwd, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="an earlier checkout, with its own .venv")
    parser.add_argument("--repeats", type=int, default=2)
    arguments = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores")
    warm = tempfile.mkdtemp(prefix="shutbox-tables-")
    here = {**os.environ, "SHUTBOX_TABLE_CACHE": warm}
    checkouts = [("this, warm cache", sys.executable, ROOT, False), ("this, cold cache", sys.executable, ROOT, True)]
    if arguments.baseline is not None:
        checkouts.append(("baseline", str(arguments.baseline / ".venv/bin/python"), arguments.baseline, False))
    for args in CASES.values():  # fills the warm cache
        timed(sys.executable, ROOT, [*args, "-j", "1"], here)
    best: dict[tuple[str, str, int], tuple[float, float]] = {}
    for _ in range(arguments.repeats):
        for case, args in CASES.items():
            for label, python, cwd, cold in checkouts:
                for workers in (1, 2):
                    with tempfile.TemporaryDirectory() as empty:
                        env = {**os.environ, "SHUTBOX_TABLE_CACHE": empty if cold else warm}
                        found = timed(python, cwd, [*args, "-j", str(workers)], env)
                    key = (case, label, workers)
                    best[key] = min(best.get(key, found), found)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    print(f"| {'case':<22} | {'code':<17} | -j 1 wall (CPU) s | -j 2 wall (CPU) s | -j 2 / -j 1 speed |")
    print(f"|{'-' * 24}|{'-' * 19}|{'-' * 18}|{'-' * 19}|{'-' * 19}|")
    for case in CASES:
        for label, *_ in checkouts:
            (one, one_cpu), (two, two_cpu) = best[(case, label, 1)], best[(case, label, 2)]
            print(
                f"| {case:<22} | {label:<17} | {one:6.2f} ({one_cpu:5.2f})   | {two:6.2f} ({two_cpu:5.2f})    "
                f"| {one / two:17.2f} |"
            )


if __name__ == "__main__":
    main()
