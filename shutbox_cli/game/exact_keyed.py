"""Exact games with keyed seats: a seat whose turn odds depend on its key, the features of the game
it sees at the start of its turn (`TurnStart`: the features `strategies.keys` names).

In a one-round game every feature is known from where the round stands, so the seats are walked in
order of play with a state that holds what the result needs: the lowest score posted and the seats
that posted it. Each seat's turn odds come from its key in that state (asked once per key). The
lowest seat wins; seats tied on it are settled by the tie rule, a playoff by its own walk among
them, summed in closed form (a playoff round is like the one before: a key may not read the round).

A key that reads nothing but the seat (and whether a round is a playoff, where there is none) is
fixed for the whole game: such a seat plays any format with `exact_games`. Over several rounds or
in drop-out any other key depends on every seat's total, which this walk does not follow: at a
table of two `exact_pairs` follows both totals round by round (a key may read the round over
fixed rounds, not in drop-out, which does not bound it); at other tables the totals are not
followed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Generic, TypeAlias, cast

from .exact_games import (
    Arithmetic,
    C,
    Duel,
    GameOdds,
    SeatOdds,
    TurnOdds,
    _check,
    _exact,
    _go_on,
    _one_kind,
    _Playoff,
    duel,
    game_odds,
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
    changing = [feature for feature in features if feature not in _fixed(rules, seats)]
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
    return bool(set(features) - _fixed(rules, seats))


def _fixed(rules: Rules, seats: int) -> set[str]:
    """The features a seat sees alike at every turn of a game."""
    fixed = {"seat"}
    if rules.ties is not Ties.PLAYOFF or seats == 1:
        fixed.add("playoff")
    return fixed


def keyed_game_odds(rules: Rules, seats: Sequence[Seat[C]]) -> GameOdds[C]:
    """The exact outcome of one game whose seats, in order of play, have fixed or keyed turn odds."""
    fixed = _resolved(rules, seats)
    if fixed is not None:
        return game_odds(rules, fixed)
    if rules.multi_round:  # at a table of two: `_resolved` refuses the others
        from .exact_pairs import pair_odds  # it builds on this module

        return pair_odds(rules, seats)
    return _OneRound(rules, seats).odds()


def keyed_duel(rules: Rules, a: Seat[C], b: Seat[C], seat: int) -> Duel[C]:
    """A against B with A in seat 0 or 1, either keyed: the exact game and the distribution of the margin."""
    if seat not in (0, 1):
        raise ValueError(f"A's seat must be 0 or 1, not {seat!r}.")
    order = (a, b) if seat == 0 else (b, a)
    fixed = _resolved(rules, order)
    if fixed is not None:
        return duel(rules, fixed[seat], fixed[1 - seat], seat)
    if rules.multi_round:
        from .exact_pairs import pair_duel

        odds, margins = pair_duel(rules, order, seat)
        return Duel(odds, seat, margins)
    game = _OneRound(rules, order)
    return Duel(game.odds(), seat, game.margins(seat))


def _resolved(rules: Rules, seats: Sequence[Seat[C]]) -> list[TurnOdds[C]] | None:
    """Every seat's one turn odds when no key changes during a game (None: some key does); a
    ValueError when a key cannot be followed under these rules."""
    count = len(seats)
    found: list[TurnOdds[C]] = []
    for number, seat in enumerate(seats):
        if isinstance(seat, TurnOdds):
            found.append(seat)
            continue
        why = unsupported(rules, seat.features, count)
        if why is not None:
            raise ValueError(f"seat {number} cannot be computed exactly: {why}.")
        if set(seat.features) - _fixed(rules, count):
            return None
        found.append(seat.odds(seat.key(TurnStart(number, 0, False, 0, None, 0, 0, None))))  # reads the seat
    return found


@dataclasses.dataclass(frozen=True)
class _Turn(Generic[C]):
    """One seat's turn odds for a key, ready for the walk: the scores that do not end the game."""

    odds: TurnOdds[C]
    steps: dict[int, C]
    shut: C
    """The chance its shut box ends the game (0 without instant win)."""
    expected_score: C


State = tuple[int | None, tuple[int, ...]]
"""Where a round stands between turns: the lowest score posted (None: none yet) and the seats that posted it."""


