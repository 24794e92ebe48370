"""Perfect play for two seats over several rounds and in drop-out (shutbox_cli/game/perfect_pairs.py)
against a brute force written here on its own: every throw of every turn of a 2- or 3-tile box, each
seat choosing what maximises its own chance to win by backward induction over the whole game, keyed by
every score posted so far (the history as it is, not the totals or their difference the equilibrium
keeps), with its own legal moves, dice, drop-outs, instant wins and ties (a playoff iterated apart)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cache

import pytest

from shutbox_cli.game import Rules
from shutbox_cli.game.perfect import equilibrium
from shutbox_cli.game.perfect_pairs import PairEquilibrium, cost, refuse_unsolved_pair

SAME = 1e-12
TWO_DICE = {total: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == total) / 36 for total in range(2, 13)}
ONE_DIE = {face: 1 / 6 for face in range(1, 7)}
STALLS = 14
"""Drop-out rounds in a row in which both seats shut the box (so nothing moves) after which the brute
force stops looking: they are less likely than 0.3**28."""


def turn_value(tiles: int, one_die: bool, worth: Callable[[int], float]) -> float:
    """The best expected worth of a turn's final score on a box of `tiles` (every tile under 7: one die
    may be rolled whenever `one_die`), found over every throw and every set of tiles adding up to it."""

    @cache
    def best(box: frozenset[int]) -> float:
        if not box:
            return worth(0)
        options = []
        for dice in (ONE_DIE, TWO_DICE) if one_die else (TWO_DICE,):
            value = 0.0
            for roll, chance in dice.items():
                after = [
                    best(box - frozenset(tiles))
                    for size in range(1, len(box) + 1)
                    for tiles in itertools.combinations(sorted(box), size)
                    if sum(tiles) == roll
                ]
                value += chance * (max(after) if after else worth(sum(box)))
            options.append(value)
        return max(options)

    return best(frozenset(range(1, tiles + 1)))


class BruteForce:
    """Two seats on a box of `tiles`, over `rounds` rounds or to a drop-out `limit`: seat 0's chance to
    win from every history of scores (seat 0's and seat 1's turns, in order of play). In drop-out a
    round in which both seats score 0 leaves the history as it was, one of `STALLS` fewer to go."""

    def __init__(self, tiles: int, one_die: bool, ties: str, instant_win: bool, rounds: int, limit: int | None):
        self.tiles, self.one_die, self.ties, self.instant = tiles, one_die, ties, instant_win
        self.rounds, self.limit = rounds, limit
        self.tie = {"share": 0.5, "seat": 1.0}.get(ties) or self.playoff()
        self.value = cache(self._value)

    def turn(self, worth: Callable[[int], float]) -> float:
        return turn_value(self.tiles, self.one_die, worth)

    def playoff(self) -> float:
        """Seat 0's chance in a playoff: one-round games replayed until untied, each seat playing for
        its chance, which is a fixed point iterated here."""
        guess = 0.5
        for _ in range(100):

            def first(points: int, guess: float = guess) -> float:
                if points == 0 and self.instant:
                    return 1.0
                return 1 - self.turn(lambda mine: 1.0 if mine == 0 and self.instant else _won(mine, points, 1 - guess))

            found = self.turn(first)
            if abs(found - guess) < 1e-15:
                return found
            guess = found
        raise AssertionError("no playoff value")

    def _value(self, history: tuple[int, ...], stalls: int = STALLS) -> float:
        """Seat 0's chance to win with these scores posted, the next turn to play."""
        seat = len(history) % 2
        if seat == 0 and history:
            over = self.over(history)
            if over is not None:
                return over

        def worth(points: int) -> float:
            if points == 0 and self.instant:
                return 1.0
            if seat == 1 and points == 0 and history[-1] == 0 and self.limit is not None:
                chance = self.value(history[:-1], stalls - 1) if stalls > 1 else 0.5
            else:
                chance = self.value((*history, points), stalls)
            return chance if seat == 0 else 1 - chance

        found = self.turn(worth)
        return found if seat == 0 else 1 - found

    def over(self, history: tuple[int, ...]) -> float | None:
        """Seat 0's chance when a round is over, if the game is."""
        first, second = sum(history[0::2]), sum(history[1::2])
        if self.limit is None:
            return _settled(first, second, self.tie) if len(history) == 2 * self.rounds else None
        out = (first >= self.limit, second >= self.limit)
        if out == (True, True):
            return _settled(first, second, self.tie)
        return None if out == (False, False) else 0.0 if out[0] else 1.0


