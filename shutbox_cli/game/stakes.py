"""Perfect play for a stake: each seat of a one-round game maximises its expected winnings, knowing
that every later seat does too (`perfect.Equilibrium`'s backward induction over the seats, with the
worth of a score in stakes won instead of a chance to win).

The stake, as the published two-player game has it: every seat antes one stake into the pot; the
winner takes the pot, so each loser pays it one stake (joint winners under `share` split what the
losers pay; a tie between everyone is a push); a winner who shut the box (a score of 0: by the
instant win, or the lowest score where the box plays on) is paid `shut_pays` stakes by each loser.
A seat's winnings then depend on how many seats the table has, so a rule set is solved per table.

Ending a turn with a score is worth, to the seat that ends it: a shut box that wins at once, the
shut payout from everyone else; a score below the lowest posted or equal to it, what the seat wins
if no later seat scores lower, weighed by how many tie it (`_ahead_of`), less what it pays if one
does (the shut payout if the later seat's score that beats it is a shut box, else one stake); a
score above the lowest posted, one stake, or the shut payout if the game's winner shut the box.
With a payout of 1 every win is worth the same: a seat's winnings are the table size times its
chance to win, less its stake, and it plays as `perfect` does for the win.

A playoff's stakes are not the published game's (what would a shut box in a playoff pay?): ties
played off are refused here; with a payout of 1 the win chances (`perfect`) settle them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import lru_cache

from .perfect import Equilibrium, Situation
from .rules import Rules, Ties
from .solver import solution_distribution, solve_expected_score

Odds = Callable[[int | None, int, int], dict[int, float]]
"""The score distribution a seat plays for in a situation (to_beat, to_beat_count, to_come)."""
_State = tuple[int | None, tuple[int, ...]]
"""A round's state after some seats: the lowest score posted and the seats that posted it."""


@dataclasses.dataclass(frozen=True)
class Winnings:
    """What each seat of a one-round game wins, on average, in stakes (seats in order of play), the
    chance of a shared win (a push between two seats) and the chance the game is won by a shut box."""

    seats: tuple[float, ...]
    shared: float
    shut: float

    @property
    def advantage(self) -> float:
        """What the last seat wins more than the first, in stakes."""
        return self.seats[-1] - self.seats[0]

    def __repr__(self) -> str:
        shown = ", ".join(f"{value:+.4f}" for value in self.seats)
        return f"Winnings(seats=({shown}), shared={self.shared:.4f}, shut={self.shut:.4f})"


class Stakes(Equilibrium):
    """Perfect play for the stake at a table of `seats` seats under these rules (`stakes(rules, seats)`
    keeps one per rule set and table); a SeatPlay's `chances` are then winnings, in stakes."""

    def __init__(self, rules: Rules, seats: int) -> None:
        refuse_unstaked(rules)
        super().__init__(rules)
        self.seats = seats
        self.pays = rules.shut_pays
        self._shut_after: dict[tuple[int, int, int], float] = {}

    def __repr__(self) -> str:
        return f"Stakes({self.rules!r}, seats={self.seats}, {len(self._plays)} situations solved)"

    def winnings(self) -> Winnings:
        """Each seat's expected winnings under perfect play for the stake."""
        return table_winnings(self.rules, self.seats, lambda *situation: self.play(*situation).odds.probabilities)

    def _chance(self, situation: Situation, points: int) -> float:
        """What ending the turn with `points` wins this seat, in stakes (the base class's name: the
        equilibrium plays for it as it plays for a chance to win)."""
        best, count, to_come = situation
        if points == 0 and self.rules.instant_win:
            return self.pays * (self.seats - 1)
        if best is not None and points > best:
            return self._loses(best, count, to_come)
        if best is None or points < best:
            best, count, position = points, 1, 0
        else:
            count, position = count + 1, count
        if position and self.rules.ties is Ties.SEAT:  # an earlier seat posted it: a tie is lost
            return self._loses(best, count, to_come)
        ahead = self._ahead_of(best, count, to_come)
        pays = self.pays if best == 0 else 1.0
        won = sum(chance * self._share(pays, count + more) for more, chance in enumerate(ahead))
        shut = self._shut_beats(best, count, to_come)
        return won - self.pays * shut - (1.0 - sum(ahead) - shut)

    def _share(self, pays: float, tied: int) -> float:
        """A winner's winnings when `tied` seats post the winning score (the earliest of them alone
        wins under `seat`)."""
        winners = 1 if self.rules.ties is Ties.SEAT else tied
        return pays * (self.seats - winners) / winners

    def _loses(self, best: int, count: int, to_come: int) -> float:
        """What a seat that cannot win pays: the shut payout if the winner shut the box, else one stake."""
        shut = 1.0 if best == 0 else self._shut_beats(best, count, to_come)
        return -self.pays * shut - (1.0 - shut)

    def _shut_beats(self, best: int, count: int, left: int) -> float:
        """The chance that one of the `left` seats to play shuts the box below `best` (so the game's
        winner shut it), with `count` seats posted on `best`."""
        key = (best, count, left)
        known = self._shut_after.get(key)
        if known is None:
            known = 0.0
            if left and best > 0:
                odds = self.play(best, count, left - 1).odds.probabilities
                for points, chance in odds.items():
                    if points == 0:
                        known += chance
                    elif points < best:
                        known += chance * self._shut_beats(points, 1, left - 1)
                    else:
                        known += chance * self._shut_beats(best, count + (points == best), left - 1)
            self._shut_after[key] = known
        return known


