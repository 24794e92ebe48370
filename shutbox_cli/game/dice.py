"""Dice streams keyed by position, not history.

The dice that seat s meets in round r of game g are a pure function of
(seed, g, r, s): reports do not depend on worker counts, run order or decisions
made at the table, and two strategies in the same seat of the same game meet the
same dice. Every roll draws two dice; a one-die roll uses the first of them, so even
the choice of one die or two does not shift later rolls.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator


def derive_seed(*key: object) -> int:
    """A 64-bit seed from a key of ints and strings, stable across runs and machines."""
    text = "/".join(str(part) for part in key)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def turn_rolls(seed: int, game: int, round_: int, seat: int) -> Iterator[tuple[int, int]]:
    """The endless stream of two-dice rolls for one seat's turn in one round of one game."""
    rand = random.Random(derive_seed("dice", seed, game, round_, seat)).random
    while True:
        yield int(rand() * 6) + 1, int(rand() * 6) + 1


def draw_seed() -> int:
    """A fresh random seed for a run that was given none (printed so it can be repeated)."""
    return random.SystemRandom().randrange(10**9)
