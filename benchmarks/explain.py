"""What `shutbox explain` costs beside `shutbox analyze`, timed (not tested): the same strategy seated
the same way, in a fresh process each (nothing solved or tabulated before it), alone on 9 and 12
tiles and against optimal on 9; the figure is the processor seconds of the library call (imports and
seating excluded), the best of the repeats, run side by side so that the load falls on both alike,
and the ratio explain / analyze (against optimal: / `analyze --against`, the exact duel). The load
average is printed before and after.

Run: python benchmarks/explain.py [--repeats R] [--spec SPEC]
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ONE_RUN = """
import sys, time
import tournaments
from shutbox_cli.game import Rules
from tournaments.parts import seat_strategies
what, spec, tiles, *rivals = sys.argv[1:]
given = [(one, {}, None) for one in (spec, *rivals)]
seated = [one.__enter__() for one in seat_strategies(given, Rules(tiles=int(tiles)))]
start = time.process_time()
if what == "explain":
    found = tournaments.explain(seated[0], seated[1:] or None)
elif rivals:
    found = tournaments.duel_exactly(seated[0], seated[1])
else:
    found = tournaments.analyze(seated[0])
print(time.process_time() - start)
"""


def seconds(what: str, spec: str, tiles: int, rivals: Sequence[str]) -> float:
    """One call in a fresh process: its processor seconds."""
    done = subprocess.run(
        [sys.executable, "-c", ONE_RUN, what, spec, str(tiles), *rivals], capture_output=True, text=True, check=True
    )
    return float(done.stdout)


def load() -> str:
    return Path("/proc/loadavg").read_text().strip() if Path("/proc/loadavg").exists() else "unknown"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs of each, best shown (default 5)")
    parser.add_argument("--spec", default="greedy-high", help="the strategy explained (default greedy-high)")
    options = parser.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}; best of {options.repeats}, CPU seconds")
    print(f"load before: {load()}")
    print(f"{'tiles':>5} {'rivals':>8} {'analyze':>8} {'explain':>8} {'ratio':>6}")
    for tiles, rivals in ((9, ()), (12, ()), (9, ("optimal",))):
        analyzed, explained = [], []
        for _ in range(options.repeats):  # side by side
            analyzed.append(seconds("analyze", options.spec, tiles, rivals))
            explained.append(seconds("explain", options.spec, tiles, rivals))
        plain, found = min(analyzed), min(explained)
        print(f"{tiles:>5} {' '.join(rivals) or '-':>8} {plain:>8.3f} {found:>8.3f} {found / plain:>6.1f}")
    print(f"load after: {load()}")


if __name__ == "__main__":
    main()
