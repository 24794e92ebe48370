"""The dice scheme of docs/dice.md: its test vectors, plain Python and numpy bit for bit, and
statistics that a correct generator fails with a chance below one in a million, while
deliberately weakened schemes fail them plainly (so the checks have power).

Every sample comes from a fixed numpy seed, so each check is deterministic; the significance
level is what it would be for a fresh sample.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable
from itertools import count, islice

import numpy as np
import pytest
from numpy.typing import NDArray

from shutbox_cli.game import DICE_SCHEME, bulk_dice, dice

from helpers.paths import ROOT

ALPHA = 1e-8
"""Significance level of each of the six chi-square checks of the real scheme."""
MIN_GAP = 1024
"""Rolls that two streams of neighbouring keys must stay apart on SplitMix64's cycle. For
49,152 keys spread at random, some two fall closer with a chance of about
49152^2 * 1024 / 2^64 = 1.3e-7; with the chi-square checks, a correct generator fails one of
these checks with a chance below 2e-7."""

Words = NDArray[np.uint64]
Outcomes = NDArray[np.uint8]


def upper_tail(statistic: float, df: int) -> float:
    """P(X >= statistic) for a chi-square variable X with df degrees of freedom: the regularised
    upper incomplete gamma Q(df/2, statistic/2), by its series or its continued fraction."""
    a, x = df / 2, statistic / 2
    if x <= 0:
        return 1.0
    front = math.exp(a * math.log(x) - x - math.lgamma(a))
    if x < a + 1:  # 1 - P(a, x), with P's series: front * sum of x^n / (a (a + 1) ... (a + n))
        term = total = 1 / a
        for n in count(1):
            term *= x / (a + n)
            total += term
            if term < total * 1e-17:
                return 1 - front * total
    # Q(a, x) = front / (x + 1 - a - 1 (1 - a) / (x + 3 - a - 2 (2 - a) / ...)), by Lentz's method.
    b = x + 1 - a
    c, d = math.inf, 1 / b
    fraction = d
    for i in count(1):
        step = -i * (i - a)
        b += 2
        d = 1 / (step * d + b)
        c = b + step / c
        fraction *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return front * fraction


def uniformity_p(values: NDArray[np.int64], cells: int) -> float:
    """The chi-square p-value of values (0 to cells - 1) against the uniform distribution."""
    counts = np.bincount(values, minlength=cells)
    expected = values.size / cells
    return upper_tail(float(((counts - expected) ** 2).sum() / expected), cells - 1)


def pairs_p(first: Outcomes, second: Outcomes) -> float:
    """The p-value of the 36 x 36 outcome pairs against 1/1296 each: fair and independent."""
    return uniformity_p(first.astype(np.int64) * 36 + second, 36 * 36)


# --- schemes: the real one and deliberately weakened ones -----------------------------------


@dataclasses.dataclass(frozen=True)
class Scheme:
    """A counter-based dice scheme: a stream key per (seed, game, round, seat), then an outcome
    per (key, counter); both broadcast like bulk_dice."""

    name: str
    keys: Callable[..., Words]
    outcomes: Callable[[Words, NDArray[np.uint64]], Outcomes]

    def draw(self, seed: object, game: object, round_: object, seat: object, k: object) -> Outcomes:
        return self.outcomes(self.keys(seed, game, round_, seat), np.asarray(k, dtype=np.uint64))


def _uint64(*parts: object) -> list[Words]:
    """Key parts as uint64 arrays."""
    return [np.asarray(part, dtype=np.uint64) for part in parts]


def _unmixed_keys(seed: object, game: object, round_: object, seat: object) -> Words:
    """Key parts xored together, never mixed."""
    s, g, r, t = _uint64(seed, game, round_, seat)
    return np.asarray(s ^ g ^ r ^ t)


def _counted_keys(seed: object, game: object, round_: object, seat: object) -> Words:
    """The seed mixed, then game, round and seat counted along its stream: each seat's stream is
    its neighbour's, one roll on."""
    s, g, r, t = _uint64(seed, game, round_, seat)
    place = (g * np.uint64(16) + r) * np.uint64(16) + t
    return np.asarray(bulk_dice.stream_keys(s, 0, 0, 0) + place * np.uint64(dice.GAMMA))


