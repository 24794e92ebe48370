"""What exact games cost before they are computed: the steps of the exact walk (`exact_walk`, which
dispatches each game here along the path it takes), from each seat's turn odds and the rules, in
closed form, so that a run past the limits is refused before the walk's cost is paid.

A seat's walk holds one chance per total it may have; each round adds every score it can make to
every total it holds. After `r` rounds it holds at most as many totals as there are multisets of
`r` scores, and at most as many as its totals span (and, in drop-out, the limit): a sum or count
scoring spans little and grows the walk a little each round, the digits scoring makes nearly every
multiset a total of its own and multiplies the walk tenfold or more a round. A drop-out game is
followed until the chance that it goes on is negligible: about as many rounds as a seat takes to
reach the limit, plus a tail of `SPREAD` standard deviations of its total (a normal estimate).
The estimates are within a factor of two of the steps the walk counts as it goes
(`exact_walk.steps_taken`; tests/game/test_exact_cost.py), but for the walk over both totals with
the digits scoring: about a quarter of them (its turns' scores lead to more new totals).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Iterable, Sequence
from typing import Any

from .rules import Rules

FOLLOWED = 5_000_000
"""The most steps spent following a seat's totals exactly (a few tenths of a second); beyond them,
their number is extrapolated."""
SPREAD = 7.94
"""Standard deviations of a seat's total beyond which its chance to still be in is below
`exact_odds.LEFT_OVER` (1e-15), where a drop-out game's walk stops."""


@dataclasses.dataclass(frozen=True)
class Cost:
    """Exact games' work: `steps`, the chances added up by their walks (a few dict operations
    each), and `totals`, the most totals one seat's walk holds at once (its memory)."""

    steps: int = 0
    totals: int = 0

    def __add__(self, other: Cost) -> Cost:
        return Cost(self.steps + other.steps, max(self.totals, other.totals))


def games_cost(rules: Rules, turns: Sequence[Any], games: Iterable[Sequence[int]], margins: bool = False) -> Cost:
    """The cost of the walk's product path (`exact_product`) for each of `games` (indices into `turns`, each
    strategy's `TurnOdds`; the order of the seats changes nothing), with `margins` that of a
    duel's margins too (`exact_walk.duel`, two seats)."""
    steps = [_go_on(odds, rules.instant_win) for odds in turns]
    limit = rules.drop_out
    reach = [rules.rounds if limit is None else _rounds_to_reach(limit, seat) for seat in steps]
    walks = [_walk(frozenset(seat), limit).upto(max(reach)) for seat in steps]  # alike scores walk alike
    total = Cost()
    for game in games:
        lasting = sorted((reach[player] for player in game), reverse=True)
        rounds = lasting[min(1, len(lasting) - 1)]  # until one seat is left (the only one, solo)
        work = sum(walks[player].work[rounds] for player in game)
        work += sum(walks[player].held[rounds] for player in game) << max(0, len(game) - 1)  # the lowest settled
        if margins and len(game) == 2:  # every pair of totals when a box is shut (instant win) and at the end
            first, second = (walks[player].held[: rounds + 1] for player in game)
            pairs = list(zip(first, second, strict=True))
            work += sum(a * b for a, b in (pairs if rules.instant_win else pairs[-1:]))
        total += Cost(work, max(max(walks[player].held[: rounds + 1]) for player in game))
    return total


ASK_STEPS = 30
"""What asking a keyed seat its turn for one context costs, in steps (a solver's policy looked up
and its context weighed, about 10 microseconds); a user's strategy's table, made in its host for a
key it meets, then checked and its turn worked out here, costs more: `HOSTED_ASK_STEPS_PER_BOX` a
box of tiles (measured over two rounds with a key that reads the round and both totals, every
state a new key: about 4, 9 and 28 ms a key at 4, 5 and 6 tiles; counted as 8, 16 and 32)."""
HOSTED_ASK_STEPS_PER_BOX = 1_500


