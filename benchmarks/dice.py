"""Dice speed, measured (not tested): the counter-based dice in plain Python and in numpy, side by
side with the scheme they replaced (a blake2b hash of the key seeding a Mersenne Twister per stream).

Run: python benchmarks/dice.py [--streams N] [--rolls R] [--games G] [--repeats K]
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import random
from collections.abc import Callable, Iterator, Sequence
from itertools import islice

import numpy as np
from timing import best_seconds

from shutbox_cli.game import DICE_SCHEME, turn_rolls
from shutbox_cli.game.bulk_dice import rolls


def old_turn_rolls(seed: int, game: int, round_: int, seat: int) -> Iterator[tuple[int, int]]:
    """The previous scheme, as it was: a stream seeded from blake2b of its key."""
    text = "/".join(str(part) for part in ("dice", seed, game, round_, seat))
    rand = random.Random(int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")).random
    while True:
        yield int(rand() * 6) + 1, int(rand() * 6) + 1


def stream_costs(
    make: Callable[[int, int, int, int], Iterator[tuple[int, int]]], streams: int, rolls_each: int, repeats: int
) -> tuple[float, float]:
    """Seconds per stream opened (with its first roll) and per further roll of a stream."""
    opened = best_seconds(lambda: [next(make(7, game, 0, 1)) for game in range(streams)], repeats) / streams
    stream = make(7, 0, 0, 1)
    further = best_seconds(lambda: list(islice(stream, rolls_each * streams)), repeats) / (rolls_each * streams)
    return opened, further


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=20_000, help="streams opened per timed run (default 20000)")
    parser.add_argument("--rolls", type=int, default=10, help="rolls per stream, Python and numpy (default 10)")
    parser.add_argument("--games", type=int, default=1_000_000, help="games per numpy call (default 1000000)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per figure, the best kept (default 5)")
    options = parser.parse_args(argv)
    streams, rolls_each, repeats = options.streams, options.rolls, options.repeats

    print(
        f"Python {platform.python_version()}, numpy {np.__version__} on {platform.machine()} "
        f"({platform.system()}); dice scheme {DICE_SCHEME}; best of {repeats} runs, time.perf_counter"
    )
    old_open, old_roll = stream_costs(old_turn_rolls, streams, rolls_each, repeats)
    new_open, new_roll = stream_costs(turn_rolls, streams, rolls_each, repeats)
    games = np.arange(options.games)[:, np.newaxis]
    counters = np.arange(rolls_each)
    grid = best_seconds(lambda: rolls(7, games, 0, 1, counters), repeats) / (options.games * rolls_each)
    keyed_games = np.arange(options.games * rolls_each)
    keyed = best_seconds(lambda: rolls(7, keyed_games, 0, 1, 3), repeats) / (options.games * rolls_each)

    print()
    print(f"Opening a stream (its key and first roll), {streams:,} streams; each further roll:")
    print(f"  old scheme, per stream            {old_open * 1e6:7.2f} µs   {old_roll * 1e6:5.2f} µs")
    print(
        f"  new, plain Python                 {new_open * 1e6:7.2f} µs   {new_roll * 1e6:5.2f} µs"
        f"   ({old_open / new_open:.1f}x and {old_roll / new_roll:.1f}x faster)"
    )
    print()
    print(f"Rolls per second in streams of {rolls_each} rolls, opening included:")
    old_rate = rolls_each / (old_open + (rolls_each - 1) * old_roll)
    rates = [
        ("old scheme", old_rate),
        ("new, plain Python (turn_rolls)", rolls_each / (new_open + (rolls_each - 1) * new_roll)),
        (f"new, numpy: {options.games:,} games x {rolls_each} rolls", 1 / grid),
        (f"new, numpy: {options.games * rolls_each:,} keys x 1 roll", 1 / keyed),
    ]
    for name, rate in rates:
        print(f"  {name:44} {rate:14,.0f} /s   {rate / old_rate:7.1f}x the old")


if __name__ == "__main__":
    main()
