"""Fair rules: how much the last seat wins more than the first under perfect play for the stake, by
tie rule and first-roll rule, and the shut payout that makes the two equal.

A seat's advantage is in stakes (`Winnings.advantage`): with a payout of 1 it is the table size
times the difference of the two seats' chances to win. The fair payout is the root of the advantage
as a function of the payout, bracketed between 0 and `MAX_SHUT_PAYS` and closed in on by bisection
sped up with the secant through the bracket's ends (the Illinois rule: the advantage is piecewise
linear in the payout, each piece as long as the seats' policies stay the same), until the advantage
is within `SETTLED` of 0 or the bracket is as narrow as floats allow.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from .perfect import equilibrium
from .rules import MAX_SHUT_PAYS, SHUT_PAYS, FirstRoll, Rules, Ties
from .stakes import stakes

SETTLED = 1e-12
"""An advantage this close to 0, in stakes, is none."""
STEPS = 200
"""The most evaluations of a bracket before the search says where it stopped."""


@dataclasses.dataclass(frozen=True)
class Variant:
    """One variant of a rule set: its rules, the last seat's advantage over the first under perfect
    play for the stake (in stakes), and the shut payout that makes it 0 (None if no payout from 0 to
    `MAX_SHUT_PAYS` does, or the variant's ties are played off, whose shut payout is not defined)."""

    rules: Rules
    advantage: float
    fair_pays: float | None

    def __repr__(self) -> str:
        pays = "none" if self.fair_pays is None else f"{self.fair_pays:.6g}"
        return (
            f"Variant(ties={self.rules.ties.value}, first_roll={self.rules.first_roll.value}, "
            f"advantage={self.advantage:+.6f}, fair_pays={pays})"
        )


def advantage(rules: Rules, seats: int) -> float:
    """The last seat's expected winnings less the first's, in stakes, under perfect play."""
    if rules.ties is Ties.PLAYOFF:  # a payout of 1 (the rules allow no other): the win chances say it
        chances = equilibrium(rules).seat_chances(seats)
        return seats * (chances[-1] - chances[0])
    return stakes(rules, seats).winnings().advantage


def fair_payout(rules: Rules, seats: int) -> float | None:
    """The shut payout, from 0 to `MAX_SHUT_PAYS`, at which the last seat wins no more than the first
    under perfect play; None where the advantage keeps one sign over that range (or ties are played off)."""
    if rules.ties is Ties.PLAYOFF:
        return None

    def gap(pays: float) -> float:
        return advantage(dataclasses.replace(rules, shut_pays=pays), seats)

    return _root(gap, 0.0, float(MAX_SHUT_PAYS))


def _root(gap: Callable[[float], float], low: float, high: float) -> float | None:
    """Where `gap` changes sign between `low` and `high` (Illinois), or None if it does not."""
    at_low, at_high = gap(low), gap(high)
    if abs(at_low) <= SETTLED:
        return low
    if abs(at_high) <= SETTLED:
        return high
    if (at_low > 0) == (at_high > 0):
        return None
    side = 0
    for _ in range(STEPS):
        middle = (low * at_high - high * at_low) / (at_high - at_low)
        if not low < middle < high:
            middle = (low + high) / 2
        at_middle = gap(middle)
        if abs(at_middle) <= SETTLED or high - low <= 4 * SETTLED * max(1.0, high):
            return middle
        if (at_middle > 0) == (at_low > 0):
            low, at_low = middle, at_middle
            at_high = at_high / 2 if side == -1 else at_high
            side = -1
        else:
            high, at_high = middle, at_middle
            at_low = at_low / 2 if side == 1 else at_low
            side = 1
    return (low + high) / 2


def variants(rules: Rules, seats: int) -> tuple[Variant, ...]:
    """Every tie rule and first-roll rule the box allows, the rest of `rules` kept: each variant's
    advantage at the rules' shut payout, and its fair payout. A payout other than 1 leaves playoffs out."""
    found = []
    for ties in Ties:
        if ties is Ties.PLAYOFF and rules.shut_pays != SHUT_PAYS:
            continue
        for first_roll in FirstRoll:
            if first_roll is FirstRoll.THREE_TO_GO and rules.tiles < 3:
                continue
            variant = dataclasses.replace(rules, ties=ties, first_roll=first_roll)
            found.append(Variant(variant, advantage(variant, seats), fair_payout(variant, seats)))
    return tuple(found)


def fairest(found: tuple[Variant, ...]) -> Variant:
    """The variant whose advantage is nearest 0 at its payout."""
    return min(found, key=lambda variant: abs(variant.advantage))
