"""The exact walk's seats (`exact_walk`): each seat's turn odds from its key, the features of the
game it sees at the start of its turn (`TurnStart`: the features `strategies.keys` names); a seat
with fixed turn odds has one key, the empty one. And the walk of one round among seats in order,
which the one-round game, every playoff of keyed seats and the walk over both totals share.

In one round every feature is known from where the round stands, so the seats are walked in order
of play with a state that holds what the result needs: the lowest score posted and the seats that
posted it. Each seat's turn odds come from its key in that state (asked once per key). The lowest
seat wins; seats tied on it are settled by the tie rule, a playoff by its own walk among them,
summed in closed form (a playoff round is like the one before: a key may not read the round).

A key that reads nothing but the seat (and whether a round is a playoff, where there is none) is
fixed for the whole game (`fixed_turns`): the walk advances such seats by its product path
(`exact_product`) in any format. Over several rounds or in drop-out any other key depends on every
seat's total: at a table of two the walk follows both totals round by round (`exact_pairs`; a key
may read the round over fixed rounds, not in drop-out, which does not bound it); at other tables
the totals are not followed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Generic, TypeAlias, cast

from .exact_odds import (
    Arithmetic,
    C,
    GameOdds,
    Playoff,
    SeatOdds,
    TurnOdds,
    check_turn,
    go_on,
    is_exact,
    one_kind,
    settled_playoff,
)
from .rules import Rules, Ties


@dataclasses.dataclass(frozen=True)
class TurnStart:
    """What a seat sees of the game as its turn starts, seen from that seat (`strategies.keys.FEATURES`)."""

    seat: int
    round: int
    playoff: bool
    total: int
    to_beat: int | None
    to_beat_count: int
    to_come: int
    leader_total: int | None


FEATURES = tuple(field.name for field in dataclasses.fields(TurnStart))


@dataclasses.dataclass(frozen=True)
class KeyedTurns(Generic[C]):
    """A seat whose turns depend on its key: the `features` it reads (names of `TurnStart`'s
    fields, in its order) and its turn odds for the values of a key."""

    features: tuple[str, ...]
    odds: Callable[[tuple[Any, ...]], TurnOdds[C]]

    def key(self, start: TurnStart) -> tuple[Any, ...]:
        return tuple(getattr(start, feature) for feature in self.features)


Seat: TypeAlias = "TurnOdds[C] | KeyedTurns[C]"


def unsupported(rules: Rules, features: Sequence[str], seats: int) -> str | None:
    """Why a seat keyed on `features` cannot be computed exactly in a game of `seats` seats under
    these rules (None: it can)."""
    changing = [feature for feature in features if feature not in fixed_features(rules, seats)]
    if not changing:
        return None
    reads = ", ".join(changing)
    if "round" in changing and rules.drop_out is not None:
        return "its key reads the round, which a drop-out game does not bound"
    if "round" in changing and rules.ties is Ties.PLAYOFF and seats > 1:
        return "its key reads the round, and a playoff may last any number of rounds"
    if not rules.multi_round or seats == 2:
        return None
    game = "a drop-out game" if rules.drop_out is not None else "a game of several rounds"
    if changing == ["round"]:
        what = "changes from round to round"
    else:
        what = "follows " + ("its own total" if seats == 1 else "the totals of several rivals")
    return (
        f"its key reads {reads}, which in {game} of {seats} seat{'s' if seats > 1 else ''} {what}; exact games "
        "follow such a key in drop-out and over several rounds at a table of two"
    )


def changes(rules: Rules, features: Sequence[str], seats: int) -> bool:
    """Whether a key on `features` may change during a game of `seats` seats under these rules."""
    return bool(set(features) - fixed_features(rules, seats))


def fixed_features(rules: Rules, seats: int) -> set[str]:
    """The features a seat sees alike at every turn of a game."""
    fixed = {"seat"}
    if rules.ties is not Ties.PLAYOFF or seats == 1:
        fixed.add("playoff")
    return fixed


def refuse_unfollowed(rules: Rules, seats: Sequence[Seat[Any]]) -> None:
    """A ValueError naming the first seat whose key cannot be followed under these rules."""
    for number, seat in enumerate(seats):
        if isinstance(seat, KeyedTurns):
            why = unsupported(rules, seat.features, len(seats))
            if why is not None:
                raise ValueError(f"seat {number} cannot be computed exactly: {why}.")


def fixed_for_the_game(rules: Rules, seats: Sequence[Seat[Any]]) -> bool:
    """Whether every seat's turn odds are fixed for a game of these seats: no key changes during it."""
    count = len(seats)
    return not any(isinstance(seat, KeyedTurns) and changes(rules, seat.features, count) for seat in seats)


