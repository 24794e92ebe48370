"""The compiled bulk kernel (the `fast` extra) against the numpy engine and a plain table loop,
measured (not tested), side by side in one run; needs numba.

1. Compile: the kernel compiled from nothing in a fresh process (its cache folder empty), then
   read back from the cache in another; CPU seconds of a run of a tiny unit, medians of several
   such pairs, for the common unit (one round) and the variants that compile more (a keyed
   strategy; drop-outs and playoffs).
2. Bulk units of an exact field (optimal, max-shut, fewest-tiles, tips, greedy-high), one core,
   in this process: games per CPU-second inside the unit (the unit's turn tables made
   beforehand), for two seats one round, `--drop-out 100` and `--table 4`; compiled, numpy, and
   (two seats one round) a plain Python loop over the same tables and dice.
3. With --baseline PATH (a checkout of an earlier commit): the kernel's games per CPU-second in
   the unit in this checkout and the baseline, each in a fresh process, taking turns (best of
   --repeats each), for a 3-strategy exact field (issue 38's first row), the default field (random's
   turns given), the cases of 2. and a keyed field with drop-outs and playoffs; then the whole
   command of issue 38's second row (6M games of the 3-strategy field, -j 1) in both, and its
   games per turn of a plain CPython table loop. A baseline checkout without a venv of its own:
   `git archive COMMIT | tar -x -C /tmp/base`, run from there with this venv's Python.
4. With --hundred-million: 100,000,000 games of a 3-strategy exact field (optimal, max-shut,
   greedy-high) through the real command at -j 2: wall time and the peak of the resident memory
   of all its processes together (sampled from /proc, Linux).

Run: python benchmarks/kernel.py [--repeats R] [--compiles C] [--baseline PATH] [--hundred-million]

Measured for issue 38 against the commit before it (f708ce6, `git archive` into a folder, run with
this venv), --repeats 2, load 4.3-4.9 on 2 cores: games per CPU-s in the unit, 3-strategy exact
field 45.6M / 9.7M (4.68x), two seats one round 52.7M / 11.7M (4.50x), --drop-out 100 3.88M /
2.65M (1.46x), --table 4 11.5M / 6.3M (1.82x), keyed with drop-out and playoffs 1.58M / 1.13M
(1.39x), the default field (random's turns given, played in Python) 0.79M / 0.76M; the whole
command (6M games, -j 1) 0.80 / 1.27 CPU-s (1.60x), 33.7 / 21.1 games per turn of the table loop
(223k turns/CPU-s). At a load of 7.2 the 3-strategy field's units played 40M games/CPU-s.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from bulk import ROOT, tree_rss_mb, turn_table_loop

from shutbox_cli.game import Rules, kernel, turn_rolls
from shutbox_cli.game.bulk import turn_table
from strategies.loading import load_strategy
from strategies.player import StrategyPlayer
from tournaments import Options, load_config
from tournaments.playing.plan import make_plan
from tournaments.playing.units import UnitPlayer

FIELD = ("optimal", "max-shut", "fewest-tiles", "tips", "greedy-high")
COMPILE = """
import json, sys, time
from tournaments import InProcess, Options, load_config, run
config = load_config(None, Options(games=2, seed=1, **json.loads(sys.argv[1])))
start = time.process_time()
run(config, backend=InProcess())
print(time.process_time() - start)
"""
COMPILED = {
    "one round": {"strategies": ["optimal", "greedy-high"]},
    "keyed (target)": {"strategies": ["optimal", "target"]},
    "drop-out, playoffs": {"strategies": ["optimal", "greedy-high"], "rules": {"drop_out": 100, "ties": "playoff"}},
}


def compile_seconds(runs: int) -> None:
    print(f"\nCompile, CPU seconds of a tiny run (median of {runs}, in turn), first from an empty cache, then from it:")
    for label, options in COMPILED.items():
        first, cached = [], []
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as cache:
                environment = {**os.environ, "NUMBA_CACHE_DIR": cache}
                command = [sys.executable, "-c", COMPILE, json.dumps(options)]
                for seconds in (first, cached):
                    done = subprocess.run(command, env=environment, check=True, capture_output=True, text=True)
                    seconds.append(float(done.stdout))
        print(f"  {label:<20} first {statistics.median(first):.2f}, cached {statistics.median(cached):.2f}")


def cpu_rate(games: int, job: Callable[[], object], repeats: int) -> float:
    """The highest of `repeats` rates, games per CPU-second of this process."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        job()
        best = min(best, time.process_time() - start)
    return games / best


