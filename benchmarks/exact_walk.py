"""The exact walk in two checkouts side by side, timed (not tested): each case run in a fresh
process from each tree in turn (so the load falls on both alike), its processor seconds inside the
run (imports excluded), the best of the repeats, and the ratio of this tree's to the other's.

The cases: an exact tournament of the five default exact strategies at a table of two (one round,
drop-out at 100); a keyed one-round field (target with four exact strategies, a table of three,
shared ties); target against optimal at a table of two over 5 rounds and in drop-out at 20 and 45;
and the estimate of a refused run (optimal and tips in drop-out at 40,000; target and optimal in
drop-out at 5,000), timed to its refusal.

Run: python benchmarks/exact_walk.py --before ../other-checkout [--repeats R] [--only NAME]
(`git worktree add --detach /tmp/before main` makes such a checkout of main.)
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys
from collections.abc import Sequence

EXACT = ("optimal", "max-shut", "fewest-tiles", "tips", "greedy-high")
KEYED = ("optimal", "max-shut", "fewest-tiles", "tips", "target")
CASES: dict[str, tuple[int, dict[str, int | str], Sequence[str]]] = {
    "built-ins, one round": (2, {}, EXACT),
    "built-ins, drop-out 100": (2, {"drop_out": 100}, EXACT),
    "keyed field, 3 seats": (3, {"ties": "share"}, KEYED),
    "target, 5 rounds": (2, {"rounds": 5}, ("optimal", "target")),
    "target, drop-out 20": (2, {"drop_out": 20}, ("optimal", "target")),
    "target, drop-out 45": (2, {"drop_out": 45}, ("optimal", "target")),
    "refused: drop-out 40000": (2, {"drop_out": 40_000}, ("optimal", "tips")),
    "refused: target 5000": (2, {"drop_out": 5_000}, ("optimal", "target")),
}

ONE_RUN = """
import json, sys, time
from tournaments import ConfigError, Options, load_config, run
table, rules, field = int(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3:]
config = load_config(None, Options(strategies=field, method="exact", table=table, rules=rules))
start = time.process_time()
try:
    summary = run(config)
    what = f"{summary.games}-games"
except ConfigError:
    what = "refused"
print(time.process_time() - start, what)
"""


def seconds(tree: pathlib.Path, table: int, rules: dict[str, int | str], field: Sequence[str]) -> tuple[float, str]:
    """One run in a fresh process from `tree`: its processor seconds inside `run`, and what it did."""
    import json

    done = subprocess.run(
        [sys.executable, "-c", ONE_RUN, str(table), json.dumps(rules), *field],
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
    )
    spent, what = done.stdout.split()
    return float(spent), what


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=pathlib.Path, required=True, help="the other checkout")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each, best shown (default 3)")
    parser.add_argument("--only", help="the cases whose name starts with this")
    options = parser.parse_args(argv)
    here = pathlib.Path(__file__).resolve().parent.parent
    print(f"CPU seconds, best of {options.repeats}; load {pathlib.Path('/proc/loadavg').read_text().strip()}")
    print(f"{'case':<26} {'before':>8} {'after':>8} {'ratio':>6}  did")
    for name, (table, rules, field) in CASES.items():
        if options.only and not name.startswith(options.only):
            continue
        before, after = [], []
        for _ in range(options.repeats):
            before.append(seconds(options.before.resolve(), table, rules, field))
            after.append(seconds(here, table, rules, field))
        old, new = min(before)[0], min(after)[0]
        print(f"{name:<26} {old:>8.3f} {new:>8.3f} {new / old:>6.2f}  {after[0][1]}")


if __name__ == "__main__":
    main()
