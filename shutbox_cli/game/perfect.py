"""Perfect play in a one-round game: the subgame-perfect equilibrium of seats that each play to win,
found by backward induction over the seats still to play.

A seat's situation is what its chance to win depends on: the lowest score posted this round (None
before anyone has), how many seats posted it, and how many are still to play after it (the features
`to_beat`, `to_beat_count` and `to_come`). That is enough under every tie rule: a score posted
above the lowest can no longer win anything, and the seats that posted the lowest all sit earlier
than the seat deciding, so what a tie on it is worth follows from their number alone (`share`: 1/k
of a win among k; `seat`: the earliest of them wins, never the seat deciding; `playoff`: the tied
seats play a game of their own in their seat order, in which the seat deciding comes after those
already tied and before any later seat that ties too). The seats to come see situations made of the
same numbers. So a situation plays alike at any table and in a playoff, which is a one-round game
among the tied seats.

The last seat plays for its chance against the lowest score posted (target's exact best response).
An earlier seat weighs each score it may post by its chance to win once the seats after it have
played perfectly in the situations it leaves them. Each plays the solver's exact best policy for
those chances (`solve_chances`): of moves that tie exactly (within 1e-12), the one with the lower
expected score, then the first in move order (one die before two).

A playoff of k seats is worth each seat its chance in a game of k seats, whose own tie among all k
is that playoff again: a fixed point. The seats' chances start at 1/k each; the game is solved for
them and its own chances found (the playoff's round that ties all k again summed in closed form),
again and again until they change by no more than `TOLERANCE` (in practice until the policies
repeat, when the chances are exact for them).
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

from .rules import Rules, Ties
from .solver import Distribution, Solution, final_scores, solution_distribution, solve_chances

Situation = tuple[int | None, int, int]
"""(to_beat, to_beat_count, to_come): the lowest score posted (None if none), how many posted it, how
many seats are still to play after this one."""

MOST_WORK = 600_000
"""The most (scores a turn can end on) x (boxes) solved: each score posted is a situation whose policy
is solved over every box. 12 tiles summed (79 x 4,096) take up to 14 CPU-seconds with playoffs at a
table of four; 10 tiles with digits scoring (1,024 x 1,024) would take minutes."""
TOLERANCE = 1e-12
"""A playoff's chances are iterated until no seat's changes by more than this."""
ROUNDS = 200
"""The most iterations of a playoff's chances before the equilibrium says it found none."""


@dataclasses.dataclass(frozen=True)
class SeatPlay:
    """A seat's perfect play in one situation: its chance to win by the score it ends with
    (`final_scores` order), the policy it plays for them and that policy's score distribution."""

    situation: Situation
    chances: tuple[float, ...]
    policy: Solution
    odds: Distribution

    def __repr__(self) -> str:
        best, count, to_come = self.situation
        expected = self.odds.expected_score
        return f"SeatPlay(to_beat={best}, to_beat_count={count}, to_come={to_come}, expected score {expected:.4f})"