def fixed_turns(seats: Sequence[Seat[C]]) -> list[TurnOdds[C]]:
    """Every seat's one turn odds, where they are fixed for the game (`fixed_for_the_game`)."""
    return [
        seat if isinstance(seat, TurnOdds) else seat.odds(seat.key(TurnStart(number, 0, False, 0, None, 0, 0, None)))
        for number, seat in enumerate(seats)
    ]


def opening_turn(seat: Seat[C], table: int) -> TurnOdds[C]:
    """A seat's turn odds as seat 0 of a table of `table` sees them at the start of a game."""
    if isinstance(seat, TurnOdds):
        return seat
    return seat.odds(seat.key(TurnStart(0, 0, False, 0, None, 0, table - 1, 0 if table > 1 else None)))


@dataclasses.dataclass(frozen=True)
class Turn(Generic[C]):
    """One seat's turn odds for a key, ready for the walk: the scores that do not end the game."""

    odds: TurnOdds[C]
    steps: dict[int, C]
    shut: C
    """The chance its shut box ends the game (0 without instant win)."""
    expected_score: C


State = tuple[int | None, tuple[int, ...]]
"""Where a round stands between turns: the lowest score posted (None: none yet) and the seats that posted it."""


class Seats(Generic[C]):
    """A game of keyed and fixed seats: each seat's turn odds for the key it sees, asked once per
    key, in the game's one kind of chance; and a playoff among tied seats, walked round by round
    (a walk over several rounds or drop-out builds on it, `exact_pairs`)."""

    def __init__(self, rules: Rules, seats: Sequence[Seat[C]], first: TurnStart) -> None:
        if not seats:
            raise ValueError("a game needs at least one player.")
        self.rules = rules
        self.seats: list[Seat[C]] = list(seats)
        self.count = len(seats)
        fixed = [seat for seat in seats if isinstance(seat, TurnOdds)]
        self.kind: type | None = None
        if fixed:
            converted, arithmetic = one_kind(fixed)
            self.kind = Fraction if arithmetic == "fraction" else float
            it = iter(converted)
            self.seats = [next(it) if isinstance(seat, TurnOdds) else seat for seat in seats]
        refuse_unfollowed(rules, self.seats)
        self.totals = any(
            isinstance(seat, KeyedTurns) and {"total", "leader_total"} & set(seat.features) for seat in self.seats
        )
        self._turns: list[dict[tuple[Any, ...], Turn[C]]] = [{} for _ in seats]
        self.keep = True
        """Whether each seat's turn is kept by key (a walk that meets every key once keeps none)."""
        self._playoffs: dict[tuple[tuple[int, ...], int | None], Playoff[C]] = {}
        self._alike: dict[int, tuple[TurnOdds[Any], Turn[C]]] = {}
        """Each seat's turn by the odds it was given (kept, so that no other takes their id)."""
        self.taken = 0
        """The steps taken so far: each state met times each score of the turn taken there."""
        turn = self.turn(0, first)  # it sets the kind
        self.one: C = turn.shut * 0 + 1
        self.zero: C = self.one * 0

    def turn(self, seat: int, start: TurnStart) -> Turn[C]:
        """A seat's turn odds as it sees `start`."""
        given = self.seats[seat]
        if isinstance(given, TurnOdds):
            key: tuple[Any, ...] = ()
        else:
            key = given.key(start)
        found = self._turns[seat].get(key)
        if found is None:
            asked = given if isinstance(given, TurnOdds) else given.odds(key)
            alike = self._alike.get(id(asked))  # keys played alike (many are): one turn
            if alike is None:
                odds = asked if isinstance(given, TurnOdds) else self._kind(asked)
                check_turn(odds, seat)
                instant = self.rules.instant_win
                shut = odds.shut_probability if instant else odds.shut_probability * 0
                alike = self._alike[id(asked)] = (asked, Turn(odds, go_on(odds, instant), shut, odds.expected_score))
            found = alike[1]
            if self.keep:
                self._turns[seat][key] = found
        return found

    def _kind(self, odds: TurnOdds[Any]) -> TurnOdds[C]:
        """Turn odds in the game's one kind of chance (the first seen, where no seat is fixed)."""
        if self.kind is None:
            exact = is_exact(odds.shut_probability) and all(map(is_exact, odds.probabilities.values()))
            self.kind = Fraction if exact else float
        kind = self.kind
        return cast(
            TurnOdds[C],
            TurnOdds(
                {points: kind(chance) for points, chance in odds.probabilities.items()}, kind(odds.shut_probability)
            ),
        )

    def walk_round(
        self, group: tuple[int, ...], playoff: bool, total: int
    ) -> tuple[dict[State, C], dict[int, C], list[tuple[C, C, C]]]:
        """One round among `group` (in order of play): the chance of each state at its end (no
        box shut with instant win), each seat's instant wins, and each seat's chance to play,
        expected score and expected shut boxes."""
        zero, one = self.zero, self.one
        states: dict[State, C] = {(None, ()): one}
        instant: dict[int, C] = dict.fromkeys(group, zero)
        figures: list[tuple[C, C, C]] = []
        tied: tuple[int, ...]
        taken = 0
        for position, seat in enumerate(group):
            after: dict[State, C] = {}
            played = scored = shuts = zero
            for before, chance in states.items():
                low, tied = before
                turn = self.turn(seat, _start(seat, position, group, playoff, total, before))
                played += chance
                scored += chance * turn.expected_score
                shuts += chance * turn.odds.shut_probability
                instant[seat] += chance * turn.shut
                taken += len(turn.steps)
                for points, step in turn.steps.items():
                    state: State = before
                    if low is None or points < low:
                        state = (points, (seat,))
                    elif points == low:
                        state = (low, (*tied, seat))
                    after[state] = after.get(state, zero) + chance * step
            states = after
            figures.append((played, scored, shuts))
        self.taken += taken
        return states, instant, figures

    def playoff(self, group: tuple[int, ...], known: int | None, total: int) -> Playoff[C]:
        """A playoff among `group`, tied on `total`: rounds among them until one has the lowest score
        alone (or, with instant win, shuts the box); a round that leaves all of them tied again is
        played again, so the answer is one round's outcome divided by the chance that it settles
        anything. `known`: the total, where a key reads it (None: the playoff is alike at any total)."""
        cached = self._playoffs.get((group, known))
        if cached is not None:
            return cached
        one, zero = self.one, self.zero
        states, wins, _ = self.walk_round(group, True, total)
        shut_end = sum(wins.values(), zero)
        lowest: dict[tuple[int, ...], C] = {}
        for (_, low), chance in states.items():
            lowest[low] = lowest.get(low, zero) + chance
        found = settled_playoff(group, wins, shut_end, lowest, lambda low: self.playoff(low, known, total), one, zero)
        self._playoffs[(group, known)] = found
        return found


