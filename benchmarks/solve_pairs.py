"""What `solve` costs for two seats over several rounds and in drop-out, measured (not tested): each
game in a fresh process (nothing solved before it), the equilibrium's processor seconds and the whole
solve's (the equilibrium, then both seats walked exactly, perfect and all optimal), the estimate that
refuses what would not fit, and peak memory, side by side, with the machine's load before and after.

Run: python benchmarks/solve_pairs.py [--rounds 2 3 5 10] [--drop-out 45 100] [--tiles 9]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

JOB = """
import resource, time
from shutbox_cli.game import Rules
from shutbox_cli.game.perfect_pairs import cost, pair_equilibrium
from tournaments import solve
rules = Rules(tiles={tiles}, rounds={rounds}, drop_out={drop_out})
start = time.process_time()
pair_equilibrium(rules)
solved = time.process_time()
solve(rules, 2)
whole = time.process_time() - start
print(cost(rules).seconds, solved - start, whole, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def measured(tiles: int, rounds: int, drop_out: int | None) -> tuple[float, float, float, float]:
    """The estimate, the equilibrium's CPU-seconds, the whole solve's, and the peak memory in MB."""
    done = subprocess.run(
        [sys.executable, "-c", JOB.format(tiles=tiles, rounds=rounds, drop_out=drop_out)],
        capture_output=True,
        text=True,
        check=True,
    )
    estimate, equilibrium, whole, peak = done.stdout.split()
    return float(estimate), float(equilibrium), float(whole), int(peak) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", nargs="+", type=int, default=[2, 3, 5, 10])
    parser.add_argument("--drop-out", nargs="+", type=int, default=[45, 100])
    parser.add_argument("--tiles", type=int, default=9)
    args = parser.parse_args()
    print(f"load before: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    print(f"{'game':>16} {'estimate s':>11} {'equilibrium s':>14} {'solve s':>8} {'peak MB':>8}")
    games = [(rounds, None) for rounds in args.rounds] + [(1, limit) for limit in args.drop_out]
    for rounds, limit in games:
        estimate, equilibrium, whole, peak = measured(args.tiles, rounds, limit)
        game = f"drop-out {limit}" if limit is not None else f"{rounds} rounds"
        print(f"{game:>16} {estimate:>11.1f} {equilibrium:>14.2f} {whole:>8.2f} {peak:>8.0f}")
    print(f"load after: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