def units(repeats: int) -> None:
    print("\nBulk units of the exact field (5 strategies), one core, games per CPU-second in the unit:")
    for label, options in (
        ("2 seats, one round", {"games": 100_000}),
        ("2 seats, --drop-out 100", {"games": 20_000, "rules": {"drop_out": 100}}),
        ("--table 4", {"games": 50_000, "table": 4}),
    ):
        plan = make_plan(load_config(None, Options(strategies=FIELD, seed=1, **options)))  # type: ignore[arg-type]
        player = UnitPlayer(plan)
        bulk = [unit for unit in plan.units() if unit.bulk]
        games = sum(unit.deals * plan.table * len(unit.matchups) for unit in bulk)
        rates = {}
        for engine in ("numba", "numpy"):
            os.environ[kernel.SWITCH] = engine
            player.bulk.play(bulk[0])  # tables made (and the kernel compiled) before the clock starts
            rates[engine] = cpu_rate(
                games, lambda player=player, bulk=bulk: [player.bulk.play(u) for u in bulk], repeats
            )
        if plan.table == 2 and plan.config.rules.drop_out is None:
            rates["table loop"] = cpu_rate(*table_loop(player, plan), repeats)
        player.close()
        shown = "  ".join(f"{name} {rate:>11,.0f}" for name, rate in rates.items())
        print(f"  {label:<24} {shown}  compiled {rates['numba'] / rates['numpy']:.1f}x numpy")
    os.environ.pop(kernel.SWITCH)


RATE = """
import json, os, sys, time
from tournaments import Options, load_config
from tournaments.playing.plan import make_plan
from tournaments.playing.units import UnitPlayer
os.environ["SHUTBOX_KERNEL"] = "numba"
plan = make_plan(load_config(None, Options(seed=1, **json.loads(sys.argv[1]))))
player = UnitPlayer(plan)
bulk = [unit for unit in plan.units() if unit.bulk]
player.bulk.play(bulk[0])  # tables made (and the kernel compiled) before the clock starts
best = float("inf")
for _ in range(int(sys.argv[2])):
    start = time.process_time()
    for unit in bulk:
        player.bulk.play(unit)
    best = min(best, time.process_time() - start)
print(sum(unit.deals * plan.table * len(unit.matchups) for unit in bulk) / best)
"""
"""A checkout's kernel rate: games per CPU-second of its bulk units, the best of argv[2] runs."""
SIDE_BY_SIDE = {
    "3-strategy exact field": {"strategies": ("optimal", "greedy-high", "tips"), "games": 1_000_000},
    "default field (random given)": {
        "strategies": ("greedy-high", "optimal", "max-shut", "tips", "random", "fewest-tiles"),
        "games": 40_000,
    },
    "2 seats, one round": {"strategies": FIELD, "games": 100_000},
    "2 seats, --drop-out 100": {"strategies": FIELD, "games": 20_000, "rules": {"drop_out": 100}},
    "--table 4": {"strategies": FIELD, "games": 50_000, "table": 4},
    "keyed, drop-out, playoff": {
        "strategies": ("optimal", "target", "greedy-high"),
        "games": 20_000,
        "rules": {"drop_out": 100, "ties": "playoff"},
    },
}


def against(baseline: Path, repeats: int) -> None:
    """The kernel's rate in this checkout and the baseline, each in fresh processes, taking turns."""
    print(f"\nThe kernel, games per CPU-second in the unit, this checkout against {baseline}:")
    print(f"  load average before: {Path('/proc/loadavg').read_text().strip()}")
    for label, options in SIDE_BY_SIDE.items():
        best = {ROOT: 0.0, baseline: 0.0}
        for _ in range(repeats):
            for folder in best:
                command = [sys.executable, "-c", RATE, json.dumps(options), str(repeats)]
                done = subprocess.run(command, cwd=folder, check=True, capture_output=True, text=True)
                best[folder] = max(best[folder], float(done.stdout))
        now, before = best[ROOT], best[baseline]
        print(f"  {label:<26} this {now:>11,.0f}  baseline {before:>11,.0f}  {now / before:.2f}x")
    print(f"  load average after: {Path('/proc/loadavg').read_text().strip()}")


WHOLE = [
    "tournament",
    "-s",
    "optimal",
    "-s",
    "greedy-high",
    "-s",
    "tips",
    "--games",
    "2000000",
    "-j",
    "1",
    "--seed",
    "1",
]
"""The whole command of issue 38's second row: 6,000,000 games of a 3-strategy exact field at -j 1."""


