"""The exact walk's product path (`exact_walk`): a game whose every seat's turn odds are fixed for
the game, in every format `match.py` plays (instant win, the three tie rules, fixed rounds,
drop-out).

Such a seat's turns are independent and alike, so a game is a fixed function of each seat's own
sequence of turns: a walk over its total that stops when it drops out or shuts the box (with
instant win on). The chance of any situation at the start of a round is then a product over the
seats, and the walk advances them by a few convolutions per round rather than over every
combination of totals. A playoff is a geometric series, summed in closed form. The walk counts its
steps (`steps`: each total held times each score added, and each total settled), which
`exact_cost` estimates before it runs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Generic

from .exact_odds import (
    LEFT_OVER,
    C,
    GameOdds,
    Playoff,
    SeatOdds,
    TurnOdds,
    check_turn,
    go_on,
    one_kind,
    settled_playoff,
)
from .rules import Rules, Ties


@dataclasses.dataclass
class _Tally(Generic[C]):
    """What a game's computation adds up as it goes."""

    wins: list[C]
    shut_box_win: C
    tie: C
    playoff_rounds: C


class ProductWalk(Generic[C]):
    """One game of seats with fixed turn odds, walked seat by seat round by round."""

    def __init__(self, rules: Rules, turns: Sequence[TurnOdds[C]]) -> None:
        if not turns:
            raise ValueError("a game needs at least one player.")
        self.turns: list[TurnOdds[C]]
        self.turns, self.arithmetic = one_kind(turns)
        for seat, odds in enumerate(self.turns):
            check_turn(odds, seat)
        self.rules = rules
        self.count = len(turns)
        self.need = min(2, self.count)  # seats still in for a drop-out game to go on
        self.one: C = self.turns[0].shut_probability * 0 + 1
        self.zero: C = self.one * 0
        instant = rules.instant_win
        self.shut: list[C] = [odds.shut_probability if instant else self.zero for odds in self.turns]
        self.steps: list[dict[int, C]] = [go_on(odds, instant) for odds in self.turns]
        """The scores of the turns that do not end the game, with their chances."""
        self._playoffs: dict[tuple[int, ...], Playoff[C]] = {}
        self.taken = 0
        """The steps taken so far: each total held times each score added, and each total settled."""
        self.endless = rules.drop_out is not None and any(steps.get(0, 0) > 0 for steps in self.steps)
        stuck = [seat for seat, steps in enumerate(self.steps) if set(steps) == {0} and not self.shut[seat]]
        if self.endless and len(stuck) >= self.need:
            raise ValueError(f"a drop-out game would never end: seats {stuck} always score 0.")

    def odds(self) -> GameOdds[C]:
        """Follow the game round by round: the chance each seat is still in with each total."""
        rules, one, zero, count = self.rules, self.one, self.zero, self.count
        limit = rules.drop_out
        tally = _Tally([zero] * count, zero, zero, zero)
        alive: list[dict[int, C]] = [{0: one} for _ in range(count)]
        out = [zero] * count  # the chance a seat dropped out in an earlier round (and no box was shut)
        turns: list[C] = [zero] * count
        played: list[C] = [zero] * count
        rounds = unresolved = zero
        number = 0
        while True:
            sizes = [sum(totals.values(), zero) for totals in alive]
            going = _at_least(list(zip(sizes, out, strict=True)), self.need, one)
            if not going or (self.endless and going < LEFT_OVER):
                unresolved = going
                break
            rounds += going
            plays = self._plays(tally, sizes, out)
            turns = [before + now for before, now in zip(turns, plays, strict=True)]
            if number == 0:
                played = plays
            self.taken += sum(len(alive[seat]) * len(self.steps[seat]) for seat in range(count))
            stepped = [_step(alive[seat], self.steps[seat], limit) for seat in range(count)]
            alive = [stay for stay, _ in stepped]
            if limit is None:
                if number == rules.rounds - 1:
                    self._settle(tally, alive, [zero] * count)
                    break
            else:
                dropped = [gone for _, gone in stepped]
                self._last_standing(tally, alive, dropped, out)
                self._settle(tally, dropped, out)
                out = [before + sum(gone.values(), zero) for before, gone in zip(out, dropped, strict=True)]
            number += 1
        seats = tuple(
            SeatOdds(
                win,
                played[seat],
                turns[seat],
                turns[seat] * odds.expected_score,
                odds.expected_score,
                odds.shut_probability,
            )
            for seat, (win, odds) in enumerate(zip(tally.wins, self.turns, strict=True))
        )
        return GameOdds(
            rules,
            seats,
            tally.shut_box_win,
            tally.tie,
            rounds,
            tally.playoff_rounds,
            unresolved,
            self.arithmetic,
        )

    def _plays(self, tally: _Tally[C], sizes: Sequence[C], out: Sequence[C]) -> list[C]:
        """Each seat's chance to play this round (it is in, the game goes on, and no earlier seat
        shuts the box this round), given each seat's chance to be in or out; add the instant wins."""
        one, count = self.one, self.count
        plays = []
        for seat in range(count):
            others = [
                (sizes[other] * (one - self.shut[other]) if other < seat else sizes[other], out[other])
                for other in range(count)
                if other != seat
            ]
            chance = sizes[seat] * _at_least(others, self.need - 1, one)
            plays.append(chance)
            shut = chance * self.shut[seat]
            tally.wins[seat] += shut
            tally.shut_box_win += shut
        return plays

    def _last_standing(
        self, tally: _Tally[C], stay: Sequence[Mapping[int, C]], dropped: Sequence[Mapping[int, C]], out: Sequence[C]
    ) -> None:
        """Add the games a seat wins by being the only one left after a round of a drop-out game."""
        if self.count == 1:
            return
        gone = [before + sum(now.values(), self.zero) for before, now in zip(out, dropped, strict=True)]
        for seat in range(self.count):
            others = [other for other in range(self.count) if other != seat]
            someone_now = _product((gone[other] for other in others), self.one) - _product(
                (out[other] for other in others), self.one
            )
            tally.wins[seat] += sum(stay[seat].values(), self.zero) * someone_now

    def _settle(self, tally: _Tally[C], present: Sequence[Mapping[int, C]], absent: Sequence[C]) -> None:
        """Add the games won on the lowest total among the seats present, by the tie rule.

        Each seat is present with the chances of its totals in `present`, or absent with the chance
        in `absent`, independently; only the cases with at least `need` seats present count.
        """
        one, zero = self.one, self.zero
        self.taken += sum(len(totals) for totals in present) << (self.count - 1)
        points = {total for totals in present for total in totals}
        above = [_above(totals, points, zero) for totals in present]
        tied: tuple[int, ...]
        for seat in range(self.count):
            others = [other for other in range(self.count) if other != seat]
            for total, chance in present[seat].items():
                for size in range(len(others) + 1):
                    for tied in combinations(others, size):
                        weight = _product((present[other].get(total, zero) for other in tied), chance)
                        if not weight:
                            continue
                        rest = [other for other in others if other not in tied]
                        spread = _product((absent[other] + above[other][total] for other in rest), one)
                        if not tied and self.need > 1:
                            spread -= _product((absent[other] for other in rest), one)
                        weight *= spread
                        group = tuple(sorted((seat, *tied)))
                        tally.wins[seat] += weight * self._share(group, seat)
                        if tied and seat == group[0]:
                            tally.tie += weight
                            if self.rules.ties is Ties.PLAYOFF:
                                playoff = self._playoff(group)
                                tally.shut_box_win += weight * playoff.shut_end
                                tally.playoff_rounds += weight * playoff.rounds

    def _share(self, group: tuple[int, ...], seat: int) -> C:
        """The part of a win that `seat` takes when the seats of `group` tie on the lowest result."""
        if len(group) == 1:
            return self.one
        if self.rules.ties is Ties.SHARE:
            return self.one / len(group)
        if self.rules.ties is Ties.SEAT:
            return self.one if seat == group[0] else self.zero
        return self._playoff(group).wins[seat]

    def _playoff(self, group: tuple[int, ...]) -> Playoff[C]:
        """A playoff among `group`: rounds among them until one has the lowest score alone (or,
        with instant win, shuts the box). A round that leaves all of them tied again is played
        again, so the answer is one round's outcome divided by the chance that it settles anything."""
        known = self._playoffs.get(group)
        if known is not None:
            return known
        one, zero = self.one, self.zero
        wins = dict.fromkeys(group, zero)
        shut_end = zero
        unshut = one
        for seat in group:
            shut = unshut * self.shut[seat]
            wins[seat] += shut
            shut_end += shut
            unshut *= one - self.shut[seat]
        points = {points for seat in group for points in self.steps[seat]}
        above = {seat: _above(self.steps[seat], points, zero) for seat in group}
        lowest: dict[tuple[int, ...], C] = {}
        for point in points:
            for size in range(1, len(group) + 1):
                for low in combinations(group, size):
                    chance = _product((self.steps[seat].get(point, zero) for seat in low), one)
                    chance = _product((above[seat][point] for seat in group if seat not in low), chance)
                    if chance:
                        lowest[low] = lowest.get(low, zero) + chance
        found = settled_playoff(group, wins, shut_end, lowest, self._playoff, one, zero)
        self._playoffs[group] = found
        return found

    def margins(self) -> dict[int, C]:
        """The distribution of seat 0's final total minus seat 1's, at a table of two
        playing fixed rounds: the totals when a shut box ends the game, or after the last round."""
        if self.count != 2 or self.rules.drop_out is not None:
            raise ValueError("margins are for two seats playing fixed rounds.")
        found: dict[int, C] = {}
        first: dict[int, C] = {0: self.one}
        second: dict[int, C] = {0: self.one}
        for _ in range(self.rules.rounds):
            _add_margins(found, first, second, self.shut[0])
            first = _step(first, self.steps[0], None)[0]
            _add_margins(found, first, second, self.shut[1])
            second = _step(second, self.steps[1], None)[0]
        _add_margins(found, first, second, self.one)
        return found