class _Keyed(Generic[C]):
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
            converted, arithmetic = _one_kind(fixed)
            self.kind = Fraction if arithmetic == "fraction" else float
            it = iter(converted)
            self.seats = [next(it) if isinstance(seat, TurnOdds) else seat for seat in seats]
        for number, seat in enumerate(self.seats):
            if isinstance(seat, KeyedTurns):
                why = unsupported(rules, seat.features, self.count)
                if why is not None:
                    raise ValueError(f"seat {number} cannot be computed exactly: {why}.")
        self.totals = any(
            isinstance(seat, KeyedTurns) and {"total", "leader_total"} & set(seat.features) for seat in self.seats
        )
        self._turns: list[dict[tuple[Any, ...], _Turn[C]]] = [{} for _ in seats]
        self.keep = True
        """Whether each seat's turn is kept by key (a walk that meets every key once keeps none)."""
        self._playoffs: dict[tuple[tuple[int, ...], int | None], _Playoff[C]] = {}
        self._alike: dict[int, tuple[TurnOdds[Any], _Turn[C]]] = {}
        """Each seat's turn by the odds it was given (kept, so that no other takes their id)."""
        turn = self.turn(0, first)  # it sets the kind
        self.one: C = turn.shut * 0 + 1
        self.zero: C = self.one * 0

    def turn(self, seat: int, start: TurnStart) -> _Turn[C]:
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
                _check(odds, seat)
                instant = self.rules.instant_win
                shut = odds.shut_probability if instant else odds.shut_probability * 0
                alike = self._alike[id(asked)] = (asked, _Turn(odds, _go_on(odds, instant), shut, odds.expected_score))
            found = alike[1]
            if self.keep:
                self._turns[seat][key] = found
        return found

    def _kind(self, odds: TurnOdds[Any]) -> TurnOdds[C]:
        """Turn odds in the game's one kind of chance (the first seen, where no seat is fixed)."""
        if self.kind is None:
            exact = _exact(odds.shut_probability) and all(map(_exact, odds.probabilities.values()))
            self.kind = Fraction if exact else float
        kind = self.kind
        return cast(
            TurnOdds[C],
            TurnOdds(
                {points: kind(chance) for points, chance in odds.probabilities.items()}, kind(odds.shut_probability)
            ),
        )

    def _round(
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
                for points, step in turn.steps.items():
                    state: State = before
                    if low is None or points < low:
                        state = (points, (seat,))
                    elif points == low:
                        state = (low, (*tied, seat))
                    after[state] = after.get(state, zero) + chance * step
            states = after
            figures.append((played, scored, shuts))
        return states, instant, figures

    def _playoff(self, group: tuple[int, ...], known: int | None, total: int) -> _Playoff[C]:
        """A playoff among `group`, tied on `total`: rounds among them until one has the lowest score
        alone (or, with instant win, shuts the box); a round that leaves all of them tied again is
        played again, so the answer is one round's outcome divided by the chance that it settles
        anything. `known`: the total, where a key reads it (None: the playoff is alike at any total)."""
        cached = self._playoffs.get((group, known))
        if cached is not None:
            return cached
        one, zero = self.one, self.zero
        states, wins, _ = self._round(group, True, total)
        shut_end = sum(wins.values(), zero)
        lowest: dict[tuple[int, ...], C] = {}
        for (_, low), chance in states.items():
            lowest[low] = lowest.get(low, zero) + chance
        found = settled_playoff(group, wins, shut_end, lowest, lambda low: self._playoff(low, known, total), one, zero)
        self._playoffs[(group, known)] = found
        return found


class _OneRound(_Keyed[C]):
    """A one-round game of keyed and fixed seats, walked seat by seat."""

    def __init__(self, rules: Rules, seats: Sequence[Seat[C]]) -> None:
        if rules.multi_round:
            raise ValueError("keyed seats are followed through one-round games only.")
        count = len(seats)
        _Keyed.__init__(self, rules, seats, _start(0, 0, tuple(range(count)), False, 0, (None, ())))

    def odds(self) -> GameOdds[C]:
        zero, one = self.zero, self.one
        group = tuple(range(self.count))
        states, instant, figures = self._round(group, False, 0)
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
                playoff = self._playoff(tied, low if self.totals else None, cast(int, low))
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

    def margins(self, seat: int) -> dict[int, C]:
        """The distribution of seat `seat`'s total minus the other's, at a table of two (a box
        shut with instant win leaves the seat after it on 0)."""
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
        sign = 1 if seat == 0 else -1
        return {sign * margin: chance for margin, chance in sorted(found.items(), key=lambda item: sign * item[0])}


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