def _settled(first: int, second: int, tie: float) -> float:
    return 1.0 if first < second else 0.0 if first > second else tie


def _won(mine: int, theirs: int, tie: float) -> float:
    """Seat 1's chance with `mine` against seat 0's posted `theirs` in a playoff round (tie: its value)."""
    return 1.0 if mine < theirs else 0.0 if mine > theirs else tie


CASES = [
    (2, "high-tiles", "share", False, 2, None),
    (3, "high-tiles", "share", False, 2, None),
    (3, "off", "seat", False, 2, None),
    (3, "high-tiles", "share", True, 2, None),
    (2, "high-tiles", "share", False, 3, None),
    pytest.param(2, "high-tiles", "share", False, 1, 4, marks=pytest.mark.slow),
    pytest.param(2, "off", "seat", False, 1, 4, marks=pytest.mark.slow),
    pytest.param(2, "high-tiles", "playoff", False, 1, 4, marks=pytest.mark.slow),
    (2, "high-tiles", "share", True, 1, 5),
]


@pytest.mark.parametrize(("tiles", "one_die", "ties", "instant", "rounds", "limit"), CASES)
def test_the_equilibrium_agrees_with_a_brute_force_over_every_history(
    tiles: int, one_die: str, ties: str, instant: bool, rounds: int, limit: int | None
) -> None:
    rules = Rules(tiles=tiles, one_die=one_die, ties=ties, instant_win=instant, rounds=rounds, drop_out=limit)  # type: ignore[arg-type]
    found = PairEquilibrium(rules)
    brute = BruteForce(tiles, one_die != "off", ties, instant, rounds, limit)
    assert found.value == pytest.approx(brute.value(()), abs=SAME)
    # every state at the start of a round, from every history of one or two rounds that reaches it
    top = tiles * (tiles + 1) // 2
    checked = 0
    for length in (2, 4) if limit is not None or rounds > 2 else (2,):
        for history in itertools.product(range(top + 1), repeat=length):
            first, second = sum(history[0::2]), sum(history[1::2])
            if limit is not None and (max(first, second) >= limit or 0 in (history[0] + history[1], sum(history[-2:]))):
                continue  # over, or a round in which nothing moved
            state = (length // 2, first - second) if limit is None else (first, second)
            assert found.starts[state] == pytest.approx(brute.value(history), abs=SAME), history
            checked += 1
    assert checked > 1


@pytest.mark.slow
def test_the_last_round_plays_the_one_round_equilibrium_given_the_totals() -> None:
    """In the last round with equal totals each seat plays as in a one-round game (`perfect.Equilibrium`):
    the same chances, so the same policy, for every score seat 0 may post."""
    rules = Rules(rounds=2, ties="seat")
    pair, one = PairEquilibrium(rules), equilibrium(Rules(ties="seat", instant_win=False))
    for total in (0, 7, 30):
        assert pair.first(1, total, total).moves == one.play(None, 0, 1).policy.moves
        for posted in (0, 5, 12, 40):
            assert pair.second(1, total, total, posted).moves == one.play(posted, 1, 0).policy.moves


def test_refused_beyond_what_fits_in_one_sentence_saying_what_does() -> None:
    with pytest.raises(ValueError, match=r"^perfect play for two seats .* up to \d+ rounds fit\.$"):
        refuse_unsolved_pair(Rules(rounds=40))
    with pytest.raises(ValueError, match=r"a drop-out limit up to \d+ fits\.$"):
        refuse_unsolved_pair(Rules(drop_out=1000))
    with pytest.raises(ValueError, match="with playoffs"):
        refuse_unsolved_pair(Rules(rounds=3, ties="playoff"))
    assert cost(Rules(rounds=3)).states < cost(Rules(rounds=4)).states
