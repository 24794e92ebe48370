"""Tabulation cost, measured (not tested): the time to ask a tabulable strategy every question
of a rule set (`strategies.table.tabulate`), for optimal and greedy-high on 9 and 12 tiles,
without and with numpy loaded (its global generator is then seeded before each question too).

Run: python benchmarks/tabulate.py [--repeats R]
"""

from __future__ import annotations

import argparse
import importlib.util
import platform
import statistics
import time
from collections.abc import Sequence

from shutbox_cli.game import Rules, solve_expected_score
from strategies.loading import load_strategy
from strategies.table import tabulate


def seconds(name: str, rules: Rules, repeats: int) -> list[float]:
    """Seconds per whole tabulation (solver warm: the strategy's own work is not the point)."""
    loaded = load_strategy(name)
    found = []
    for _ in range(repeats):
        strategy = loaded.make()
        start = time.perf_counter()
        tabulate(strategy, rules, name)
        found.append(time.perf_counter() - start)
    return found


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per figure (default 5)")
    options = parser.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}; {options.repeats} repeats, best and median")
    for tiles in (9, 12):
        solve_expected_score(Rules(tiles=tiles))  # solved once: optimal's own work is not what is measured
    for numpy_loaded in (False, True):
        if numpy_loaded:
            if importlib.util.find_spec("numpy") is None:
                print("numpy is not installed: no figures with it loaded.")
                break
            import numpy  # noqa: F401 - loaded, so tabulation seeds its global generator too
        print(f"numpy {'loaded' if numpy_loaded else 'not loaded'}:")
        for name in ("optimal", "greedy-high"):
            for tiles in (9, 12):
                found = seconds(name, Rules(tiles=tiles), options.repeats)
                print(
                    f"  {name:<12} {tiles:2} tiles  best {min(found) * 1000:7.1f} ms"
                    f"   median {statistics.median(found) * 1000:7.1f} ms"
                )


if __name__ == "__main__":
    main()
