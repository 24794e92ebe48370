"""What the normalized SPRT costs beside the logistic one, measured (not tested): one look (the
LLR of a pentanomial, and the match's Elo and nElo), timed side by side for both models, and a
match of `optimal` against `fewest-tiles` whose test cannot decide in its budget, played in this
process under each model; best of --repeats, with the load average.

Run: python benchmarks/nelo_looks.py [--games N] [--repeats R]
"""

from __future__ import annotations

import argparse
import os
import time
import timeit

from tournaments import InProcess, Options, Sprt, play_match
from tournaments.statistics.elo import elo_estimate
from tournaments.statistics.pairs import Pentanomial

PAIRS = Pentanomial((229, 44, 7080, 64, 327))
"""A match's pairs after 15,488 games of optimal against fewest-tiles (seed 3)."""
TESTS = {"logistic": Sprt(4.3, 4.5), "normalized": Sprt(11.2, 11.4, model="normalized")}
"""Tests about the two strategies' true difference, in each model's unit: neither decides soon."""


def look(sprt: Sprt, repeats: int) -> float:
    """The fastest of `repeats` rounds of 200 looks, in milliseconds a look."""
    rounds = timeit.repeat(lambda: (sprt.llr(PAIRS), elo_estimate(PAIRS)), number=200, repeat=repeats)
    return min(rounds) / 200 * 1000


def match(sprt: Sprt, games: int, repeats: int) -> tuple[float, int]:
    """The fastest of `repeats` matches, in seconds, and the games it played (fewer if it decided)."""
    options = Options(strategies=["optimal", "fewest-tiles"], games=games, seed=7)
    times, played = [], 0
    for _ in range(repeats):
        start = time.perf_counter()
        played = play_match(options, sprt, backend=InProcess()).games
        times.append(time.perf_counter() - start)
    return min(times), played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=3)
    arguments = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; {arguments.games:,} games, best of {arguments.repeats}")
    match(TESTS["logistic"], 2048, 1)  # the tables are made, the kernel compiled
    looks = {name: look(sprt, arguments.repeats) for name, sprt in TESTS.items()}
    matches = {name: match(sprt, arguments.games, arguments.repeats) for name, sprt in TESTS.items()}
    for name in TESTS:
        seconds, played = matches[name]
        print(f"{name}: a look {looks[name]:.3f} ms, the match {seconds:.2f} s for {played:,} games")
    ratio = matches["normalized"][0] / matches["logistic"][0]
    look_ratio = looks["normalized"] / looks["logistic"]
    print(f"normalized / logistic: a look {look_ratio:.2f} times as long, the match {ratio:.2f}")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
