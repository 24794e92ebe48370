"""Perfect play for two seats over several rounds or in drop-out: each seat plays to win the game,
knowing the other does too, by backward induction over rounds and totals.

The game is zero-sum (one seat's chance is the other's loss; a tie is worth what the tie rule gives
seat 0: a half under `share`, all of it under `seat`, its chance in the one-round playoff under
`playoff`), so one number is solved per state: seat 0's chance to win. A state at seat 0's turn
(`first`) is its total and seat 1's as a round starts; at seat 1's turn (`second`), the totals once
seat 0 has posted its score this round. Each seat plays the solver's exact best policy for the
chances the scores it may end on leave it (`solve_chances`, as `perfect` does in one round).

- Fixed rounds: the lower final total wins, so only the difference of the totals matters (seat 0's
  less seat 1's); a state is (round, difference), solved from the last round back.
- Drop-out: both totals matter and rounds are unbounded, but a turn never lowers a total. States are
  solved from the highest totals down; the only state a round can return to is its own (both seats
  shut the box, with instant win off, each scoring 0): a fixed point, found by policy iteration
  (policies solved for a guess of the state's value, the value then exact for them in closed form,
  again until it moves by no more than `TOLERANCE`; in practice two or three passes).

Instant win (off by default over several rounds): a shut box wins the game at once. Over fixed
rounds with playoffs it is refused: `perfect`'s key reads the round there, which exact games cannot
follow while a playoff may last any number of rounds.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

from .perfect import equilibrium
from .rules import Rules, Ties
from .solver import Solution, final_scores, layered_distribution, solve_chances

TOLERANCE = 1e-12
"""A drop-out state's fixed point is iterated until its value moves by no more than this."""
PASSES = 200
"""The most passes of a fixed point before the equilibrium says it found none."""
SOLVE_SECONDS_PER_BOX = 2.5e-6
"""About the processor time a state takes per box of the turn, its policies solved (1.3 ms on 9 tiles;
many states play alike and cost less, so the estimate stays above what it takes)."""
LOOP_SOLVES = 3
"""About how many times a drop-out state's policies are solved before its fixed point settles."""
MOST_SECONDS = 180.0
"""The longest a solution is estimated to take, or it is refused (as exact tournaments are)."""

State = tuple[int, int]
"""Fixed rounds: (round, seat 0's total less seat 1's). Drop-out: (seat 0's total, seat 1's)."""


@dataclasses.dataclass(frozen=True)
class Cost:
    """What solving a game of two seats takes: the states of each seat's turn, and about how many
    seconds of one core."""

    states: int
    seconds: float


def cost(rules: Rules) -> Cost:
    """The states and time of `PairEquilibrium(rules)`, estimated before anything is solved: the
    totals (or their difference) a seat can reach, round by round or under the limit."""
    top = final_scores(rules.turn_rules)[-1]
    if rules.drop_out is not None:
        limit = rules.drop_out
        states = limit * limit + (limit + top) * limit
        solves = states + (0 if rules.instant_win else 2 * LOOP_SOLVES * limit * limit)
    else:
        states = sum((2 * number * top + 1) + ((2 * number + 1) * top + 1) for number in range(rules.rounds))
        solves = states
    return Cost(states, solves * SOLVE_SECONDS_PER_BOX * (rules.full_box + 1))


def refuse_unsolved_pair(rules: Rules, most_seconds: float = MOST_SECONDS) -> None:
    """A ValueError, in one sentence, for rules whose perfect play for two seats is not solved here:
    one-round games (`perfect.Equilibrium` solves them), fixed rounds with playoffs, and games
    estimated to take more than `most_seconds`, saying what would fit."""
    if not rules.multi_round:
        raise ValueError("this equilibrium is of games of several rounds or drop-out; one round is `Equilibrium`'s.")
    if rules.drop_out is None and rules.ties is Ties.PLAYOFF:
        raise ValueError(
            "perfect play over several rounds is not solved with playoffs: its key reads the round, which "
            "exact games cannot follow while a playoff may last any number of rounds (try --ties share or seat)."
        )
    found = cost(rules)
    if found.seconds <= most_seconds:
        return
    fits = _what_fits(rules, most_seconds)
    raise ValueError(
        f"perfect play for two seats under these rules would solve {found.states:,} states in about "
        f"{found.seconds:,.0f} CPU-seconds, past the limit of {most_seconds:.0f}: {fits}."
    )


