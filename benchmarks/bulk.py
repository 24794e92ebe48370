"""The bulk engine's speed, measured (not tested), as ratios taken side by side in one run.

1. 9-tile turns of an exact strategy (optimal) on one core: the general engine (the strategy
   asked through its player at each decision), a plain Python loop over its table, and numpy in
   lockstep (dice included).
2. Tournaments of exact strategies only (optimal, max-shut, fewest-tiles, tips, greedy-high) on
   one core: two seats one round, `--drop-out 100`, `--table 4`; games per second.
3. 10,000,000 games of that field at -j 2 through the real command: wall time, and the peak of
   the resident memory of all its processes together (sampled from /proc, Linux).
4. With --baseline PATH (a checkout of an earlier commit): the default tournament, `shutbox
   tournament --seed 1 -j 1`, timed in both checkouts, best of --repeats; then each way a unit
   is played (`ENGINES`: a bulk field compiled and in numpy, a field with a user's context reader,
   `--general-engine`) through the real command at -j 1 in both checkouts, taking turns, best of
   --repeats, with the load average before and after (`--engines` measures just these).

Run: python benchmarks/bulk.py [--baseline PATH] [--repeats R] [--skip-ten-million] [--engines]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from timing import best_seconds

from shutbox_cli.game import Rules, play_turn, turn_rolls
from shutbox_cli.game.bulk import play_turns, turn_table
from shutbox_cli.game.bulk_dice import outcomes, stream_keys
from strategies.loading import load_strategy
from strategies.player import StrategyPlayer
from tournaments import InProcess, Options, load_config, run

ROOT = Path(__file__).resolve().parent.parent
FIELD = ("optimal", "max-shut", "fewest-tiles", "tips", "greedy-high")
FIELD_FLAGS = tuple(flag for strategy in FIELD for flag in ("-s", strategy))


def best_rate(count: int, job: Callable[[], object], repeats: int) -> float:
    """The highest of `repeats` rates, `count` per second."""
    return count / best_seconds(job, repeats)


def turn_table_loop(rules: Rules, rows: list[list[int]], count: int) -> None:
    """The plain CPython table loop, the reference of "games per turn": `count` turns of a table
    (`turn_table(...).tolist()`) walked on `turn_rolls`' dice."""
    for game in range(count):
        mask = rules.full_box
        for first, second in turn_rolls(1, game, 0, 0):
            after = rows[mask][6 * first + second - 7]
            if after <= 0:
                break
            mask = after


def turns(repeats: int) -> None:
    rules = Rules()
    player = StrategyPlayer(load_strategy("optimal").make(), rules)
    table = turn_table(rules, player.move_policy, player.dice_policy)
    rows = table.tolist()

    def general(count: int = 20_000) -> None:
        for game in range(count):
            play_turn(rules, turn_rolls(1, game, 0, 0), player)

    def python_table(count: int = 100_000) -> None:
        turn_table_loop(rules, rows, count)

    def bulk(count: int = 1_000_000) -> None:
        keys = stream_keys(1, np.arange(count), 0, 0)
        play_turns(table, rules.full_box, count, lambda k, live: outcomes(keys[live], k))

    rates = {
        "general engine": best_rate(20_000, general, repeats),
        "Python table loop": best_rate(100_000, python_table, repeats),
        "numpy in lockstep": best_rate(1_000_000, bulk, repeats),
    }
    print("\n9-tile turns of optimal, one core (dice included):")
    for name, rate in rates.items():
        print(f"  {name:<18} {rate:>13,.0f} turns/s  {rate / rates['Python table loop']:6.2f}x the table loop")


def tournaments(repeats: int) -> None:
    print("\nExact field (5 strategies), one core, in this process:")
    for label, options in (
        ("2 seats, one round", {"games": 200_000}),
        ("2 seats, --drop-out 100", {"games": 40_000, "rules": {"drop_out": 100}}),
        ("--table 4", {"games": 200_000, "table": 4}),
    ):
        config = load_config(None, Options(strategies=FIELD, seed=1, **options))  # type: ignore[arg-type]
        games = config.games * (10 if config.table == 2 else 5)
        rate = best_rate(games, lambda config=config: run(config, backend=InProcess()), repeats)
        print(f"  {label:<24} {rate:>11,.0f} games/s")


