"""The dice of `dice` computed with numpy, many at once, bit for bit the same.

Every argument broadcasts against the others (numpy's rules), so the rolls of a million games,
or of every (game, counter) pair of a grid, come from one call with no Python loop per roll.
Arithmetic is uint64 and wraps, exactly as the plain-Python version masks to 64 bits. Not
imported by `shutbox_cli.game` itself: a process that only plays turn by turn never loads numpy.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .dice import ABSORB, GAMMA, MASK, MIX_1, MIX_2, OUTCOMES

Words = NDArray[np.uint64]

_LOW_32 = np.uint64(0xFFFFFFFF)


def _words(values: ArrayLike) -> Words:
    """Key parts or counters as uint64, each taken modulo 2^64 (negatives as two's complement)."""
    if isinstance(values, int):
        return np.array(values & MASK, dtype=np.uint64, ndmin=1)
    array = np.atleast_1d(np.asarray(values))
    if not np.issubdtype(array.dtype, np.integer):
        raise TypeError(f"dice keys and counters are whole numbers, not {array.dtype}.")
    return array.astype(np.uint64, copy=False)


def mix(words: Words) -> Words:
    """SplitMix64's finaliser on every word of an array, in place (array operations wrap silently)."""
    words ^= words >> np.uint64(30)
    words *= np.uint64(MIX_1)
    words ^= words >> np.uint64(27)
    words *= np.uint64(MIX_2)
    words ^= words >> np.uint64(31)
    return words


def absorbed(keys: ArrayLike, *parts: ArrayLike) -> Words:
    """Stream keys with these key parts absorbed in turn, broadcast together: `stream_keys(seed,
    game, round_, seat)` is `absorbed(0, seed, game, round_, seat)`, and `absorbed(absorbed(0,
    seed, game), round_, seat)` too (keys absorbed once, for many rounds and seats)."""
    words = _words(keys)
    for part in parts:
        words = words ^ _words(part)
        words += np.uint64(ABSORB)
        mix(words)
    return words


def stream_keys(seed: ArrayLike, game: ArrayLike, round_: ArrayLike, seat: ArrayLike) -> Words:
    """The stream key of every (seed, game, round, seat), broadcast together (as `dice.stream_key`)."""
    shape = np.broadcast_shapes(*(np.shape(part) for part in (seed, game, round_, seat)))
    return absorbed(0, seed, game, round_, seat).reshape(shape)


def outcomes(keys: ArrayLike, k: ArrayLike) -> NDArray[np.uint8]:
    """The outcome (0 to 35) of roll k of every stream key, broadcast together."""
    shape = np.broadcast_shapes(np.shape(keys), np.shape(k))
    words = _words(k) + np.uint64(1)
    words *= np.uint64(GAMMA)
    words = words + _words(keys)
    mix(words)
    # The high word of words * 36, exactly, from the two 32-bit halves (numpy has no 128-bit product).
    high = (words >> np.uint64(32)) * np.uint64(OUTCOMES)
    high += ((words & _LOW_32) * np.uint64(OUTCOMES)) >> np.uint64(32)
    return (high >> np.uint64(32)).astype(np.uint8).reshape(shape)


def rolls(
    seed: ArrayLike, game: ArrayLike, round_: ArrayLike, seat: ArrayLike, k: ArrayLike
) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """(die 1, die 2) of roll k of every stream (seed, game, round, seat), broadcast together
    (as `dice.roll`; a one-die roll uses die 1)."""
    drawn = outcomes(stream_keys(seed, game, round_, seat), k)
    return drawn // 6 + 1, drawn % 6 + 1
