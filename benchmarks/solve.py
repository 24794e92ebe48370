"""What `solve` costs, measured (not tested): the value of a one-round game at tables of 2 to 4 on 9
and 12 tiles, each rule set in a fresh process (nothing solved before it), its processor seconds
and peak memory side by side, under each tie rule asked for, with the machine's load before and after.

Run: python benchmarks/solve.py [--ties share seat playoff] [--tiles 9 12]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

JOB = """
import resource, time
from tournaments import solve
start = time.process_time()
solve({{"tiles": {tiles}, "ties": "{ties}"}}, {table})
print(time.process_time() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def measured(tiles: int, ties: str, table: int) -> tuple[float, float]:
    """The CPU-seconds of one solve in a fresh process, and the process's peak memory in MB."""
    done = subprocess.run(
        [sys.executable, "-c", JOB.format(tiles=tiles, ties=ties, table=table)],
        capture_output=True,
        text=True,
        check=True,
    )
    seconds, peak = done.stdout.split()
    return float(seconds), int(peak) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ties", nargs="+", default=["share", "playoff"])
    parser.add_argument("--tiles", nargs="+", type=int, default=[9, 12])
    args = parser.parse_args()
    print(f"load before: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    print(f"{'tiles':>5} {'ties':>8} {'seats':>5} {'CPU-s':>7} {'peak MB':>8}")
    for tiles in args.tiles:
        for ties in args.ties:
            for table in (2, 3, 4):
                seconds, peak = measured(tiles, ties, table)
                print(f"{tiles:>5} {ties:>8} {table:>5} {seconds:>7.2f} {peak:>8.0f}")
    print(f"load after: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