def _step(totals: Mapping[int, C], steps: Mapping[int, C], limit: int | None) -> tuple[dict[int, C], dict[int, C]]:
    """One more turn for a seat with these chances of its totals: the new totals of the seat still
    in, and of the seat that reaches the drop-out limit in it."""
    stay: dict[int, C] = {}
    dropped: dict[int, C] = {}
    for total, chance in totals.items():
        for points, step in steps.items():
            new = total + points
            into = dropped if limit is not None and new >= limit else stay
            into[new] = into[new] + chance * step if new in into else chance * step
    return stay, dropped


def _above(totals: Mapping[int, C], points: Iterable[int], zero: C) -> dict[int, C]:
    """For each of `points`, the chance of a total above it."""
    ordered = sorted(totals, reverse=True)
    found: dict[int, C] = {}
    higher = zero
    index = 0
    for point in sorted(set(points), reverse=True):
        while index < len(ordered) and ordered[index] > point:
            higher += totals[ordered[index]]
            index += 1
        found[point] = higher
    return found


def _at_least(seats: Sequence[tuple[C, C]], count: int, one: C) -> C:
    """The chance that at least `count` seats are in, each seat in or out with its own
    (independent) chances; the rest of a seat's chance is a case that does not count."""
    zero = one * 0
    ways = [one]  # ways[k]: the chance that exactly k of the seats so far are in
    for inside, outside in seats:
        ways = [
            (ways[k] * outside if k < len(ways) else zero) + (ways[k - 1] * inside if k else zero)
            for k in range(len(ways) + 1)
        ]
    return sum(ways[count:], zero)


def _product(chances: Iterable[C], start: C) -> C:
    for chance in chances:
        start *= chance
    return start


def _add_margins(found: dict[int, C], first: Mapping[int, C], second: Mapping[int, C], weight: C) -> None:
    """Add the differences of two independent totals, weighted."""
    if not weight:
        return
    for total, chance in first.items():
        for other, other_chance in second.items():
            margin = total - other
            add = weight * chance * other_chance
            found[margin] = found[margin] + add if margin in found else add
