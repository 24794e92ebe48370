"""A knockout's bracket: the field's seeds placed so that the best two can meet only in the final
(seed 1 against the last seed, 2 against the next to last, ...), the field filled up to a power of
two with byes, which the top seeds get, and each round's ties, the winners of two neighbouring ties
meeting in the next."""

from __future__ import annotations

from collections.abc import Sequence

Slot = int | None
"""A place in a round: the index of the strategy that holds it (its seed, from 0), or None for a bye."""


def bracket_size(entrants: int) -> int:
    """The places of the first round: the least power of two that holds the field."""
    size = 1
    while size < entrants:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """The seeds (from 0) in the order of the first round's places, for a bracket of `size` (a power
    of two): 0 and 1 in opposite halves, 0 to 3 in different quarters, and each first-round tie's
    seeds adding up to size - 1 (the best against the worst)."""
    order = [0]
    while len(order) < size:
        count = 2 * len(order)
        order = [seed for top in order for seed in (top, count - 1 - top)]
    return order


def first_round(entrants: int) -> list[Slot]:
    """The first round's places: each seed's index, or None where the field runs out (a bye for the
    seed it meets: the top seeds, as the pairs add up to the bracket's size less one)."""
    return [seed if seed < entrants else None for seed in seed_order(bracket_size(entrants))]


def pairs_of(places: Sequence[Slot]) -> list[tuple[Slot, Slot]]:
    """A round's ties: its places two by two, in order."""
    return [(places[index], places[index + 1]) for index in range(0, len(places), 2)]


def round_name(places: int) -> str:
    """What a round of this many places is called: the final, the semi-finals, the quarter-finals,
    else the round of that many."""
    return {2: "final", 4: "semi-finals", 8: "quarter-finals"}.get(places, f"round of {places}")
