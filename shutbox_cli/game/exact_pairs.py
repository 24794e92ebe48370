"""The exact walk's path over both totals (`exact_walk`): games of two seats over several rounds,
fixed or drop-out, whose turns depend on the game so far (`exact_seats`'s keyed seats, `target`
among them): a walk over the joint state, both totals, round by round.

Seat 0 sees both totals as its turn starts; seat 1 both totals and the score seat 0 posted. Each
seat's turn odds come from its key in that context, asked once per context (and round, where a
key reads it) and kept for the game. After seat 1's turn a round may settle the game, as a limit
does (`_Closing`): in drop-out a seat whose total reached the limit is out, the other one wins;
after the last of fixed rounds both are out at once (a limit of 0). Both out, the lower total
wins, a tie settled by the tie rule (a playoff by `exact_seats`'s round walk among the two, at their
total). A shut box with instant win wins at once. A drop-out game in which a score of 0 does not
end anything may last any number of rounds: it is followed until the chance that it goes on is
below `LEFT_OVER` (so a key may not read the round there; over fixed rounds it may).

In fractions the walk adds whole numbers: every turn's chances are numerators over one denominator
(36 to the power of one more than the tiles, as the solver's distributions are; a wider one where
a turn needs it), so a state's weight after `r` rounds is a whole number over that denominator to
the power `2r`, and fractions are made only for what a round settles.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Generic

from .exact_odds import LEFT_OVER, Arithmetic, C, GameOdds, SeatOdds
from .exact_seats import KeyedTurns, Seat, Seats, Turn, TurnStart
from .rules import Rules, Ties

Weight = Any
"""A state's weight: a whole number over the round's denominator (fractions), or a float."""


class _Wider(Exception):
    """A turn's chances need a wider common denominator than the walk's."""

    def __init__(self, denominator: int) -> None:
        self.denominator = denominator


def pairs_walk(rules: Rules, seats: Sequence[Seat[C]]) -> tuple[PairsWalk[C], GameOdds[C]]:
    """Such a game walked: the walk (its `margins`, over fixed rounds, the chance of each of seat
    0's final totals less seat 1's; its `taken` steps) and the game's exact outcome."""
    whole = 36 ** (rules.tiles + 1)
    while True:
        try:
            walk = PairsWalk(rules, seats, whole)
            return walk, walk.odds()
        except _Wider as wider:
            whole = math.lcm(whole, wider.denominator)


class _Moves(Generic[C]):
    """A turn's odds as the walk adds them: the scores that do not end the game with their weights
    (numerators over the walk's denominator, or floats), and the weight of a shut box that does."""

    def __init__(self, turn: Turn[C], whole: int | None) -> None:
        self.turn: Turn[C] = turn
        if whole is None:
            self.steps: list[tuple[int, Weight]] = list(turn.steps.items())
            self.shut: Weight = turn.shut
        else:
            self.steps = [(points, _whole(chance, whole)) for points, chance in turn.steps.items()]
            self.shut = _whole(turn.shut, whole)
        self.stays = list(turn.steps) == [0] and not self.shut
        """It always scores 0 and ends nothing."""


