"""Processor time of a cheat sheet's parts (`shutbox explain optimal --sheet`), measured (not tested):
the search for the best rule of thumb (every rule of the family with every dice rule, scored
exactly), the greedy exceptions, and the whole `cheat_sheet` call, on 9 and 12 tiles, each the
median of a few runs with its caches cleared; and the whole command as a fresh process. The load
average is printed with them: the machine may be shared.

Run: python benchmarks/sheet.py [--runs N]

Measured on a 2-core machine at a load average of 4.8 to 5.0, 3 runs (CPU-s, 9 tiles / 12 tiles):
the search 0.22 / 0.88, the 5 exceptions 0.09 / 0.59, the call 0.34 / 2.1, the command 0.68 / 2.7.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from shutbox_cli.game import Rules, solve_expected_score
from shutbox_cli.game.thumb_exceptions import SheetPlay, find_overrides
from shutbox_cli.game.thumb_search import _turn, rule_search, score_terminal
from tournaments import cheat_sheet, seat_strategy

SHUTBOX = str(Path(sys.executable).parent / "shutbox")


def cpu(work: Callable[[], object]) -> float:
    """The processor seconds of one call, the search's caches of the rule set cleared first."""
    _turn.cache_clear()
    start = time.process_time()
    work()
    return time.process_time() - start


def command_cpu(arguments: list[str]) -> float:
    """User + system seconds of the command run as a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([SHUTBOX, *arguments], stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measured(tiles: int, runs: int) -> str:
    """One line of the parts' CPU-s on a box of `tiles`, the median of `runs` each."""
    rules = Rules(tiles=tiles)
    best = solve_expected_score(rules)
    terminal = score_terminal(rules).tolist()
    rule = rule_search(rules)[0].rule

    def sheet() -> None:
        with seat_strategy("optimal", rules) as optimal:
            cheat_sheet(optimal)

    parts = {
        "the search": lambda: rule_search(rules),
        "5 exceptions": lambda: find_overrides(SheetPlay(rules, rule), (best.best_move, best.best_dice), terminal, 5),
        "cheat_sheet": sheet,
    }
    said = [f"{name} {statistics.median(cpu(work) for _ in range(runs)):.3f}" for name, work in parts.items()]
    whole = statistics.median(
        command_cpu(["explain", "optimal", "--sheet", "--tiles", str(tiles)]) for _ in range(runs)
    )
    return f"{tiles} tiles, CPU-s (median of {runs}): {', '.join(said)}, the command {whole:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    print(f"load average before: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    for tiles in (9, 12):
        print(measured(tiles, runs))
    print(f"load average after: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