def refuse_unstaked(rules: Rules) -> None:
    """A ValueError, in one sentence, for a stake this module does not solve: ties played off."""
    if rules.ties is Ties.PLAYOFF:
        raise ValueError(
            'a game for a stake is solved with ties settled by "share" or "seat": '
            "a playoff's pot, and what a shut box in it would pay, are no part of the published game."
        )


@lru_cache(maxsize=16)
def stakes(rules: Rules, seats: int) -> Stakes:
    """Perfect play for the stake under these rules at a table of `seats`, kept for the process (as
    `equilibrium` keeps its own, the last 16)."""
    return Stakes(rules, seats)


def optimal_winnings(rules: Rules, seats: int) -> Winnings:
    """Each seat's expected winnings when every seat plays `optimal` (the lowest expected score)."""
    odds = solution_distribution(solve_expected_score(rules)).probabilities
    return table_winnings(rules, seats, lambda *situation: odds)


def table_winnings(rules: Rules, seats: int, odds_of: Odds) -> Winnings:
    """Each seat's expected winnings when each plays for the score distribution `odds_of` gives its
    situation: the round walked seat by seat over (lowest posted, who posted it)."""
    won = [0.0] * seats
    shut = 0.0
    states: dict[_State, float] = {(None, ()): 1.0}
    for seat in range(seats):
        after: dict[_State, float] = {}
        for (best, tied), reach in states.items():
            for points, chance in odds_of(best, len(tied), seats - 1 - seat).items():
                if points == 0 and rules.instant_win:
                    shut += reach * chance
                    _pay(won, (seat,), rules.shut_pays, reach * chance)
                    continue
                state = _posted(best, tied, seat, points)
                after[state] = after.get(state, 0.0) + reach * chance
        states = after
    shared = 0.0
    for (best, tied), reach in states.items():
        winners = tied[:1] if rules.ties is Ties.SEAT else tied
        shared += reach if len(winners) > 1 else 0.0
        shut += reach if best == 0 else 0.0
        _pay(won, winners, rules.shut_pays if best == 0 else 1.0, reach)
    return Winnings(tuple(won), shared, shut)


def _posted(best: int | None, tied: tuple[int, ...], seat: int, points: int) -> _State:
    """The state after `seat` posts `points`."""
    if best is None or points < best:
        return points, (seat,)
    if points == best:
        return best, (*tied, seat)
    return best, tied


def _pay(won: list[float], winners: tuple[int, ...], pays: float, chance: float) -> None:
    """Add a game's payments, weighed by its chance: each loser pays `pays`, split among `winners`."""
    losers = len(won) - len(winners)
    for seat in range(len(won)):
        won[seat] += chance * (pays * losers / len(winners) if seat in winners else -pays)
