"""Dice streams keyed by position, not history: a counter-based scheme (docs/dice.md).

Roll k of the stream (seed, game, round, seat) is a pure function of those five integers:
reports do not depend on worker counts, run order or decisions made at the table, and two
strategies in the same seat of the same game meet the same dice. The stream key is absorbed
from the four key integers through the SplitMix64 mixer; roll k is then SplitMix64's output
k + 1 from that key, one 64-bit word per roll, mapped by multiply-shift to one of the 36
ordered (die 1, die 2) outcomes. Every roll draws both dice; a one-die roll uses the first,
so even the choice of one die or two does not shift later rolls. `bulk_dice` computes the
same bits with numpy.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator

from .terms import GameNumber, Seed

DICE_SCHEME = "splitmix64-v1"
"""The dice scheme's name and version, recorded by reports."""

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
"""SplitMix64's step from one roll to the next: 2^64 over the golden ratio, rounded down (odd)."""
ABSORB = 0xBB67AE8584CAA73B
"""The step when absorbing a key part (the fractional part of sqrt(3), SHA-512's second initial
word): another step than GAMMA, so absorbing the key and counting rolls never walk the same path."""
MIX_1 = 0xBF58476D1CE4E5B9
MIX_2 = 0x94D049BB133111EB
OUTCOMES = 36
"""Ordered (die 1, die 2) pairs: outcome o is die 1 = o // 6 + 1, die 2 = o % 6 + 1."""
PAIRS = tuple((o // 6 + 1, o % 6 + 1) for o in range(OUTCOMES))


def mix(word: int) -> int:
    """SplitMix64's finaliser (Stafford's variant 13): a bijection of 64-bit words."""
    word = ((word ^ (word >> 30)) * MIX_1) & MASK
    word = ((word ^ (word >> 27)) * MIX_2) & MASK
    return word ^ (word >> 31)


def stream_key(seed: Seed, game: GameNumber, round_: int, seat: int) -> int:
    """The 64-bit key of one seat's dice in one round of one game; each part counts modulo 2^64."""
    key = 0
    for part in (seed, game, round_, seat):
        key = mix(((key ^ (part & MASK)) + ABSORB) & MASK)
    return key


def roll(seed: Seed, game: GameNumber, round_: int, seat: int, k: int) -> tuple[int, int]:
    """Roll k (from 0) of a stream, computed on its own."""
    word = mix((stream_key(seed, game, round_, seat) + (k + 1) * GAMMA) & MASK)
    return PAIRS[(word * OUTCOMES) >> 64]


def turn_rolls(seed: Seed, game: GameNumber, round_: int, seat: int) -> Iterator[tuple[int, int]]:
    """The endless stream of two-dice rolls for one seat's turn in one round of one game."""
    counter = stream_key(seed, game, round_, seat)
    while True:
        counter = (counter + GAMMA) & MASK
        # `mix`, written out: this loop is the engine's hot path.
        word = ((counter ^ (counter >> 30)) * MIX_1) & MASK
        word = ((word ^ (word >> 27)) * MIX_2) & MASK
        yield PAIRS[((word ^ (word >> 31)) * OUTCOMES) >> 64]


def derive_seed(*key: object) -> int:
    """A 64-bit seed from a key of ints and strings, stable across runs and machines."""
    text = "/".join(map(str, key))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def draw_seed() -> int:
    """A fresh random seed for a run that was given none (printed so it can be repeated)."""
    return random.SystemRandom().randrange(10**9)