class OneRoundWalk(Seats[C]):
    """A one-round game of keyed and fixed seats, walked seat by seat."""

    def __init__(self, rules: Rules, seats: Sequence[Seat[C]]) -> None:
        if rules.multi_round:
            raise ValueError("keyed seats are followed through one-round games only.")
        count = len(seats)
        Seats.__init__(self, rules, seats, _start(0, 0, tuple(range(count)), False, 0, (None, ())))

    def odds(self) -> GameOdds[C]:
        zero, one = self.zero, self.one
        group = tuple(range(self.count))
        states, instant, figures = self.walk_round(group, False, 0)
        wins = [instant[seat] for seat in group]
        shut_box_win = sum(instant.values(), zero)
        tie = playoff_rounds = zero
        for (low, tied), chance in states.items():
            if len(tied) == 1:
                wins[tied[0]] += chance
                continue
            tie += chance
            if self.rules.ties is Ties.SHARE:
                for seat in tied:
                    wins[seat] += chance / len(tied)
            elif self.rules.ties is Ties.SEAT:
                wins[tied[0]] += chance
            else:
                playoff = self.playoff(tied, low if self.totals else None, cast(int, low))
                for seat in tied:
                    wins[seat] += chance * playoff.wins[seat]
                shut_box_win += chance * playoff.shut_end
                playoff_rounds += chance * playoff.rounds
        seats = tuple(
            SeatOdds(
                wins[seat],
                played,
                played,
                scored,
                scored / played if played else zero,
                shuts / played if played else zero,
            )
            for seat, (played, scored, shuts) in enumerate(figures)
        )
        arithmetic: Arithmetic = "fraction" if isinstance(one, Fraction) else "float"
        return GameOdds(self.rules, seats, shut_box_win, tie, one, playoff_rounds, zero, arithmetic)

    def margins(self) -> dict[int, C]:
        """The distribution of seat 0's total minus seat 1's, at a table of two (a box shut with
        instant win leaves the seat after it on 0)."""
        if self.count != 2:
            raise ValueError("margins are for two seats.")
        zero = self.zero
        found: dict[int, C] = {}
        first = self.turn(0, _start(0, 0, (0, 1), False, 0, (None, ())))
        _add(found, 0, first.shut, zero)
        for points, chance in first.steps.items():
            second = self.turn(1, _start(1, 1, (0, 1), False, 0, (points, (0,))))
            _add(found, points, chance * second.shut, zero)
            for other, step in second.steps.items():
                _add(found, points - other, chance * step, zero)
        return found


def _start(seat: int, position: int, group: tuple[int, ...], playoff: bool, total: int, state: State) -> TurnStart:
    """What `seat` sees as it plays `position`-th in a round among `group`, which stands at `state`;
    every seat in the round has `total`."""
    low, tied = state
    among = len(group)
    return TurnStart(
        seat, int(playoff), playoff, total, low, len(tied), among - 1 - position, total if among > 1 else None
    )


def _add(found: dict[int, C], margin: int, chance: C, zero: C) -> None:
    if chance:
        found[margin] = found.get(margin, zero) + chance
