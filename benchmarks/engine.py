"""Engine speed, measured (not tested): exact-solve time for 9, 10 and 12 tiles, and complete
9-tile turns per second on one process with a precomputed policy.

Run: python benchmarks/engine.py [--turns N] [--repeats R]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable, Sequence

from shutbox_cli.game import Rules, moves, play_turn, solve_expected_score, solve_shut, solver, turn_rolls
from strategies.loading import load_strategy
from strategies.player import StrategyPlayer


def timings(job: Callable[[], object], repeats: int, before: Callable[[], None] = lambda: None) -> list[float]:
    """Seconds taken by `job` in each of `repeats` runs; `before` runs untimed ahead of each."""
    seconds = []
    for _ in range(repeats):
        before()
        start = time.perf_counter()
        job()
        seconds.append(time.perf_counter() - start)
    return seconds


def forget_everything() -> None:
    """Drop the cached solutions and move tables, so the next solve starts cold."""
    forget_solutions()
    moves._move_table.cache_clear()  # private: the benchmark wants a truly cold start
    moves._candidates.cache_clear()


def forget_solutions() -> None:
    solver._solve_expected_score.cache_clear()  # private, as above
    solver._solve_shut.cache_clear()


def describe(seconds: Sequence[float]) -> str:
    return f"best {min(seconds) * 1000:8.1f} ms   median {statistics.median(seconds) * 1000:8.1f} ms"


def turns_per_second(rules: Rules, chooser: object, turns: int, repeats: int) -> tuple[float, float]:
    """Best rate over the repeats of playing `turns` complete turns, each on its own dice
    stream, and the mean score (a check that the turns are real)."""
    scores: list[int] = []

    def job() -> None:
        scores.clear()
        scores.extend(play_turn(rules, turn_rolls(1, game, 0, 0), chooser).score for game in range(turns))

    best = min(timings(job, repeats))
    return turns / best, sum(scores) / turns


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=50_000, help="turns per timed run (default 50000)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per figure (default 5)")
    options = parser.parse_args(argv)

    print(
        f"Python {platform.python_version()} on {platform.machine()} ({platform.system()}); "
        f"{options.repeats} repeats, time.perf_counter"
    )
    print()
    print("Exact solve, lowest expected score (default rules):")
    for tiles in (9, 10, 12):
        rules = Rules(tiles=tiles)
        cold = timings(lambda rules=rules: solve_expected_score(rules), options.repeats, before=forget_everything)
        warm = timings(lambda rules=rules: solve_expected_score(rules), options.repeats, before=forget_solutions)
        print(f"  {tiles:2} tiles  cold (move table + solve)  {describe(cold)}")
        print(f"  {tiles:2} tiles  solve, move table cached   {describe(warm)}")
    both = timings(
        lambda: (solve_expected_score(Rules(tiles=12)), solve_shut(Rules(tiles=12))),
        options.repeats,
        before=forget_everything,
    )
    print(f"  12 tiles  cold, expected score + shut  {describe(both)}")

    print()
    print(f"Complete 9-tile turns per second, one process, {options.turns} turns per run:")
    rules = Rules()
    optimal = solve_expected_score(rules)
    rate, mean = turns_per_second(rules, optimal, options.turns, options.repeats)
    print(
        f"  optimal policy table (play_turn)     {rate:10,.0f} turns/s   mean score {mean:.3f}"
        f" (exact {optimal.value:.3f})",
        flush=True,
    )
    loaded = load_strategy("greedy-high")
    greedy = StrategyPlayer(loaded.make(), rules, loaded.name)
    rate, mean = turns_per_second(rules, greedy, options.turns, options.repeats)
    print(f"  greedy-high via StrategyPlayer       {rate:10,.0f} turns/s   mean score {mean:.3f}")


if __name__ == "__main__":
    main()
