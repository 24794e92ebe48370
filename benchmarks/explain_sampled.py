"""What `explain` on sampled states costs beside `analyze`'s simulation of as many turns, and what the
turn loop they share (`analysis.solo_turns`) costs beside the loop `simulate` had before it, timed
(not tested): each pair side by side, repeat after repeat, so that the load falls on both alike; the
figure is the best wall-clock seconds of the library call (a user's strategy answers in its host),
and the ratio. The load average is printed before and after.

Run: python benchmarks/explain_sampled.py [--repeats R] [--turns N]
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from shutbox_cli.game import Rules, play_turn, turn_rolls
from strategies.base import SOLO_CONTEXT
from tournaments import SeatedStrategy, analyze, explain, seat_strategy
from tournaments.exact.analysis import BATCH, solo_turns

SPECS = ("random", "tests/data/turn_reader.py:FirstRollHigh")
"""A stochastic strategy in this process, and a user's that reads its turn, in its host."""


def before(seated: SeatedStrategy, turns: int, seed: int) -> None:
    """The turn loop of `simulate` as it was before `solo_turns` (scores counted, nothing else)."""
    rules = seated.rules
    player = seated.player()
    total = 0
    for game in range(turns):
        if game % BATCH == 0:
            starts = [(SOLO_CONTEXT, seed, ahead) for ahead in range(game, min(turns, game + BATCH))]
            seated.prefetch(player, starts)
        player.start_turn(SOLO_CONTEXT, seed, game)
        total += play_turn(rules, turn_rolls(seed, game, 0, 0), player).score


def after(seated: SeatedStrategy, turns: int, seed: int) -> None:
    """The same turns through `solo_turns`."""
    total = 0
    for record in solo_turns(seated, turns, seed):
        total += record.score


def best(call: Callable[[], object], repeats: int) -> float:
    found = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        found.append(time.perf_counter() - start)
    return min(found)


def load() -> str:
    return Path("/proc/loadavg").read_text().strip() if Path("/proc/loadavg").exists() else "unknown"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs of each, best shown (default 5)")
    parser.add_argument("--turns", type=int, default=20_000, help="turns (games) of each run (default 20,000)")
    options = parser.parse_args(argv)
    turns, repeats = options.turns, options.repeats
    print(f"Python {platform.python_version()} on {platform.machine()}; best of {repeats}, seconds; {turns:,} turns")
    print(f"load before: {load()}")
    print(f"{'strategy':<54} {'a':>8} {'b':>8} {'b / a':>6}")
    for spec in SPECS:
        with seat_strategy(spec, Rules()) as seated:
            pairs = {
                "loop before / solo_turns": (
                    lambda: before(seated, turns, 1),
                    lambda: after(seated, turns, 1),
                ),
                "analyze (simulate) / explain (sampled)": (
                    lambda: analyze(seated, turns, 1),
                    lambda: explain(seated, games=turns, seed=1),
                ),
            }
            for what, (first, second) in pairs.items():
                a = b = float("inf")
                for _ in range(repeats):  # side by side
                    a, b = min(a, best(first, 1)), min(b, best(second, 1))
                print(f"{spec.rsplit(':', 1)[-1] + ': ' + what:<54} {a:>8.3f} {b:>8.3f} {b / a:>6.2f}")
    print(f"load after: {load()}")


if __name__ == "__main__":
    main()
