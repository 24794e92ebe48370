"""What the closest distributions cost now beside a git revision's (main by default), measured
(not tested): one LLR of each model for a match's pairs at bounds near 0, where both root finders
take the same path, timed side by side in one run; then, for this checkout alone (the revision's
fixed point fails there), bounds far from 0 that go through the mean. Best of --repeats, with the
load average.

Run: python benchmarks/closest_roots.py [--revision REV] [--repeats R]
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import timeit
import types

from tournaments.statistics import closest
from tournaments.statistics.elo import score_of
from tournaments.statistics.nelo import NELO_PER_T

COUNTS = (229, 44, 7080, 64, 327)
"""A match's pairs after 15,488 games of optimal against fewest-tiles (seed 3)."""


def revision(rev: str) -> types.ModuleType:
    """closest.py as the revision has it, as a module of its own."""
    source = subprocess.run(
        ["git", "show", f"{rev}:tournaments/statistics/closest.py"], check=True, capture_output=True, text=True
    ).stdout
    module = types.ModuleType("closest_then")
    exec(compile(source, "closest_then.py", "exec"), module.__dict__)  # the project's own file
    return module


def llr(module: types.ModuleType, model: str, bounds: tuple[float, float]) -> float:
    """The LLR of the bounds for COUNTS with that module's closest distributions."""
    total, observed, values = module.frequencies(COUNTS)
    if model == "logistic":
        found = [module.of_mean(values, observed, score_of(bound)) for bound in bounds]
    else:
        found = [module.of_t_value(values, observed, 0.5, math.sqrt(2) * b / NELO_PER_T) for b in bounds]
    logs = [[math.log(p) for p in one] for one in found]
    return float(total * sum(q * (b - a) for q, a, b in zip(observed, logs[0], logs[1], strict=True)))


def best(module: types.ModuleType, model: str, bounds: tuple[float, float], repeats: int) -> float:
    """The fastest of `repeats` rounds of 100 LLRs, in milliseconds an LLR."""
    return min(timeit.repeat(lambda: llr(module, model, bounds), number=100, repeat=repeats)) / 100 * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--revision", default="main")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    then = revision(args.revision)
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'LLR':32} {args.revision + ' ms':>10} {'now ms':>10} {'now/then':>9}")
    for model, bounds in (("logistic", (0.0, 5.0)), ("normalized", (0.0, 5.0)), ("normalized", (11.2, 11.4))):
        old = best(then, model, bounds, args.repeats)
        new = best(closest, model, bounds, args.repeats)
        print(f"{model + ' ' + str(bounds):32} {old:10.3f} {new:10.3f} {new / old:9.2f}")
    for bounds in ((250.0, 300.0), (-2000.0, -1000.0)):
        new = best(closest, "normalized", bounds, args.repeats)
        print(f"{'normalized ' + str(bounds):32} {'fails':>10} {new:10.3f}")


if __name__ == "__main__":
    main()