def _cut(words: Words) -> Outcomes:
    """Multiply-shift on the high 32 bits of each word: near enough for schemes meant to fail."""
    return ((words >> np.uint64(32)) * np.uint64(36) >> np.uint64(32)).astype(np.uint8)


def _unmixed_outcomes(keys: Words, k: NDArray[np.uint64]) -> Outcomes:
    """The counter's word itself, never mixed."""
    return _cut(keys + (k + np.uint64(1)) * np.uint64(dice.GAMMA))


def _weak_mix(words: Words) -> Words:
    """One multiply and one shift instead of SplitMix64's finaliser."""
    words = words * np.uint64(dice.MIX_1)
    return words ^ (words >> np.uint64(32))


def _weak_keys(seed: object, game: object, round_: object, seat: object) -> Words:
    """The stream key, absorbed through the weak mix."""
    key = np.zeros((), dtype=np.uint64)
    for part in _uint64(seed, game, round_, seat):
        key = _weak_mix((key ^ part) + np.uint64(dice.ABSORB))
    return key


def _weak_outcomes(keys: Words, k: NDArray[np.uint64]) -> Outcomes:
    """Roll k's word through the weak mix."""
    return _cut(_weak_mix(keys + (k + np.uint64(1)) * np.uint64(dice.GAMMA)))


REAL = Scheme(DICE_SCHEME, bulk_dice.stream_keys, bulk_dice.outcomes)
KEY_NOT_MIXED = Scheme("key not mixed", _unmixed_keys, bulk_dice.outcomes)
KEY_COUNTED = Scheme("key parts counted, not mixed", _counted_keys, bulk_dice.outcomes)
WORD_NOT_MIXED = Scheme("word not mixed", bulk_dice.stream_keys, _unmixed_outcomes)
WEAK_MIX = Scheme("one multiply for a mix", _weak_keys, _weak_outcomes)


# --- the checks ---------------------------------------------------------------------------------

STREAMS = 20_000
ROLLS = 50
"""Each statistical check looks at 20,000 streams of 50 rolls: a million rolls or pairs."""
PARTS = ("seed", "game", "round", "seat")


def sample_keys(seed: int) -> list[NDArray[np.uint64]]:
    """STREAMS random keys (seed, game, round, seat) as columns: any seed, games below 2^32,
    rounds below 16, seats below 8."""
    rng = np.random.default_rng(seed)
    highs = (2**64, 2**32, 16, 8)
    return [rng.integers(0, high, STREAMS, dtype=np.uint64)[:, np.newaxis] for high in highs]


def streams(scheme: Scheme, keys: list[NDArray[np.uint64]]) -> Outcomes:
    """The first ROLLS outcomes of each stream, one stream a row."""
    return scheme.draw(*keys, np.arange(ROLLS, dtype=np.uint64))


def outcome_p(scheme: Scheme) -> float:
    """Are the 36 outcomes equally likely?"""
    return uniformity_p(streams(scheme, sample_keys(1)).ravel().astype(np.int64), 36)


def serial_p(scheme: Scheme) -> float:
    """Are (roll k, roll k + 1) of a stream fair, independent pairs?"""
    drawn = streams(scheme, sample_keys(2))
    return pairs_p(drawn[:, :-1].ravel(), drawn[:, 1:].ravel())


def neighbour_p(scheme: Scheme, part: str) -> float:
    """Are roll k of a stream and roll k of the stream whose key part is one more fair,
    independent pairs?"""
    keys = sample_keys(3 + PARTS.index(part))
    after = list(keys)
    after[PARTS.index(part)] = keys[PARTS.index(part)] + np.uint64(1)
    return pairs_p(streams(scheme, keys).ravel(), streams(scheme, after).ravel())