class Equilibrium:
    """Perfect play for every seat of a one-round game under these rules, worked out as it is asked
    (`equilibrium(rules)` keeps one per rule set)."""

    def __init__(self, rules: Rules) -> None:
        refuse_unsolved(rules)
        self.rules = rules
        self.scores = final_scores(rules.turn_rules)
        self._plays: dict[Situation, SeatPlay] = {}
        self._ahead: dict[tuple[int, int, int], tuple[float, ...]] = {}
        self._playoffs: dict[int, tuple[float, ...]] = {}
        self._found: dict[int, tuple[float, ...]] = {}
        self.iterations: dict[int, int] = {}
        """How many times each playoff's game was solved before its chances settled."""

    def __repr__(self) -> str:
        standard = {**Rules(tiles=self.rules.tiles).to_mapping(), "tiles": 9}
        changed = {name: value for name, value in self.rules.to_mapping().items() if standard[name] != value}
        rules = ", ".join(f"{name}={value}" for name, value in changed.items()) or "standard rules"
        return f"<Equilibrium of {rules}; {len(self._plays)} situations solved>"

    def play(self, to_beat: int | None, to_beat_count: int, to_come: int) -> SeatPlay:
        """The perfect play of a seat in this situation."""
        situation = (to_beat, to_beat_count, to_come)
        known = self._plays.get(situation)
        if known is None:
            _check(situation)
            if self.rules.ties is Ties.PLAYOFF:  # every playoff it may reach, settled first
                for tied in range(2, situation[1] + 2 + situation[2]):
                    self._playoff(tied)
            chances = tuple(self._chance(situation, points) for points in self.scores)
            policy = solve_chances(self.rules.turn_rules, chances)
            known = self._plays[situation] = SeatPlay(situation, chances, policy, solution_distribution(policy))
        return known

    def seat_chances(self, seats: int) -> tuple[float, ...]:
        """Each seat's chance to win a game of `seats` seats under perfect play (a tie's share counted
        as its part), seats in order of play."""
        if isinstance(seats, bool) or not isinstance(seats, int) or seats < 1:
            raise ValueError(f"a game has 1 seat or more, not {seats!r}.")
        if seats == 1:
            return (1.0,)
        if self.rules.ties is Ties.PLAYOFF:
            return self._played_off(seats)
        return self._round(seats)[0]

    def tie_chance(self, position: int, tied: int) -> float:
        """What a tie among `tied` seats is worth to the one at `position` among them (0 first)."""
        if tied == 1:
            return 1.0
        if self.rules.ties is Ties.SHARE:
            return 1.0 / tied
        if self.rules.ties is Ties.SEAT:
            return 1.0 if position == 0 else 0.0
        return self._playoff(tied)[position]

    def _chance(self, situation: Situation, points: int) -> float:
        """A seat's chance to win if it ends its turn with `points` in this situation."""
        best, count, to_come = situation
        if points == 0 and self.rules.instant_win:
            return 1.0
        if best is None or points < best:
            best, count, position = points, 1, 0
        elif points == best:
            count, position = count + 1, count
        else:
            return 0.0
        ahead = self._ahead_of(best, count, to_come)
        return sum(chance * self.tie_chance(position, count + more) for more, chance in enumerate(ahead))

    def _ahead_of(self, best: int, count: int, left: int) -> tuple[float, ...]:
        """With `count` seats posted on `best` and `left` still to play: by `more`, the chance that
        none of those to play scores lower and `more` of them score `best` too."""
        key = (best, count, left)
        known = self._ahead.get(key)
        if known is None:
            if left == 0:
                known = (1.0,)
            else:
                odds = self.play(best, count, left - 1).odds.probabilities
                above = sum(chance for points, chance in odds.items() if points > best)
                level = odds.get(best, 0.0)  # a posted score of 0 is never a shut box that won at once
                stays = self._ahead_of(best, count, left - 1)
                ties = self._ahead_of(best, count + 1, left - 1)
                known = tuple(
                    above * (stays[more] if more < len(stays) else 0.0) + (level * ties[more - 1] if more else 0.0)
                    for more in range(left + 1)
                )
            self._ahead[key] = known
        return known

    def _round(self, seats: int) -> tuple[tuple[float, ...], float]:
        """One round of `seats` seats under perfect play: each seat's chance to win it (ties among
        fewer than all settled by the tie rule), and the chance that all of them tie."""
        wins = [0.0] * seats
        states: dict[tuple[int | None, tuple[int, ...]], float] = {(None, ()): 1.0}
        for seat in range(seats):
            after: dict[tuple[int | None, tuple[int, ...]], float] = {}
            for (best, tied), reach in states.items():
                odds = self.play(best, len(tied), seats - 1 - seat).odds.probabilities
                for points, chance in odds.items():
                    if points == 0 and self.rules.instant_win:
                        wins[seat] += reach * chance
                        continue
                    state: tuple[int | None, tuple[int, ...]]
                    if best is None or points < best:
                        state = (points, (seat,))
                    elif points == best:
                        state = (best, (*tied, seat))
                    else:
                        state = (best, tied)
                    after[state] = after.get(state, 0.0) + reach * chance
            states = after
        everyone = 0.0
        for (_, tied), reach in states.items():
            if len(tied) == seats:
                everyone += reach
                if self.rules.ties is Ties.PLAYOFF:
                    continue
            for position, seat in enumerate(tied):
                wins[seat] += reach * self.tie_chance(position, len(tied))
        return tuple(wins), everyone

    def _playoff(self, seats: int) -> tuple[float, ...]:
        """What a playoff of `seats` seats is worth to each: the chances the seats' play was solved
        for, which differ from the chances that play gives (`_played_off`) by at most TOLERANCE."""
        known = self._playoffs.get(seats)
        if known is None:
            self._settle(seats)
            known = self._playoffs[seats]
        return known

    def _played_off(self, seats: int) -> tuple[float, ...]:
        """Each seat's chance in a game of `seats` seats whose ties are played off, as played."""
        if seats not in self._found:
            self._settle(seats)
        return self._found[seats]

    def _settle(self, seats: int) -> None:
        """Iterate a playoff's chances to their fixed point (the plays it reaches solved for them)."""
        for smaller in range(2, seats):
            self._playoff(smaller)
        guess = (1.0 / seats,) * seats
        for rounds in range(1, ROUNDS + 1):
            self._playoffs[seats] = guess
            self._forget(seats)
            wins, everyone = self._round(seats)
            found = tuple(win / (1.0 - everyone) for win in wins)
            if max(abs(new - old) for new, old in zip(found, guess, strict=True)) <= TOLERANCE:
                self.iterations[seats] = rounds
                self._found[seats] = found
                return
            guess = found
        raise ValueError(f"the playoff of {seats} seats found no equilibrium in {ROUNDS} iterations.")

    def _forget(self, seats: int) -> None:
        """Drop every play that a tie of `seats` seats could reach: it was made for another guess."""
        self._plays = {key: play for key, play in self._plays.items() if key[1] + 1 + key[2] < seats}
        self._ahead = {key: ahead for key, ahead in self._ahead.items() if key[1] + key[2] < seats}


def _check(situation: Situation) -> None:
    best, count, to_come = situation
    if count < 0 or to_come < 0 or (best is None) != (count == 0):
        raise ValueError(
            f"to_beat={best!r}, to_beat_count={count!r}, to_come={to_come!r} is not a situation: "
            "a score to beat goes with a count of 1 or more, and none with 0."
        )


def refuse_unsolved(rules: Rules) -> None:
    """A ValueError, in one sentence, for rules whose perfect play is not solved: games of several
    rounds or drop-out, and rules whose scores times boxes exceed `MOST_WORK`."""
    if rules.multi_round:
        raise ValueError(
            "this perfect play is worked out for one-round games only: over several rounds or in drop-out "
            "it is solved for a table of two, to win, not for a stake (a seat's situation holds every total)."
        )
    scores = len(final_scores(rules.turn_rules))
    if scores * (rules.full_box + 1) > MOST_WORK:
        raise ValueError(
            f"perfect play is not solved under these rules: a turn can end on {scores:,} scores of "
            f"{rules.full_box + 1:,} boxes, and every score posted is a situation to solve (up to "
            f"{MOST_WORK:,} scores times boxes are: 12 tiles summed, 9 with digits)."
        )


@lru_cache(maxsize=16)
def equilibrium(rules: Rules) -> Equilibrium:
    """Perfect play under these rules, kept for the process (one per rule set)."""
    return Equilibrium(rules)
