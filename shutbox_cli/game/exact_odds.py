"""Exact games' figures, shared by every path of the one exact walk (`exact_walk`): a turn's odds
from a full box, a seat's and a game's exact outcome, a duel's; the two kinds of chance (`Fraction`
or `float`, one kind throughout a computation); the checks a turn distribution passes; and the sum
of a playoff, a geometric series in closed form.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Generic, Literal, TypeVar, cast

from .rules import Rules
from .solver import DicePolicy, Distribution, MovePolicy, fraction_distribution

C = TypeVar("C", float, Fraction)
"""A chance: exact (`Fraction`) or rounded (`float`), one kind throughout a computation."""

Arithmetic = Literal["fraction", "float"]

LEFT_OVER = 1e-15
"""A drop-out game in which a score of 0 does not end anything may last any number of rounds: it is
followed until the chance that it is still going falls below this, and that chance is reported."""

FLOAT_SUM = 1e-9
"""How far from 1 a turn distribution in floats may add up (it is a sum of many rounded terms)."""


@dataclasses.dataclass(frozen=True)
class TurnOdds(Generic[C]):
    """One turn from a full box: each score's chance (a shut box counted at its score, 0) and the
    chance of a shut box, which is what instant win looks at."""

    probabilities: Mapping[int, C]
    shut_probability: C

    @staticmethod
    def of(found: Distribution) -> TurnOdds[float]:
        """The odds of a turn distribution from the solver (floats)."""
        return TurnOdds(found.probabilities, found.shut_probability)

    @property
    def expected_score(self) -> C:
        return sum((chance * points for points, chance in self.probabilities.items()), self.shut_probability * 0)


def exact_turn_odds(rules: Rules, choose_move: MovePolicy, choose_dice: DicePolicy) -> TurnOdds[Fraction]:
    """The exact score distribution of a policy of (open mask, dice) from a full box, in fractions."""
    probabilities, shut = fraction_distribution(rules, choose_move, choose_dice)
    return TurnOdds(probabilities, shut)


@dataclasses.dataclass(frozen=True)
class SeatOdds(Generic[C]):
    """One seat's exact figures over a game.

    `win` counts a shared win as an equal part; `played` is the chance of taking at least one
    regular turn (a shut box can end a game before later seats play); `turns` the expected number
    of regular turns (in drop-out, the rounds the seat lasted); `expected_total` the expected final
    total (0 in a game the seat did not play). `expected_score` and `shut_probability` are per turn.
    """

    win: C
    played: C
    turns: C
    expected_total: C
    expected_score: C
    shut_probability: C

    @property
    def mean_total(self) -> C | None:
        """The expected final total over the games the seat played (a tournament's mean total)."""
        return self.expected_total / self.played if self.played else None


@dataclasses.dataclass(frozen=True)
class GameOdds(Generic[C]):
    """The exact outcome of one game, seats in order of play.

    `shut_box_win` is the chance that a shut box wins it (in a playoff too); `tie` the chance that
    the tie rule has to settle it; `rounds` and `playoff_rounds` the expected numbers of regular and
    playoff rounds. `unresolved` is the chance left unfollowed: 0 unless a drop-out game may last
    any number of rounds, and then below `LEFT_OVER`; the wins add up to 1 less that.
    """

    rules: Rules
    seats: tuple[SeatOdds[C], ...]
    shut_box_win: C
    tie: C
    rounds: C
    playoff_rounds: C
    unresolved: C
    arithmetic: Arithmetic

    @property
    def wins(self) -> tuple[C, ...]:
        """Each seat's chance of winning, a shared win counted as an equal part."""
        return tuple(seat.win for seat in self.seats)


@dataclasses.dataclass(frozen=True)
class Duel(Generic[C]):
    """A against B at a table of two, A in seat `seat` (0 plays first).

    `margins` is the distribution of A's final total minus B's as the game record has them (a
    negative margin: A's total is lower); None in a drop-out game.
    """

    game: GameOdds[C]
    seat: int
    margins: dict[int, C] | None

    @property
    def a_wins(self) -> C:
        """A's chance of winning, a shared win counted as half."""
        return self.game.seats[self.seat].win

    @property
    def b_wins(self) -> C:
        return self.game.seats[1 - self.seat].win


@dataclasses.dataclass(frozen=True)
class Playoff(Generic[C]):
    """A playoff among tied seats: each one's chance to win it, the chance a shut box ends it, and
    its expected number of rounds."""

    wins: dict[int, C]
    shut_end: C
    rounds: C


def settled_playoff(
    group: tuple[int, ...],
    wins: dict[int, C],
    shut_end: C,
    lowest: dict[tuple[int, ...], C],
    further: Callable[[tuple[int, ...]], Playoff[C]],
    one: C,
    zero: C,
) -> Playoff[C]:
    """A playoff among `group` from one round's outcome: `wins` and `shut_end` by a shut box, and
    the chance of each group of seats having the lowest score (`further` plays a smaller tie off).
    A round that leaves all of `group` tied again is played again, so the round's outcome is
    divided by the chance that it settles anything."""
    settles = one - lowest.pop(group, zero)
    if settles < LEFT_OVER:
        raise ValueError(f"a playoff among seats {list(group)} would never end: they always score alike.")
    rounds = one
    for low, chance in lowest.items():
        if len(low) == 1:
            wins[low[0]] += chance
            continue
        tied = further(low)
        for seat in low:
            wins[seat] += chance * tied.wins[seat]
        shut_end += chance * tied.shut_end
        rounds += chance * tied.rounds
    return Playoff({seat: win / settles for seat, win in wins.items()}, shut_end / settles, rounds / settles)


def one_kind(turns: Sequence[TurnOdds[C]]) -> tuple[list[TurnOdds[C]], Arithmetic]:
    """The turn odds all in fractions (if every chance is a Fraction or an int) or all in floats:
    a caller without a type checker may mix them."""
    if all(is_exact(odds.shut_probability) and all(map(is_exact, odds.probabilities.values())) for odds in turns):
        kind: type = Fraction
        arithmetic: Arithmetic = "fraction"
    else:
        kind, arithmetic = float, "float"
    found = [
        TurnOdds({points: kind(chance) for points, chance in odds.probabilities.items()}, kind(odds.shut_probability))
        for odds in turns
    ]
    return cast(list[TurnOdds[C]], found), arithmetic


def is_exact(chance: object) -> bool:
    return isinstance(chance, (Fraction, int))


def check_turn(odds: TurnOdds[C], seat: int) -> None:
    """Refuse a turn distribution that is not one."""
    exact = isinstance(odds.shut_probability, Fraction)
    slack = 0 if exact else FLOAT_SUM
    for points, chance in odds.probabilities.items():
        if isinstance(points, bool) or not isinstance(points, int) or points < 0 or chance < 0:
            raise ValueError(f"seat {seat}'s turn distribution has {points!r}: {chance!r}; scores are whole numbers.")
    total = sum(odds.probabilities.values(), odds.shut_probability * 0)
    if abs(total - 1) > slack:
        raise ValueError(f"seat {seat}'s turn distribution adds up to {total}, not 1.")
    if odds.shut_probability < 0 or odds.shut_probability - odds.probabilities.get(0, 0) > slack:
        raise ValueError(
            f"seat {seat}'s shut-box chance {odds.shut_probability} is not between 0 and the chance of scoring 0."
        )


def go_on(odds: TurnOdds[C], instant_win: bool) -> dict[int, C]:
    """The scores of the turns that do not end the game, with their chances (a shut box ends it
    when instant win is on)."""
    steps = dict(odds.probabilities)
    if instant_win and 0 in steps:
        steps[0] -= odds.shut_probability
    return {points: chance for points, chance in steps.items() if chance > 0}