def pairs_cost(rules: Rules, turns: Sequence[Any], games: Iterable[Sequence[int]], hosted: Sequence[bool]) -> Cost:
    """The cost of `exact_pairs`'s walk over both totals for each of `games` (pairs of indices
    into `turns`, each strategy's first `TurnOdds`; `hosted`: its turns are asked of its host),
    over fixed rounds or drop-out. Each round every state of both totals takes each score of seat
    0's turn, and each state that leads to takes each score of seat 1's; every state is asked seat
    0's turn once, and each of its scores seat 1's (in drop-out a state is asked once for the game,
    over fixed rounds once a round: a key may read the round)."""
    limit = rules.drop_out
    steps = [_go_on(odds, rules.instant_win) for odds in turns]
    reach = [rules.rounds if limit is None else _rounds_to_reach(limit, seat) for seat in steps]
    walks = [_walk(frozenset(seat), limit).upto(max(reach)) for seat in steps]
    hosted_ask = HOSTED_ASK_STEPS_PER_BOX * (rules.full_box + 1)
    total = Cost()
    for first, second in games:
        rounds = min(reach[first], reach[second])
        held = [a * b for a, b in zip(walks[first].held[:rounds], walks[second].held[:rounds], strict=True)]
        work = sum(held) * (len(steps[first]) + len(steps[second]))
        states = sum(held) if limit is None else min(limit * limit, sum(held))
        asks = states * (hosted_ask if hosted[first] else ASK_STEPS)
        asks += states * len(steps[first]) * (hosted_ask if hosted[second] else ASK_STEPS)
        total += Cost(work + asks, max(held, default=1))
    return total


@functools.lru_cache(maxsize=64)
def _walk(scores: frozenset[int], limit: int | None) -> _Walk:
    """The walk of a seat with these scores (the estimate looks at many rounds and limits)."""
    return _Walk(scores, limit)


class _Walk:
    """One seat's walk, round by round as far as asked: `held[r]`, about how many totals it holds
    after round `r`, and `work[r]`, the steps it takes to get there. Once there are more multisets
    of scores than totals in the span, the walk fills its span; until then its totals are followed
    as a set while that takes fewer than `FOLLOWED` steps, and after that it grows as it last grew
    (or less: the multisets, the span)."""

    def __init__(self, scores: frozenset[int], limit: int | None) -> None:
        self.scores, self.limit = scores, limit
        self.width = max(scores) - min(scores)
        self.held = [1]
        self.work = [0]
        self._totals: set[int] | None = {0}
        self._left = FOLLOWED
        self._growth = self._multisets = 1.0
        self._dense = False

    def upto(self, rounds: int) -> _Walk:
        """This walk, followed for `rounds` rounds at least."""
        while len(self.held) <= rounds:
            self._next()
        return self

    def _next(self) -> None:
        number, before, count = len(self.held), self.held[-1], len(self.scores)
        self.work.append(self.work[-1] + before * count)
        span = number * self.width + 1 if self.limit is None else min(number * self.width + 1, self.limit)
        if not self._dense:
            self._multisets = self._multisets * (count + number - 1) / number
            self._dense = self._multisets >= span
        if self._dense:
            self._totals = None
            self.held.append(span)
        elif self._totals is not None and before * count <= self._left:
            self._left -= before * count
            limit = self.limit
            self._totals = {
                total + points
                for total in self._totals
                for points in self.scores
                if limit is None or total + points < limit
            }
            self._growth = len(self._totals) / before
            self.held.append(len(self._totals))
        else:
            self._totals = None
            self.held.append(int(min(before * self._growth, self._multisets, span)))


def _go_on(odds: Any, instant_win: bool) -> dict[int, float]:
    """A seat's scores that do not end the game, with their chances (as the walk takes them, `exact_odds.go_on`)."""
    steps = {points: float(chance) for points, chance in odds.probabilities.items()}
    if instant_win and 0 in steps:
        steps[0] -= float(odds.shut_probability)
    return {points: chance for points, chance in steps.items() if chance > 0} or {0: 1.0}


def _rounds_to_reach(limit: int, steps: dict[int, float]) -> int:
    """The rounds after which a seat's total is below `limit` only by a negligible chance: the
    least `k` with `k·mean − SPREAD·sd·√k ≥ limit` (`limit` for a seat that always scores 0)."""
    weight = sum(steps.values())
    mean = sum(points * chance for points, chance in steps.items()) / weight
    if mean <= 0:
        return limit
    sd = math.sqrt(max(0.0, sum(chance * (points - mean) ** 2 for points, chance in steps.items()) / weight))
    root = (SPREAD * sd + math.sqrt((SPREAD * sd) ** 2 + 4 * mean * limit)) / (2 * mean)
    return math.ceil(root * root)