def tree_rss_mb(root: int) -> float:
    """The resident memory of a process and all its descendants, in MB."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parents[int(entry)] = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    family, grew = {root}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in family} - family
        family |= more
        grew = bool(more)
    total = 0.0
    for pid in family:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
        except OSError:
            continue
    return total


def ten_million() -> None:
    field = [argument for spec in FIELD for argument in ("-s", spec)]
    command = [sys.executable, "-m", "shutbox_cli", "tournament", *field, "--games", "1000000", "--seed", "1"]
    start = time.perf_counter()
    process = subprocess.Popen([*command, "-j", "2", "-q"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    peak = 0.0
    while process.poll() is None:
        peak = max(peak, tree_rss_mb(process.pid))
        time.sleep(0.05)
    seconds = time.perf_counter() - start
    print(
        f"\n10,000,000 games of the exact field at -j 2: {seconds:.1f} s wall, "
        f"peak memory of all processes {peak:.0f} MB"
    )
    print(f"  {process.communicate()[0].strip()}")


def default_tournament(baseline: Path, repeats: int) -> None:
    def timed(folder: Path) -> float:
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "shutbox_cli", "tournament", "--seed", "1", "-j", "1", "-q"],
                cwd=folder,
                check=True,
                capture_output=True,
            )
            best = min(best, time.perf_counter() - start)
        return best

    now, before = timed(ROOT), timed(baseline)
    print(f"\nDefault tournament, -j 1, whole command: this checkout {now:.2f} s, baseline {before:.2f} s")
    print(f"  {before / now:.1f}x faster")
    play_now, play_before = played(ROOT, NOW, repeats), played(baseline, BEFORE, repeats)
    print(f"Default tournament, -j 1, playing only (after imports): {play_now:.2f} s, baseline {play_before:.2f} s")
    print(f"  {play_before / play_now:.1f}x faster")


READER = str(ROOT / "tests" / "data" / "context_reader.py") + ":Reader"
ENGINES: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "bulk field, compiled": (("-n", "400000", *FIELD_FLAGS), {"SHUTBOX_KERNEL": "numba"}),
    "bulk field, numpy": (("-n", "100000", *FIELD_FLAGS), {"SHUTBOX_KERNEL": "numpy"}),
    "drop-out, playoff, compiled": (
        ("-n", "40000", *FIELD_FLAGS, "--drop-out", "100", "--ties", "playoff"),
        {"SHUTBOX_KERNEL": "numba"},
    ),
    "keyed (target), compiled": (("-n", "100000", "-s", "target", *FIELD_FLAGS[:4]), {"SHUTBOX_KERNEL": "numba"}),
    "context reader (game by game)": (("-n", "4000", "-s", READER, "-s", "optimal", "-s", "greedy-high"), {}),
    "--general-engine": (("-n", "1000", "-s", READER, "-s", "optimal", "-s", "greedy-high", "--general-engine"), {}),
}
"""Each way of playing a unit, as the real command's flags (after `tournament --seed 1 -j 1 -q`)
and the environment that chooses the bulk engine."""


def engines(baseline: Path, repeats: int) -> None:
    """Each of `ENGINES` timed in this checkout and the baseline, taking turns (a first run of each,
    untimed, fills numba's cache): the best wall time, and the best processor time of the command
    and every process it started (its hosts too), which a busy machine disturbs less."""
    print(f"\nEach way of playing a unit, whole command at -j 1, best of {repeats}, this checkout against {baseline}:")
    print(f"  load average before: {Path('/proc/loadavg').read_text().strip()}")
    for label, (flags, environment) in ENGINES.items():
        command = [sys.executable, "-m", "shutbox_cli", "tournament", "--seed", "1", "-j", "1", "-q", *flags]
        wall = {ROOT: float("inf"), baseline: float("inf")}
        cpu = dict(wall)
        for run_number in range(repeats + 1):
            for folder in wall:
                start, used = time.perf_counter(), _children_cpu()
                subprocess.run(command, cwd=folder, check=True, capture_output=True, env={**os.environ, **environment})
                if run_number:
                    wall[folder] = min(wall[folder], time.perf_counter() - start)
                    cpu[folder] = min(cpu[folder], _children_cpu() - used)
        print(
            f"  {label:<30} wall this {wall[ROOT]:5.2f} s, baseline {wall[baseline]:5.2f} s: "
            f"{wall[baseline] / wall[ROOT]:.2f}x; CPU this {cpu[ROOT]:5.2f} s, baseline {cpu[baseline]:5.2f} s: "
            f"{cpu[baseline] / cpu[ROOT]:.2f}x"
        )
    print(f"  load average after: {Path('/proc/loadavg').read_text().strip()}")


def _children_cpu() -> float:
    """Processor seconds (user and system) of every process this one has started and waited for."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


NOW = """
from tournaments import InProcess, Options, load_config, run
config = load_config(None, Options(seed=1))
play = lambda: run(config, backend=InProcess())
"""
BEFORE = """
from tournaments.field.config import Options, load_config
from tournaments.playing.plan import make_plan
from tournaments.run import run_tournament
import dataclasses
config = dataclasses.replace(load_config(None, Options()), seed=1)
play = lambda: run_tournament(make_plan(config), 1)
"""
"""How each checkout's library plays the default tournament in this process."""


def played(folder: Path, setup: str, repeats: int) -> float:
    """The best time of the default tournament played by a checkout's library, imports excluded
    (each run in a fresh process, so nothing is kept from one run to the next)."""
    timing = "import time\nstart = time.perf_counter()\nplay()\nprint(time.perf_counter() - start)"
    return min(
        float(
            subprocess.run(
                [sys.executable, "-c", setup + timing], cwd=folder, check=True, capture_output=True, text=True
            ).stdout
        )
        for _ in range(repeats)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="a checkout of an earlier commit to compare with")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-ten-million", action="store_true")
    parser.add_argument("--engines", action="store_true", help="only each way of playing a unit against --baseline")
    arguments = parser.parse_args()
    if arguments.engines:
        engines(arguments.baseline, arguments.repeats)
        return
    print(f"Python {platform.python_version()}, numpy {np.__version__} on {platform.machine()}, {os.cpu_count()} cores")
    turns(arguments.repeats)
    tournaments(arguments.repeats)
    if not arguments.skip_ten_million:
        ten_million()
    if arguments.baseline is not None:
        default_tournament(arguments.baseline, arguments.repeats)
        engines(arguments.baseline, arguments.repeats)


if __name__ == "__main__":
    main()
