"""What stakes cost, measured (not tested): `solve` for a stake beside `solve` to win, and the fair
payout's search, on the standard game and the published two-player one (digit scores), each in a
fresh process (nothing solved before it): processor seconds and peak memory side by side, with how
many payouts the search tried and the machine's load before and after.

Run: python benchmarks/stakes.py [--tables 2 3 4]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

RULES = {
    "standard": {},
    "published": {"scoring": "digits", "one_die": "low-sum", "one_die_mode": "compulsory"},
}
JOB = """
import resource, time
from shutbox_cli.game import fair, stakes
from tournaments import solve
tried = []
winnings = stakes.Stakes.winnings
stakes.Stakes.winnings = lambda self: tried.append(1) or winnings(self)
rules = {rules!r}
start = time.process_time()
if {job!r} == "fair payout":
    from shutbox_cli.game import Rules
    fair.fair_payout(Rules.from_mapping(rules), {table})
else:
    solve({{**rules, **({job!r} == "solve for a stake" and {{"shut_pays": 2.0}} or {{}})}}, {table})
print(time.process_time() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, len(tried))
"""
JOBS = ("solve to win", "solve for a stake", "fair payout")


def measured(rules: dict[str, str], job: str, table: int) -> tuple[float, float, int]:
    """The CPU-seconds of one job in a fresh process, its peak memory in MB, and the payouts tried."""
    done = subprocess.run(
        [sys.executable, "-c", JOB.format(rules=rules, job=job, table=table)],
        capture_output=True,
        text=True,
        check=True,
    )
    seconds, peak, tried = done.stdout.split()
    return float(seconds), int(peak) / 1024, int(tried)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", nargs="+", type=int, default=[2])
    args = parser.parse_args()
    print(f"load before: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    print(f"{'game':>10} {'job':>18} {'seats':>5} {'CPU-s':>7} {'peak MB':>8} {'payouts':>7}")
    for name, rules in RULES.items():
        for table in args.tables:
            for job in JOBS:
                seconds, peak, tried = measured(rules, job, table)
                print(f"{name:>10} {job:>18} {table:>5} {seconds:>7.2f} {peak:>8.0f} {tried:>7}")
    print(f"load after: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
