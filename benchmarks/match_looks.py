"""What an SPRT's looks cost a match, measured (not tested): a match of `optimal` against
`fewest-tiles` whose test cannot decide in its budget (elo0=4.3 elo1=4.5, about their true
difference), played in this process with its looks after every block of 128 games and, side by
side in the same run, after each unit of 2,048 only (as before blocks); best of --repeats, for the
numpy engine and the compiled kernel, with the load average.

Run: python benchmarks/match_looks.py [--games N] [--repeats R]
"""

from __future__ import annotations

import argparse
import os
import time

from tournaments import InProcess, Options, Sprt, play_match
from tournaments.running import runner

TEST = Sprt(4.3, 4.5)


def best(games: int, look: int, repeats: int) -> float:
    """The fastest of `repeats` matches, in seconds, looking every `look` games (0: after each unit)."""
    runner.MATCH_LOOK_GAMES = look
    options = Options(strategies=["optimal", "fewest-tiles"], games=games, seed=7)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        play_match(options, TEST, backend=InProcess())
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=3)
    arguments = parser.parse_args()
    blocks = runner.MATCH_LOOK_GAMES
    print(f"load average {os.getloadavg()[0]:.2f}; {arguments.games:,} games, best of {arguments.repeats}")
    for engine in ("numpy", "numba"):
        os.environ["SHUTBOX_KERNEL"] = engine
        best(2048, blocks, 1)  # numba compiles, the tables are made
        units = best(arguments.games, 0, arguments.repeats)
        looked = best(arguments.games, blocks, arguments.repeats)
        print(
            f"{engine}: looks every {blocks} games {looked:.2f} s, after each unit {units:.2f} s: "
            f"{looked / units:.2f} times as long"
        )
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