def whole_command(baseline: Path, repeats: int) -> None:
    """The whole command's CPU-s (it and its children) in this checkout and the baseline, taking
    turns, each module's bytecode kept (as installed), best of `repeats`; and its games per turn of a
    plain CPython table loop (optimal's table walked in Python on `turn_rolls`' dice) measured here."""
    rules = Rules()
    optimal = StrategyPlayer(load_strategy("optimal").make(), rules)
    rows = turn_table(rules, optimal.move_policy, optimal.dice_policy).tolist()

    def loop(count: int = 50_000) -> None:
        turn_table_loop(rules, rows, count)

    print(f"\nWhole command, shutbox {' '.join(WHOLE)}, CPU-s, best of {repeats}, this against {baseline}:")
    print(f"  load average before: {Path('/proc/loadavg').read_text().strip()}")
    best = {ROOT: float("inf"), baseline: float("inf")}
    turns = 0.0
    with tempfile.TemporaryDirectory() as cache:
        environment = {**os.environ, "PYTHONPYCACHEPREFIX": cache}
        environment.pop("PYTHONDONTWRITEBYTECODE", None)
        environment.pop(kernel.SWITCH, None)
        for run in range(repeats + 1):  # a first run of each, untimed, fills the caches
            for folder in best:
                used = _children_cpu()
                command = [sys.executable, "-m", "shutbox_cli", *WHOLE, "-q"]
                subprocess.run(command, cwd=folder, env=environment, check=True, capture_output=True)
                if run:
                    best[folder] = min(best[folder], _children_cpu() - used)
            turns = max(turns, cpu_rate(50_000, loop, 1))
    games = 6_000_000
    for folder, seconds in best.items():
        name = "this" if folder == ROOT else "baseline"
        rate = games / seconds
        print(f"  {name:<9} {seconds:5.2f} CPU-s, {rate:>11,.0f} games/CPU-s, {rate / turns:5.1f} games per turn")
    print(f"  the table loop: {turns:,.0f} turns/CPU-s; this {best[baseline] / best[ROOT]:.2f}x the baseline")
    print(f"  load average after: {Path('/proc/loadavg').read_text().strip()}")


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def table_loop(player: UnitPlayer, plan: object) -> tuple[int, Callable[[], object]]:
    """Two-seat one-round games of every pair, played in plain Python from the same tables."""
    rows = [player.bulk.table(index).tolist() for index in range(len(FIELD))]
    full, deals = (1 << 9) - 1, 4_000
    scores = [sum(tile for tile in range(1, 10) if mask >> (tile - 1) & 1) for mask in range(full + 1)]
    pairs = [(one, other) for one in range(len(FIELD)) for other in range(one + 1, len(FIELD))]

    def turn(table: list[list[int]], game: int, seat: int) -> int:
        mask = full
        for first, second in turn_rolls(1, game, 0, seat):
            after = table[mask][6 * first + second - 7]
            if after <= 0:
                return 0 if after == 0 else mask
            mask = after
        return mask

    def play() -> list[int]:
        wins = []
        for one, other in pairs:
            for game in range(deals):
                for first, second in ((one, other), (other, one)):
                    a = scores[turn(rows[first], game, 0)]
                    b = 0 if a == 0 else scores[turn(rows[second], game, 1)]
                    wins.append(a <= b)
        return wins

    return len(pairs) * deals * 2, play


def hundred_million() -> None:
    field = [argument for spec in ("optimal", "max-shut", "greedy-high") for argument in ("-s", spec)]
    command = [sys.executable, "-m", "shutbox_cli", "tournament", *field, "--games", "33333334", "--seed", "1"]
    start = time.perf_counter()
    process = subprocess.Popen([*command, "-j", "2", "-q"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    peak = 0.0
    while process.poll() is None:
        peak = max(peak, tree_rss_mb(process.pid))
        time.sleep(0.1)
    seconds = time.perf_counter() - start
    print(f"\n100,000,002 games, 3-strategy exact field, -j 2: {seconds:.1f} s wall, peak memory {peak:.0f} MB")
    print(f"  {process.communicate()[0].strip()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--compiles", type=int, default=3, help="fresh compiles of each kind, for the median")
    parser.add_argument("--hundred-million", action="store_true")
    parser.add_argument("--baseline", type=Path, help="a checkout of an earlier commit: the kernel against its own")
    arguments = parser.parse_args()
    print(f"Python {platform.python_version()}, numpy {np.__version__} on {platform.machine()}, {os.cpu_count()} cores")
    if arguments.baseline is not None:
        against(arguments.baseline, arguments.repeats)
        whole_command(arguments.baseline, arguments.repeats)
        return
    compile_seconds(arguments.compiles)
    units(arguments.repeats)
    if arguments.hundred_million:
        hundred_million()


if __name__ == "__main__":
    main()