def _what_fits(rules: Rules, most_seconds: float) -> str:
    """The most rounds, or the highest drop-out limit, whose estimate fits (found by halving)."""
    drop_out = rules.drop_out is not None
    low, high = 0, rules.drop_out if rules.drop_out is not None else rules.rounds
    while high - low > 1:
        middle = (low + high) // 2
        fewer = dataclasses.replace(rules, drop_out=middle) if drop_out else dataclasses.replace(rules, rounds=middle)
        low, high = (middle, high) if cost(fewer).seconds <= most_seconds else (low, middle)
    if drop_out:
        return f"a drop-out limit up to {low:,} fits" if low else "no drop-out limit fits"
    return f"up to {low:,} rounds fit" if low > 1 else "not even 2 rounds fit"


class PairEquilibrium:
    """Perfect play for two seats over several rounds or in drop-out, solved whole on construction
    (`pair_equilibrium(rules)` keeps one per rule set)."""

    def __init__(self, rules: Rules) -> None:
        refuse_unsolved_pair(rules)
        self.rules = rules
        self.turn = rules.turn_rules
        self.scores = final_scores(self.turn)
        self.tie = self._tie_value()
        """What a tie on the final total is worth to seat 0."""
        self.starts: dict[State, float] = {}
        """Seat 0's chance to win from each state at its turn."""
        self.posted: dict[State, float] = {}
        """Seat 0's chance to win from each state at seat 1's turn."""
        self._first: dict[State, tuple[float, ...]] = {}
        self._second: dict[State, tuple[float, ...]] = {}
        self._optimal = solve_chances(self.turn, None)
        self._optimal_odds = layered_distribution(self._optimal)
        self.passes = 0
        """The most passes a drop-out state's fixed point took."""
        if rules.drop_out is None:
            self._solve_rounds()
        else:
            self._solve_drop_out(rules.drop_out)

    def __repr__(self) -> str:
        rules = self.rules
        game = f"drop-out at {rules.drop_out}" if rules.drop_out is not None else f"{rules.rounds} rounds"
        return f"<PairEquilibrium of {game}, {rules.tiles} tiles: the first seat wins {self.value:.6f}>"

    @property
    def value(self) -> float:
        """Seat 0's chance to win the game under perfect play (seat 1's is the rest)."""
        return self.starts[(0, 0)]

    def first(self, number: int, total: int, rival: int) -> Solution:
        """Seat 0's perfect play in round `number` (ignored in drop-out) with these totals (`optimal`'s
        where the game cannot get there, or is decided)."""
        return solve_chances(self.turn, self._first.get(self._start(number, total, rival)))

    def second(self, number: int, total: int, rival: int, posted: int) -> Solution:
        """Seat 1's perfect play in round `number` with its total, seat 0's and the score seat 0 posted."""
        return solve_chances(self.turn, self._second.get(self._start(number, rival + posted, total)))

    def in_playoff(self, to_beat: int | None) -> Solution:
        """A seat's perfect play in a playoff round (drop-out, both out on one total): the one-round
        game's, seat 0 first (`to_beat` None) or seat 1 against the score seat 0 posted."""
        played = equilibrium(self.one_round)
        return (played.play(None, 0, 1) if to_beat is None else played.play(to_beat, 1, 0)).policy

    @property
    def one_round(self) -> Rules:
        """The rules of a playoff round: a one-round game under these rules."""
        return dataclasses.replace(self.rules, rounds=1, drop_out=None)

    def _start(self, number: int, first: int, second: int) -> State:
        return (number, first - second) if self.rules.drop_out is None else (first, second)

    def _tie_value(self) -> float:
        if self.rules.ties is Ties.SHARE:
            return 0.5
        if self.rules.ties is Ties.SEAT:
            return 1.0
        return equilibrium(self.one_round).seat_chances(2)[0]

    def _play(self, chances: tuple[float, ...]) -> tuple[float, float]:
        """The value of the best policy for these chances, and its chance of scoring 0."""
        policy = solve_chances(self.turn, chances)  # kept by the solver's cache only: thousands would not fit
        odds = (self._optimal_odds if policy is self._optimal else layered_distribution(policy)).probabilities
        value = sum(odds.get(points, 0.0) * chance for points, chance in zip(self.scores, chances, strict=True))
        return value, odds.get(0, 0.0)

    def _solve_rounds(self) -> None:
        rounds, top, instant = self.rules.rounds, self.scores[-1], self.rules.instant_win
        after: dict[int, float] = {}  # seat 0's chance by difference as the next round starts
        for number in range(rounds - 1, -1, -1):
            last = number == rounds - 1
            posted: dict[int, float] = {}
            for difference in range(-number * top, (number + 1) * top + 1):
                ends = [
                    self._final(difference - points) if last else after[difference - points] for points in self.scores
                ]
                chances = tuple(
                    1.0 if instant and points == 0 else 1.0 - end for points, end in zip(self.scores, ends, strict=True)
                )
                self._second[(number, difference)] = chances
                posted[difference] = 1.0 - self._play(chances)[0]
                self.posted[(number, difference)] = posted[difference]
            starts: dict[int, float] = {}
            for difference in range(-number * top, number * top + 1):
                chances = tuple(
                    1.0 if instant and points == 0 else posted[difference + points] for points in self.scores
                )
                self._first[(number, difference)] = chances
                starts[difference] = self.starts[(number, difference)] = self._play(chances)[0]
            after = starts

    def _final(self, difference: int) -> float:
        return 1.0 if difference < 0 else 0.0 if difference > 0 else self.tie

    def _solve_drop_out(self, limit: int) -> None:
        top = self.scores[-1]
        for first in range(limit + top - 1, limit - 1, -1):  # seat 0 out: seat 1's turn settles it
            for second in range(limit):
                chances = tuple(self._out_first(first, second + points, points) for points in self.scores)
                self._second[(first, second)] = chances
                self.posted[(first, second)] = 1.0 - self._play(chances)[0]
        for first in range(limit - 1, -1, -1):
            for second in range(limit - 1, -1, -1):
                self._drop_out_state(first, second, limit)

    def _out_first(self, first: int, second: int, points: int) -> float:
        """Seat 1's chance with seat 0 out on `first` and its own total `second` after scoring `points`."""
        if second < self.rules.drop_out or (points == 0 and self.rules.instant_win):  # type: ignore[operator]
            return 1.0
        return 1.0 if second < first else 0.0 if second > first else 1.0 - self.tie

    def _drop_out_state(self, first: int, second: int, limit: int) -> None:
        """Seat 0's turn at these totals and seat 1's once seat 0 has scored 0, solved together."""
        instant = self.rules.instant_win

        def ended(points: int, guess: float) -> float:  # seat 0's chance once seat 1 scores `points` here
            if points == 0:
                return 0.0 if instant else guess
            after = second + points
            return self.starts[(first, after)] if after < limit else 1.0

        def moved(points: int, stayed: float) -> float:  # seat 0's chance once it scores `points`
            if points == 0:
                return 1.0 if instant else stayed
            return self.posted[(first + points, second)]

        guess = self.starts.get((first, second + 1), self.starts.get((first + 1, second), 0.5))
        for passes in range(1, PASSES + 1):
            theirs = tuple(1.0 - ended(points, guess) for points in self.scores)
            mine, their_zero = self._play(theirs)
            rest = 1.0 - mine - their_zero * ended(0, guess)  # seat 0's chance but where seat 1 scores 0
            stayed = rest + their_zero * ended(0, guess)
            chances = tuple(moved(points, stayed) for points in self.scores)
            value, my_zero = self._play(chances)
            if instant:
                found = value
            else:  # exact for these policies: value = others + my_zero * (rest + their_zero * value)
                others = value - my_zero * stayed
                found = (others + my_zero * rest) / (1.0 - my_zero * their_zero)
            if instant or abs(found - guess) <= TOLERANCE:
                self.passes = max(self.passes, passes)
                self._second[(first, second)], self._first[(first, second)] = theirs, chances
                self.posted[(first, second)] = rest + their_zero * (0.0 if instant else found)
                self.starts[(first, second)] = found
                return
            guess = found
        raise ValueError(f"the drop-out state at totals {first} and {second} found no equilibrium in {PASSES} passes.")


@lru_cache(maxsize=16)
def pair_equilibrium(rules: Rules) -> PairEquilibrium:
    """Perfect play for two seats under these rules (several rounds or drop-out), kept for the process."""
    return PairEquilibrium(rules)