def _whole(chance: Any, whole: int) -> int:
    """A fraction's numerator over `whole` (a wider one needed: `_Wider`)."""
    chance = Fraction(chance)
    if whole % chance.denominator:
        raise _Wider(chance.denominator)
    return int(chance.numerator * (whole // chance.denominator))


Group = tuple[int, int, int]
"""Where seat 0's turn leaves a round: seat 0's total after it, seat 1's total, and (the id of) seat 1's turn."""


class _Closing(Generic[C]):
    """Seat 1's turn in a group, and where its scores leave the game when a total of `limit` or
    more is out (None: no one is): the states both stay in (with the weights of the scores that
    lead there), the weights with which each seat wins, the weight of a tie, both out on the same
    total (the group's first), and the weights of the margins the game ends on."""

    def __init__(self, moves: _Moves[C], first: int, total: int, limit: int | None, nothing: Weight) -> None:
        self.moves: _Moves[C] = moves
        self.stay: list[tuple[tuple[int, int], Weight]] = []
        self.won: list[Weight] = [nothing, nothing]
        self.tied: Weight = nothing
        self.ends: list[tuple[int, Weight]] = []
        for points, step in moves.steps:
            second = total + points
            first_out, second_out = limit is not None and first >= limit, limit is not None and second >= limit
            if not (first_out or second_out):
                self.stay.append(((first, second), step))
                continue
            self.ends.append((first - second, step))
            if first == second:
                self.tied += step
            else:
                self.won[0 if second_out and (not first_out or first < second) else 1] += step


class _Figures(Generic[C]):
    """A seat's figures over the game: the chance it plays each round, its expected score and shut boxes."""

    def __init__(self, zero: C) -> None:
        self.turns: C = zero
        self.scored: C = zero
        self.shuts: C = zero
        self.played: C | None = None


class PairsWalk(Seats[C]):
    """A game of two seats over several rounds or drop-out, walked round by round over both totals."""

    def __init__(self, rules: Rules, seats: Sequence[Seat[C]], whole: int) -> None:
        if not rules.multi_round or len(seats) != 2:
            raise ValueError("this walk follows games of two seats over several rounds or drop-out.")
        Seats.__init__(self, rules, seats, _first(0, 0, 0))
        self.exact = self.kind is Fraction
        self.whole: int | None = whole if self.exact else None
        self.by_round = any(isinstance(seat, KeyedTurns) and "round" in seat.features for seat in self.seats)
        """Whether a seat's turn at a state depends on the round: then a state is met once a round
        and what it leads to is not kept, nor a seat's turn by key (asked again, where a key does
        not read the totals)."""
        self.keep = not self.by_round
        self._first: dict[tuple[int, int, int], _Moves[C]] = {}
        self._second: dict[tuple[int, int, int, int], _Moves[C]] = {}
        self._moves: dict[int, _Moves[C]] = {}  # by turn: its turns are kept for the game
        self._seconds: dict[int, _Moves[C]] = {}  # seat 1's, by id
        self._openings: dict[tuple[int, int, int], tuple[_Moves[C], list[tuple[Group, Weight]]]] = {}
        self._closings: dict[tuple[int | None, Group], _Closing[C]] = {}
        self.nothing: Weight = 0 if self.exact else 0.0
        self.endless = False
        self.margins: dict[int, C] | None = None if rules.drop_out is not None else {}
        """Over fixed rounds, the chance of each margin (seat 0's total less seat 1's) the game ends on."""

    def limit(self, number: int) -> int | None:
        """The total at which a seat is out after round `number` (None: no one is): the drop-out
        limit, or over fixed rounds 0 after the last (both are out: the lower total wins)."""
        if self.rules.drop_out is not None:
            return self.rules.drop_out
        return 0 if number == self.rules.rounds - 1 else None

    def moves(self, seat: int, start: TurnStart) -> _Moves[C]:
        """A seat's turn as it sees `start`, one `_Moves` for each distinct turn."""
        turn: Turn[C] = self.turn(seat, start)
        found = self._moves.get(id(turn))
        if found is None:
            found = self._moves[id(turn)] = _Moves(turn, self.whole)
            drop_out = self.rules.drop_out is not None
            self.endless = self.endless or (drop_out and any(points == 0 for points, _ in found.steps))
        return found

    def first(self, number: int, total: int, other: int) -> _Moves[C]:
        """Seat 0's turn with these totals in round `number` (0 where no key reads the round)."""
        found = self._first.get((number, total, other))
        if found is None:
            found = self.moves(0, _first(total, other, number))
            if not self.by_round:
                self._first[(number, total, other)] = found
        return found

    def second(self, number: int, total: int, other: int, posted: int) -> _Moves[C]:
        """Seat 1's turn with total `total`, seat 0's `other` and seat 0's score `posted` this round."""
        found = self._second.get((number, total, other, posted))
        if found is None:
            found = self.moves(1, TurnStart(1, number, False, total, posted, 1, 0, other))
            if not self.by_round:
                self._second[(number, total, other, posted)] = found
        return found

    def _opening(self, number: int, total: int, other: int) -> tuple[_Moves[C], list[tuple[Group, Weight]]]:
        """Seat 0's turn at totals `total` and `other` in round `number`: its moves, and the groups
        its scores lead to with their weights (kept for the game, where no key reads the round)."""
        found = self._openings.get((number, total, other))
        if found is None:
            moves = self.first(number, total, other)
            leads: list[tuple[Group, Weight]] = []
            for points, step in moves.steps:
                after = self.second(number, other, total, points)
                if moves.stays and after.stays and self.rules.drop_out is not None:
                    raise ValueError(
                        f"a drop-out game would never end: at totals {total} and {other} both seats always score 0."
                    )
                self._seconds[id(after)] = after
                leads.append(((total + points, other, id(after)), step))
            found = (moves, leads)
            if not self.by_round:
                self._openings[(number, total, other)] = found
        return found

    def _closing(self, limit: int | None, group: Group) -> _Closing[C]:
        """Seat 1's turn in a group, and where its scores leave the game (kept likewise)."""
        found = self._closings.get((limit, group))
        if found is None:
            first, total, which = group
            found = _Closing(self._seconds[which], first, total, limit, self.nothing)
            if not self.by_round:
                self._closings[(limit, group)] = found
        return found

    def chance(self, weight: Weight, scale: Weight) -> C:
        """A weight as a chance: over the scale in fractions; a float is one already."""
        if self.exact:
            return Fraction(weight, scale)  # type: ignore[return-value]
        return weight  # type: ignore[no-any-return]

    def odds(self) -> GameOdds[C]:
        zero, one = self.zero, self.one
        unit: Weight = self.whole if self.whole is not None else 1.0
        nothing = self.nothing
        states: dict[tuple[int, int], Weight] = {(0, 0): 1 if self.exact else 1.0}
        scale: Weight = 1 if self.exact else 1.0
        wins, tie, shut_box_win, rounds, playoff_rounds, unresolved = [zero, zero], zero, zero, zero, zero, zero
        figures = [_Figures(zero), _Figures(zero)]
        number = 0
        while states:
            going = sum(states.values(), nothing)
            if self.endless and going / scale < LEFT_OVER:
                unresolved = self.chance(going, scale)
                break
            rounds += self.chance(going, scale)
            asked, limit = number if self.by_round else 0, self.limit(number)
            # seat 0's turn, grouped by seat 0's total after it, seat 1's total and seat 1's turn
            shut: Weight = nothing
            plays: dict[int, tuple[_Moves[C], Weight]] = {}
            groups: dict[Group, Weight] = {}
            ends: dict[int, Weight] = {}  # the margins a shut box ends the game on
            openings, closings = self._openings, self._closings
            taken = 0
            for (total, other), weight in states.items():
                moves, leads = openings.get((asked, total, other)) or self._opening(asked, total, other)
                taken += len(leads)
                _add_play(plays, moves, weight, nothing)
                if moves.shut:
                    shut += weight * moves.shut
                    _add(ends, total - other, weight * moves.shut, nothing)
                for group, step in leads:
                    groups[group] = groups.get(group, nothing) + weight * step
            self._tally(figures[0], plays, scale)
            scale *= unit
            wins[0] += self.chance(shut, scale)
            shut_box_win += self.chance(shut, scale)
            self._margins(ends, scale)
            # seat 1's turn, and where the round leaves the game
            plays, shut, ends = {}, nothing, {}
            won = [nothing, nothing]
            tied: dict[int, Weight] = {}
            following: dict[tuple[int, int], Weight] = {}
            for group, weight in groups.items():
                closing = closings.get((limit, group)) or self._closing(limit, group)
                moves = closing.moves
                taken += len(moves.steps)
                _add_play(plays, moves, weight, nothing)
                if moves.shut:
                    shut += weight * moves.shut
                    _add(ends, group[0] - group[1], weight * moves.shut, nothing)
                won[0] += weight * closing.won[0]
                won[1] += weight * closing.won[1]
                if closing.tied:
                    tied[group[0]] = tied.get(group[0], nothing) + weight * closing.tied
                for after, step in closing.stay:
                    following[after] = following.get(after, nothing) + weight * step
                if self.margins is not None:
                    for margin, step in closing.ends:
                        _add(ends, margin, weight * step, nothing)
            self._tally(figures[1], plays, scale)
            scale *= unit
            wins[1] += self.chance(shut, scale)
            shut_box_win += self.chance(shut, scale)
            wins[0] += self.chance(won[0], scale)
            wins[1] += self.chance(won[1], scale)
            self._margins(ends, scale)
            for at, weight in sorted(tied.items()):
                chance = self.chance(weight, scale)
                tie += chance
                settled = self._settle(chance, at)
                wins[0] += settled[0]
                wins[1] += settled[1]
                shut_box_win += settled[2]
                playoff_rounds += settled[3]
            states = following
            number += 1
            self.taken += taken
        seats = tuple(
            SeatOdds(
                win,
                seat.played if seat.played is not None else zero,
                seat.turns,
                seat.scored,
                seat.scored / seat.turns if seat.turns else zero,
                seat.shuts / seat.turns if seat.turns else zero,
            )
            for win, seat in zip(wins, figures, strict=True)
        )
        arithmetic: Arithmetic = "fraction" if isinstance(one, Fraction) else "float"
        return GameOdds(self.rules, seats, shut_box_win, tie, rounds, playoff_rounds, unresolved, arithmetic)

    def _margins(self, ends: dict[int, Weight], scale: Weight) -> None:
        """Add the margins the game ends on (their weights over `scale`), over fixed rounds."""
        if self.margins is None:
            return
        for margin, weight in ends.items():
            _add(self.margins, margin, self.chance(weight, scale), self.zero)

    def _tally(self, seat: _Figures[C], plays: dict[int, tuple[_Moves[C], Weight]], scale: Weight) -> None:
        """Add a round's turns of one seat (their weights by turn) to its figures."""
        played = self.zero
        for moves, weight in plays.values():
            chance = self.chance(weight, scale)
            played += chance
            seat.scored += chance * moves.turn.expected_score
            seat.shuts += chance * moves.turn.odds.shut_probability
        seat.turns += played
        if seat.played is None:
            seat.played = played

    def _settle(self, chance: C, total: int) -> tuple[C, C, C, C]:
        """Both seats out on `total`, with this chance: each seat's wins by the tie rule, the shut
        boxes that end a playoff and its rounds."""
        zero = self.zero
        if self.rules.ties is Ties.SHARE:
            return chance / 2, chance / 2, zero, zero
        if self.rules.ties is Ties.SEAT:
            return chance, zero, zero, zero
        playoff = self.playoff((0, 1), total if self.totals else None, total)
        return chance * playoff.wins[0], chance * playoff.wins[1], chance * playoff.shut_end, chance * playoff.rounds


def _first(total: int, other: int, round_: int) -> TurnStart:
    """What seat 0 sees as a regular round starts with these totals."""
    return TurnStart(0, round_, False, total, None, 0, 1, other)


def _add_play(plays: dict[int, tuple[_Moves[C], Weight]], moves: _Moves[C], weight: Weight, nothing: Weight) -> None:
    known = plays.get(id(moves))
    plays[id(moves)] = (moves, (nothing if known is None else known[1]) + weight)


def _add(found: dict[int, Weight], margin: int, weight: Weight, nothing: Weight) -> None:
    found[margin] = found.get(margin, nothing) + weight
