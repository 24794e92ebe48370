"""What `target` costs an exact tournament, timed (not tested): a one-round exact tournament of five
strategies with greedy-high, then the same with target in its place, side by side, at tables of
2, 3 and 4 and under shared ties and playoffs; then drop-out at a table of two (optimal against
greedy-high, then against target: a walk over both totals) with limits 20 and 45, and 3 and 5
fixed rounds at a table of two (the same walk; target reads the round too). Each run is a
fresh process (nothing tabulated or solved before it); the figure is its processor seconds inside
`run` (imports excluded), the best of the repeats, and the ratio with target to without.

Run: python benchmarks/exact_keyed.py [--repeats R] [--only share|playoff|drop|rounds]
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
from collections.abc import Sequence

WITHOUT = ("optimal", "max-shut", "fewest-tiles", "tips", "greedy-high")
WITH = ("optimal", "max-shut", "fewest-tiles", "tips", "target")
DROP_OUT_WITHOUT = ("optimal", "greedy-high")
DROP_OUT_WITH = ("optimal", "target")

ONE_RUN = """
import sys, time
from tournaments import Options, load_config, run
kind, _, number = sys.argv[2].partition(" ")
rules = {"ties": kind} if not number else {{"drop": "drop_out"}.get(kind, kind): int(number)}
config = load_config(None, Options(strategies=sys.argv[3:], method="exact", table=int(sys.argv[1]), rules=rules))
start = time.process_time()
summary = run(config)
print(time.process_time() - start, summary.arithmetic, summary.games)
"""


def seconds(field: Sequence[str], table: int, ties: str) -> tuple[float, str]:
    """One run in a fresh process: its processor seconds inside `run`, and what it computed
    (`ties`: a tie rule, "drop N" for a drop-out limit or "rounds N")."""
    done = subprocess.run(
        [sys.executable, "-c", ONE_RUN, str(table), ties, *field], capture_output=True, text=True, check=True
    )
    spent, arithmetic, games = done.stdout.split()
    return float(spent), f"{games} games in {arithmetic}s"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs of each, best shown (default 3)")
    parser.add_argument("--only", help="the cases whose rules start with this (share, playoff, drop, rounds)")
    options = parser.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}; best of {options.repeats}, CPU seconds")
    print(f"{'table':>5} {'rules':>9} {'without':>9} {'with target':>12} {'ratio':>6}  computed")
    cases: list[tuple[Sequence[str], Sequence[str], int, str]] = [
        (WITHOUT, WITH, table, ties) for table in (2, 3, 4) for ties in ("share", "playoff")
    ]
    cases += [(DROP_OUT_WITHOUT, DROP_OUT_WITH, 2, f"drop {limit}") for limit in (20, 45)]
    cases += [(DROP_OUT_WITHOUT, DROP_OUT_WITH, 2, f"rounds {rounds}") for rounds in (3, 5)]
    for plain_field, target_field, table, ties in cases:
        if options.only and not ties.startswith(options.only):
            continue
        without, with_target = [], []
        for _ in range(options.repeats):  # side by side: the load falls on both alike
            without.append(seconds(plain_field, table, ties))
            with_target.append(seconds(target_field, table, ties))
        plain, keyed = min(without)[0], min(with_target)[0]
        print(f"{table:>5} {ties:>9} {plain:>9.2f} {keyed:>12.2f} {keyed / plain:>6.2f}  {with_target[0][1]}")


if __name__ == "__main__":
    main()
