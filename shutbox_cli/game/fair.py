"""Fair rules: how much the last seat wins more than the first under perfect play for the stake, by
tie rule and first-roll rule, and the shut payout that makes the two equal.

A seat's advantage is in stakes (`Winnings.advantage`): with a payout of 1 it is the table size
times the difference of the two seats' chances to win. The fair payout is the root of the advantage
as a function of the payout, bracketed between 0 and `MAX_SHUT_PAYS` and closed in on by bisection
sped up with the secant through the bracket's ends (the Illinois rule: the advantage is piecewise
linear in the payout, each piece as long as the seats' policies stay the same), until the advantage
is within `SETTLED` of 0 or the bracket is as narrow as floats allow. At two seats (a zero-sum game)
the advantage is continuous; at three or four it may jump where a seat indifferent between two moves
switches, which changes what the others win and not what it wins: the search then ends at the jump,
and `Variant.fair_left` says what is left.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from .perfect import equilibrium
from .rules import MAX_SHUT_PAYS, SHUT_PAYS, FirstRoll, Rules, Ties
from .solver import final_scores
from .stakes import Stakes

PAYOUTS_TRIED = 12
"""About how many payouts a fair payout's search tries (8 to 12 measured, each a game solved)."""
STEP_SECONDS = 5e-6
"""About how long one box of one policy takes to solve for a stake (measured: 1.3 s for a game of 9
tiles with digit scores at two seats, 511 scores posted to answer on 512 boxes)."""
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
    fair_left: float | None = None
    """The advantage still left at the fair payout: within `SETTLED` of 0, unless a seat's play
    switches there and the advantage jumps across 0 (at tables of three or more), when no payout
    makes the seats equal and this is the nearer side of the jump."""

    def __repr__(self) -> str:
        pays = "none" if self.fair_pays is None else f"{self.fair_pays:.6g}"
        if self.fair_left is not None and abs(self.fair_left) > SETTLED:
            pays += f", a jump leaving {self.fair_left:+.2e}"
        return (
            f"Variant(ties={self.rules.ties.value}, first_roll={self.rules.first_roll.value}, "
            f"advantage={self.advantage:+.6f}, fair_pays={pays})"
        )


def advantage(rules: Rules, seats: int) -> float:
    """The last seat's expected winnings less the first's, in stakes, under perfect play."""
    if rules.ties is Ties.PLAYOFF:  # a payout of 1 (the rules allow no other): the win chances say it
        chances = equilibrium(rules).seat_chances(seats)
        return seats * (chances[-1] - chances[0])
    return Stakes(rules, seats).winnings().advantage  # not kept: a search tries many payouts


def fair_payout(rules: Rules, seats: int) -> float | None:
    """The shut payout, from 0 to `MAX_SHUT_PAYS`, at which the last seat wins no more than the first
    under perfect play; None where the advantage keeps one sign over that range (or ties are played off)."""
    found = _fair(rules, seats)
    return None if found is None else found[0]


def _fair(rules: Rules, seats: int) -> tuple[float, float] | None:
    """`fair_payout`, and the advantage left there."""
    if rules.ties is Ties.PLAYOFF:
        return None

    def gap(pays: float) -> float:
        return advantage(dataclasses.replace(rules, shut_pays=pays), seats)

    return _root(gap, 0.0, float(MAX_SHUT_PAYS))


def _root(gap: Callable[[float], float], low: float, high: float) -> tuple[float, float] | None:
    """Where `gap` changes sign between `low` and `high` (Illinois), and its value there, or None if it
    does not. Where it jumps across 0 instead of passing through it, the side of the jump nearer 0."""
    found = {low: gap(low), high: gap(high)}
    if (found[low] > 0) == (found[high] > 0) and min(map(abs, found.values())) > SETTLED:
        return None
    weights = [found[low], found[high]]  # the secant's values: the kept end's halved (Illinois)
    side = 0
    for _ in range(STEPS):
        if min(abs(found[low]), abs(found[high])) <= SETTLED or high - low <= 4 * SETTLED * max(1.0, high):
            break
        middle = (low * weights[1] - high * weights[0]) / (weights[1] - weights[0])
        if not low < middle < high:
            middle = (low + high) / 2
        found[middle] = at_middle = gap(middle)
        if (at_middle > 0) == (found[low] > 0):
            low, weights = middle, [at_middle, weights[1] / 2 if side == -1 else weights[1]]
            side = -1
        else:
            high, weights = middle, [weights[0] / 2 if side == 1 else weights[0], at_middle]
            side = 1
    nearer = min((low, high), key=lambda pays: abs(found[pays]))
    return nearer, found[nearer]


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
            fair = _fair(variant, seats)
            pays, left = (None, None) if fair is None else fair
            found.append(Variant(variant, advantage(variant, seats), pays, left))
    return tuple(found)


def search_seconds(rules: Rules, seats: int) -> float:
    """About how many processor seconds `variants` takes: for every variant and payout tried, a policy
    for each score a seat may have to beat, at each seat but the first, over every box."""
    count = 3 * len(FirstRoll) if rules.shut_pays == SHUT_PAYS else 2 * len(FirstRoll)
    policies = len(final_scores(rules.turn_rules)) * (seats - 1)
    return count * PAYOUTS_TRIED * policies * (rules.full_box + 1) * STEP_SECONDS


def fairest(found: tuple[Variant, ...]) -> Variant:
    """The variant whose advantage is nearest 0 at its payout."""
    return min(found, key=lambda variant: abs(variant.advantage))