def closest_streams(scheme: Scheme) -> int:
    """Over a grid of neighbouring keys (seeds 0 to 5, games 0 to 255, rounds 0 to 3, seats 0
    to 7), the fewest rolls between two streams on SplitMix64's cycle of counters: streams
    closer than their length share rolls."""
    grid = np.meshgrid(*(np.arange(size, dtype=np.uint64) for size in (6, 256, 4, 8)), indexing="ij")
    positions = np.sort((scheme.keys(*grid) * np.uint64(pow(dice.GAMMA, -1, 2**64))).ravel())
    gaps = np.diff(np.append(positions, positions[0]))  # uint64: the last gap wraps round the cycle
    return int(gaps.min())


def test_the_chi_square_tail_matches_its_closed_forms() -> None:
    """Odd df = 1: erfc(sqrt(x / 2)). Even df = 2m: the Poisson sum e^(-x/2) (x/2)^i / i! for i < m."""
    for x in (0.5, 3.841458820694124, 10.0, 40.0):
        assert math.isclose(upper_tail(x, 1), math.erfc(math.sqrt(x / 2)), rel_tol=1e-9)
    for df, x in ((36, 20.0), (36, 50.0), (36, 120.0), (1296, 1200.0), (1296, 1296.0), (1296, 1620.0)):
        exact = sum(math.exp(i * math.log(x / 2) - x / 2 - math.lgamma(i + 1)) for i in range(df // 2))
        assert math.isclose(upper_tail(x, df), exact, rel_tol=1e-9), (df, x)


# --- the scheme as documented -------------------------------------------------------------------

VECTOR = re.compile(
    r"^\| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) "  # seed, game, round, seat, k
    r"\| 0x([0-9a-f]{16}) \| 0x([0-9a-f]{16}) \| (\d+) \| (\d) \+ (\d) \|$",  # key, word, outcome, dice
    re.MULTILINE,
)


def test_the_documented_test_vectors_hold_in_python_and_numpy() -> None:
    text = (ROOT / "docs" / "dice.md").read_text()
    assert text.startswith(f"# The dice: scheme `{DICE_SCHEME}`\n")
    vectors = VECTOR.findall(text)
    assert len(vectors) >= 8
    for row in vectors:
        seed, game, round_, seat, k = map(int, row[:5])
        key, word = int(row[5], 16), int(row[6], 16)
        outcome, pair = int(row[7]), (int(row[8]), int(row[9]))
        assert dice.stream_key(seed, game, round_, seat) == key
        assert dice.mix((key + (k + 1) * dice.GAMMA) % 2**64) == word
        assert (word * 36) >> 64 == outcome and divmod(outcome, 6) == (pair[0] - 1, pair[1] - 1)
        assert dice.roll(seed, game, round_, seat, k) == pair
        assert int(bulk_dice.stream_keys(seed, game, round_, seat)) == key
        assert int(bulk_dice.outcomes(np.uint64(key), np.uint64(k))) == outcome
        assert tuple(map(int, bulk_dice.rolls(seed, game, round_, seat, k))) == pair
        if k < 20:
            assert list(islice(dice.turn_rolls(seed, game, round_, seat), k + 1))[k] == pair


def test_keys_absorbed_once_then_for_each_round_and_seat_are_the_streams_keys() -> None:
    games = np.array([0, 1, 7, 2**40, 2**64 - 1], dtype=np.uint64)
    dealt = bulk_dice.absorbed(0, 2**63 + 5, games)
    for round_, seat in [(0, 0), (0, 1), (3, 2), (2**33, 0)]:
        keys = bulk_dice.absorbed(dealt, round_, seat)
        assert keys.tolist() == [dice.stream_key(2**63 + 5, game, round_, seat) for game in games.tolist()]
        assert keys.tolist() == bulk_dice.stream_keys(2**63 + 5, games, round_, seat).tolist()


@pytest.mark.slow
def test_python_and_numpy_agree_on_a_million_rolls() -> None:
    """20,000 streams of 50 rolls, keyed anywhere in range; then a roll of each at a counter anywhere."""
    keys = sample_keys(9)
    keys[0][:4, 0] = [0, 1, 2**63, 2**64 - 1]  # seeds at the edges
    keys[1][:4, 0] = [0, 2**32 - 1, 2**40, 2**63]  # and games
    rows = list(zip(*(part[:, 0].tolist() for part in keys), strict=True))

    die1, die2 = bulk_dice.rolls(*keys, np.arange(ROLLS))
    in_numpy = [list(zip(*pair, strict=True)) for pair in zip(die1.tolist(), die2.tolist(), strict=True)]
    assert [list(islice(dice.turn_rolls(*row), ROLLS)) for row in rows] == in_numpy

    counters = np.random.default_rng(10).integers(0, 2**64, STREAMS, dtype=np.uint64)
    die1, die2 = bulk_dice.rolls(*(part[:, 0] for part in keys), counters)
    in_numpy = list(zip(die1.tolist(), die2.tolist(), strict=True))
    assert [dice.roll(*row, k) for row, k in zip(rows, counters.tolist(), strict=True)] == in_numpy


def test_every_part_counts_modulo_2_64_in_both() -> None:
    assert dice.stream_key(-1, 2**64 + 5, 0, 3) == dice.stream_key(2**64 - 1, 5, 0, 3)
    assert dice.roll(-1, 5, 0, 3, -1) == dice.roll(2**64 - 1, 5, 0, 3, 2**64 - 1)
    signed = np.array([-1, 5], dtype=np.int64)
    assert bulk_dice.stream_keys(signed, 5, 0, 3).tolist() == [
        dice.stream_key(2**64 - 1, 5, 0, 3),
        dice.stream_key(5, 5, 0, 3),
    ]
    assert int(bulk_dice.stream_keys(2**64 + 5, -1, 0, 3)) == dice.stream_key(5, 2**64 - 1, 0, 3)


def test_numpy_broadcasts_its_arguments_and_refuses_fractions() -> None:
    games, counters = np.arange(1000)[:, np.newaxis], np.arange(12)
    die1, die2 = bulk_dice.rolls(7, games, 0, 1, counters)
    assert die1.shape == die2.shape == (1000, 12) and die1.dtype == np.uint8
    assert (die1[3, 5], die2[3, 5]) == dice.roll(7, 3, 0, 1, 5)
    assert bulk_dice.rolls(7, 3, 0, 1, 5)[0].shape == ()
    with pytest.raises(TypeError, match="whole numbers"):
        bulk_dice.rolls(7, 1.5, 0, 0, 0)


# --- statistics -------------------------------------------------------------------------------


def test_the_36_outcomes_are_equally_likely() -> None:
    assert outcome_p(REAL) > ALPHA


def test_consecutive_rolls_of_a_stream_are_independent() -> None:
    assert serial_p(REAL) > ALPHA


@pytest.mark.parametrize("part", PARTS)
def test_streams_of_neighbouring_keys_are_independent(part: str) -> None:
    assert neighbour_p(REAL, part) > ALPHA


def test_streams_of_neighbouring_keys_never_share_rolls() -> None:
    assert closest_streams(REAL) >= MIN_GAP


@pytest.mark.parametrize(
    ("scheme", "check"),
    [
        (KEY_NOT_MIXED, closest_streams),
        (KEY_COUNTED, closest_streams),
        (WORD_NOT_MIXED, serial_p),
        (WEAK_MIX, serial_p),
        (WEAK_MIX, lambda scheme: neighbour_p(scheme, "seed")),
        (WEAK_MIX, lambda scheme: neighbour_p(scheme, "seat")),
    ],
    ids=[
        "key not mixed: streams collide",
        "key counted: streams overlap",
        "word not mixed: serial",
        "weak mix: serial",
        "weak mix: seeds",
        "weak mix: seats",
    ],
)
def test_the_checks_catch_weakened_schemes(scheme: Scheme, check: Callable[[Scheme], float]) -> None:
    """The same checks, at the same levels, on schemes with a step of the mixing left out."""
    found = check(scheme)
    assert found < (MIN_GAP if check is closest_streams else ALPHA)
