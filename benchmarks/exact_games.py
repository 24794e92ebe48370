"""Exact two-seat games, timed (not tested): every ordered pair of the default exact strategies
(optimal, max-shut, fewest-tiles, tips, greedy-high) in one round and in drop-out at 100, in
floats from the solver's distributions; and one round in fractions.

For each format it prints the time of one exact game (best of the repeats; the turn distributions
are computed once, untimed), its spread over the pairs, and the first seat's chance of winning
for every pair.

Run: python benchmarks/exact_games.py [--repeats R] [--drop-out L]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Sequence
from fractions import Fraction

from timing import best_seconds

from shutbox_cli.game import Rules, TurnOdds, distribution, exact_turn_odds, game_odds
from strategies.loading import load_strategy
from strategies.player import StrategyPlayer

STRATEGIES = ("optimal", "max-shut", "fewest-tiles", "tips", "greedy-high")


def players(rules: Rules) -> dict[str, StrategyPlayer]:
    found = {}
    for name in STRATEGIES:
        loaded = load_strategy(name)
        found[name] = StrategyPlayer(loaded.make(), rules, loaded.name)
    return found


def measure(rules: Rules, odds: dict[str, TurnOdds[float]] | dict[str, TurnOdds[Fraction]], repeats: int) -> None:
    """Time every ordered pair and print the times and the first seat's chances of winning."""
    times: list[float] = []
    wins: dict[tuple[str, str], float] = {}
    for first in STRATEGIES:
        for second in STRATEGIES:
            pair = [odds[first], odds[second]]
            times.append(best_seconds(lambda pair=pair: game_odds(rules, pair), repeats))
            wins[first, second] = float(game_odds(rules, pair).wins[0])
    print(
        f"  one game: median {statistics.median(times) * 1000:8.2f} ms   "
        f"fastest {min(times) * 1000:8.2f} ms   slowest {max(times) * 1000:8.2f} ms"
    )
    print("  the first seat's chance of winning (rows: first seat; columns: second seat)")
    print(f"  {'':>12}" + "".join(f"{name:>13}" for name in STRATEGIES))
    for first in STRATEGIES:
        print(f"  {first:>12}" + "".join(f"{wins[first, second]:13.5f}" for second in STRATEGIES))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per game (default 5)")
    parser.add_argument("--drop-out", type=int, default=100, help="the drop-out limit (default 100)")
    options = parser.parse_args(argv)
    print(
        f"Python {platform.python_version()} on {platform.machine()} ({platform.system()}); "
        f"{options.repeats} repeats, time.perf_counter"
    )
    for title, rules in (
        ("one round (instant win on)", Rules()),
        (f"drop-out at {options.drop_out} (instant win off)", Rules(drop_out=options.drop_out)),
    ):
        seated = players(rules)
        odds = {
            name: TurnOdds.of(distribution(rules, player.move_policy, player.dice_policy))
            for name, player in seated.items()
        }
        print(f"\n{title}, floats:")
        measure(rules, odds, options.repeats)
    rules = Rules()
    start = time.perf_counter()
    exact = {
        name: exact_turn_odds(rules, player.move_policy, player.dice_policy) for name, player in players(rules).items()
    }
    print(f"\none round, fractions (the five turn distributions in fractions: {time.perf_counter() - start:.2f} s):")
    measure(rules, exact, options.repeats)


if __name__ == "__main__":
    main()
