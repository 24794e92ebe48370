"""The worker pool's pay and the cache of tables, measured (not tested), side by side in one run.

Three tournaments through the real command, each at -j 1 and -j 2: a 3M-game exact field
(optimal, max-shut, greedy-high, 1,000,000 games a matchup), a context-reading field (a user's
strategy that reads the game, asked game by game in its host, and optimal; its games chosen so that
-j 1 takes about as long as the exact field's) and the default tournament; this checkout with the
cache of tables warm (filled by an earlier run) and cold (an empty folder), and with --baseline
PATH an earlier checkout (its own `.venv`) as it is. Each figure is the best wall time of --repeats
(the runs taken in turn, so a burst of load on a shared machine falls on all of them alike), with
the processor seconds of the command and every process it started; the ratio is -j 1's wall time
over -j 2's.

A run of built-in strategies stays in process where no core is idle (other processes busy them):
on a shared machine, -j 2 then measures that choice. `--busy-as-idle` has every command take the
machine's cores as idle, so that -j 2 plays in a pool however busy the machine is: what an idle
machine would choose, with the other load still slowing it down.

Run: python benchmarks/pool.py [--baseline PATH] [--repeats R] [--busy-as-idle] [--only CASE]

Measured for issue 21 (--busy-as-idle, the commit before as baseline, three runs of 3 repeats on
a 2-core machine that other work kept at a load of 3 to 8, so -j 2 never had both cores): -j 2 /
-j 1 speed, exact field 1.25-1.53 (baseline 0.73-1.13), context field 0.82-1.14 (baseline
0.60-0.91); -j 2's processor time over -j 1's, exact field 1.01-1.10 (baseline 1.23-1.46),
context field 0.90-1.12 (baseline 1.24-1.71).
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

READER = (Path(__file__).parent / "reader.py").read_text()
"""The context-reading strategy a user might write (benchmarks/reader.py), written where a run finds it."""
CASES = {
    "3M-game exact field": ["-s", "optimal", "-s", "max-shut", "-s", "greedy-high", "--games", "1000000"],
    "context-reading field": ["-s", "reader.py:Reader", "-s", "optimal", "--games", "20000"],
    "default tournament": [],
}
AS_IDLE = (
    "import os, sys; os.environ.setdefault('OPENBLAS_NUM_THREADS', '1'); "  # as the console script does first
    "import tournaments.backends.base as base; "
    "base.default_backend.__defaults__ = (lambda: float(os.cpu_count() or 1),); "
    "from shutbox_cli.entry import main; sys.argv[0] = 'shutbox'; main()"
)
"""The command, with the machine's every core taken as idle (`--busy-as-idle`)."""


def timed(python: str, cwd: Path, args: list[str], env: dict[str, str], as_idle: bool) -> tuple[float, float]:
    """Wall and processor seconds (of the command and all it started) of one tournament."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        shutbox = [python, "-c", AS_IDLE] if as_idle else [python, "-m", "shutbox_cli"]
        command = [*shutbox, "tournament", "--seed", "1", *args, "-o", f"{folder}/r.toml"]
        subprocess.run(command, cwd=cwd, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="an earlier checkout, with its own .venv")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--busy-as-idle", action="store_true", help="take every core as idle (see above)")
    parser.add_argument("--only", choices=CASES, action="append", help="this case only (repeat for more)")
    arguments = parser.parse_args()
    cases = {case: CASES[case] for case in arguments.only or CASES}
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores")
    warm = tempfile.mkdtemp(prefix="shutbox-tables-")
    folder = Path(tempfile.mkdtemp(prefix="shutbox-pool-"))
    (folder / "reader.py").write_text(READER)
    base = {**os.environ, "SHUTBOX_TABLE_CACHE": warm}
    checkouts = [("this, warm cache", sys.executable, False), ("this, cold cache", sys.executable, True)]
    if arguments.baseline is not None:
        checkouts.append(("baseline", str(arguments.baseline / ".venv/bin/python"), False))
    for args in cases.values():  # fills the warm cache
        timed(sys.executable, folder, [*args, "-j", "1"], base, arguments.busy_as_idle)
    best: dict[tuple[str, str, int], tuple[float, float]] = {}
    for _ in range(arguments.repeats):
        for case, args in cases.items():
            for label, python, cold in checkouts:
                for workers in (1, 2):
                    with tempfile.TemporaryDirectory() as empty:
                        env = {**base, "SHUTBOX_TABLE_CACHE": empty if cold else warm}
                        found = timed(python, folder, [*args, "-j", str(workers)], env, arguments.busy_as_idle)
                    key = (case, label, workers)
                    best[key] = min(best.get(key, found), found)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    print(f"| {'case':<22} | {'code':<17} | -j 1 wall (CPU) s | -j 2 wall (CPU) s | -j 2 / -j 1 speed |")
    print(f"|{'-' * 24}|{'-' * 19}|{'-' * 18}|{'-' * 19}|{'-' * 19}|")
    for case in cases:
        for label, *_ in checkouts:
            (one, one_cpu), (two, two_cpu) = best[(case, label, 1)], best[(case, label, 2)]
            print(
                f"| {case:<22} | {label:<17} | {one:6.2f} ({one_cpu:5.2f})   | {two:6.2f} ({two_cpu:5.2f})    "
                f"| {one / two:17.2f} |"
            )


if __name__ == "__main__":
    main()
