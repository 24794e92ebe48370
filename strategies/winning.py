"""What each score of a turn is worth to a player who plays to win: its chance of winning the
game in hand, taking every other player (and itself, in later rounds) to play `optimal`.

Each player's result is a distribution of outcomes (ints, lower is better), the others'
independent of each other: the chance of winning with an outcome is the chance that no rival
does better, ties settled by the tie rule (1/k of a win among k tied under `share`, and under
`playoff` too, whose replay is even; the earlier seat under `seat`).
- One round, and every playoff round: the outcome is the score.
- The last of several rounds: the final total. Earlier rounds have no chances here.
- Drop-out: the round a player goes out in and its total then: a later round is better, and of
  two out in the same round the lower total wins. Going out this round is weighed against all
  rivals at once; staying in, against each rival alone, the chances multiplied (exact with one),
  and only for limits up to `DROP_OUT_WORK`.
A shut box that wins at once counts in this round only: this player's wins, a later one's beats it.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import math
import operator
from collections.abc import Iterable
from functools import lru_cache

from shutbox_cli.game import Rules, Ties, TurnContext, solution_distribution, solve_expected_score
from shutbox_cli.game.solver import final_scores

Outcomes = tuple[tuple[int, float], ...]
"""A distribution of outcomes: (outcome, chance) pairs, lowest outcome first."""

DROP_OUT_WORK = 500_000
"""The most limit**2 * (number of scores of an optimal turn) for which rounds to come in drop-out
are weighed (a limit of about 100 on 9 tiles, 80 on 12): the work grows faster still. Beyond it,
only a round that settles the game is weighed; other turns are played like `optimal`."""

NEGLIGIBLE = 1e-10
"""Drop-out outcomes less likely than this are left out (they would only grow the tables)."""


@dataclasses.dataclass(frozen=True)
class WinChances:
    """The chance of winning with each score the turn can end with (`chances[i]` for `scores[i]`);
    `settled` when nothing but this turn is left to chance (no rival still to play this round,
    and no later round that matters)."""

    scores: tuple[int, ...]
    chances: tuple[float, ...]
    settled: bool

    @property
    def by_score(self) -> dict[int, float]:
        return dict(zip(self.scores, self.chances, strict=True))


@lru_cache(maxsize=64)
def optimal_scores(rules: Rules) -> Outcomes:
    """(score, chance) of every score an `optimal` turn can end with."""
    return tuple(solution_distribution(solve_expected_score(rules)).probabilities.items())


class Rival:
    """Another player: the chance of each of its outcomes, whether it is still to play this round
    (so it sits later), and the chance that it wins outright (by a shut box) as it plays."""

    def __init__(self, outcomes: dict[int, float], to_come: bool, outright: float = 0.0) -> None:
        self.outcomes = sorted(outcomes)
        self.better = list(itertools.accumulate((outcomes[outcome] for outcome in self.outcomes), initial=outright))
        self.to_come = to_come

    def against(self, outcome: int) -> tuple[float, float]:
        """The chance this rival does better than `outcome`, and the chance it ties."""
        at = bisect.bisect_left(self.outcomes, outcome)
        better = self.better[at]
        if at < len(self.outcomes) and self.outcomes[at] == outcome:
            return better, self.better[at + 1] - better
        return better, 0.0


def win_value(rivals: Iterable[Rival], outcome: int, ties: Ties) -> float:
    """The chance of winning with `outcome` against independent rivals."""
    if ties is Ties.SEAT:  # a rival still to play sits later, so a tie with it is a win
        value = 1.0
        for rival in rivals:
            better, tie = rival.against(outcome)
            value *= 1.0 - better - (0.0 if rival.to_come else tie)
        return value
    tied = [1.0]  # tied[k]: the chance that no rival does better and k of them tie
    for rival in rivals:
        better, tie = rival.against(outcome)
        worse = 1.0 - better - tie
        tied = [was * worse + one_fewer * tie for was, one_fewer in zip([*tied, 0.0], [0.0, *tied], strict=True)]
    return sum(chance / (count + 1) for count, chance in enumerate(tied))


def win_chances(rules: Rules, context: TurnContext, margin: int = 0) -> WinChances | None:
    """The chance of winning with each score this turn can end with, or None with nothing to weigh
    (alone in the game, or in a round of several before the last). In drop-out its own total
    counts `margin` points higher."""
    me, totals = context.player, context.totals
    ends = final_scores(rules.turn_rules)
    top = ends[-1]
    rivals = [player for player, active in enumerate(context.active) if active and player != me]
    if not rivals:
        return None
    posted = {player: points for player in rivals if (points := context.scores[player]) is not None}
    to_come = [player for player in rivals if player not in posted]
    if context.playoff or not rules.multi_round:
        chances = _at_round_end(rules, top, tuple(posted.values()), (0,) * len(to_come))
        settled = not to_come
    elif rules.drop_out is not None:
        own = totals[me] + margin
        # a rival out already above any total this player can end with cannot change a thing
        state = [(False, totals[player] + points) for player, points in posted.items()]
        state = [(come, total) for come, total in state if total < rules.drop_out or total <= own + top]
        state += [(True, totals[player]) for player in to_come]
        settled = all(not come and total >= rules.drop_out for come, total in state)
        if not settled and rules.drop_out**2 * len(optimal_scores(rules.turn_rules)) > DROP_OUT_WORK:
            return None
        chances = _drop_out(rules, own, tuple(sorted(state)))
    elif context.round == rules.rounds - 1:
        own = totals[me]
        finals = tuple(totals[player] + points - own for player, points in posted.items())
        chances = _at_round_end(rules, top, finals, tuple(sorted(totals[player] - own for player in to_come)))
        settled = not to_come
    else:
        return None
    return WinChances(ends, chances, settled)


def _at_round_end(rules: Rules, top: int, posted: tuple[int, ...], head_starts: tuple[int, ...]) -> tuple[float, ...]:
    """Win chances by score when the game is decided at the end of this round: by the scores
    `posted` and, for each rival still to play, its head start (its total less this player's)
    plus an optimal score. `top` is the highest score a turn can end with."""
    # Only the best posted result matters, and no rival that ends above every score this player can make.
    best = min(posted, default=top + 1)
    return _round_end(rules, best, posted.count(best), tuple(start for start in head_starts if start <= top))


@lru_cache(maxsize=1024)
def _round_end(rules: Rules, best: int, tied: int, head_starts: tuple[int, ...]) -> tuple[float, ...]:
    """Win chances by score against `tied` rivals posted on `best` and rivals to come with these head starts."""
    scores = optimal_scores(rules.turn_rules)
    outright = _outright(rules)
    rivals = [Rival({best: 1.0}, False)] * tied
    for start in head_starts:
        rivals.append(
            Rival(
                {start + points: chance for points, chance in scores if not (outright and points == 0)}, True, outright
            )
        )
    return tuple(
        1.0 if rules.instant_win and points == 0 else win_value(rivals, points, rules.ties)
        for points in final_scores(rules.turn_rules)
    )


def _outright(rules: Rules) -> float:
    """The chance that an optimal turn wins outright by shutting the box (0 without the instant win)."""
    points, chance = optimal_scores(rules.turn_rules)[0]
    return chance if rules.instant_win and points == 0 else 0.0


# Drop-out outcomes: the total a player goes out with, less `span` for every round it stays in first
# (round 0 is this one); `span` exceeds any total a player can go out with, so a later round is lower.


@lru_cache(maxsize=64)
def _span(rules: Rules) -> int:
    """More than any total a player can go out with."""
    return rules.drop_out + final_scores(rules.turn_rules)[-1]  # type: ignore[operator]


@lru_cache(maxsize=16)
def _from_totals(rules: Rules) -> tuple[Outcomes, ...]:
    """By total under the limit, the drop-out outcomes of an optimal player that starts a round
    with it (worked out from the highest total down: a turn never lowers a total)."""
    limit, span = rules.drop_out, _span(rules)
    assert limit is not None
    scores = optimal_scores(rules.turn_rules)
    shut = sum(chance for points, chance in scores if points == 0)
    found: list[Outcomes] = [()] * limit
    for total in range(limit - 1, -1, -1):
        rest: dict[int, float] = {}
        for points, chance in scores:
            if points and total + points >= limit:
                rest[total + points] = rest.get(total + points, 0.0) + chance
            elif points:
                for outcome, more in found[total + points]:
                    rest[outcome - span] = rest.get(outcome - span, 0.0) + chance * more
        outcomes: dict[int, float] = {}
        weight = 1.0
        while weight > NEGLIGIBLE:  # shutting k rounds running puts the same outcomes k rounds later
            for outcome, chance in rest.items():
                outcomes[outcome] = outcomes.get(outcome, 0.0) + weight * chance
            rest = {outcome - span: chance for outcome, chance in rest.items()}
            weight *= shut
        kept = {outcome: chance for outcome, chance in outcomes.items() if chance > NEGLIGIBLE}
        left = sum(kept.values())  # what was left out goes to the rest alike
        found[total] = tuple(sorted((outcome, chance / left) for outcome, chance in kept.items()))
    return tuple(found)


@lru_cache(maxsize=1024)
def _after_round(rules: Rules, total: int) -> Outcomes:
    """The drop-out outcomes of an optimal player whose total after this round is `total`."""
    assert rules.drop_out is not None
    if total >= rules.drop_out:
        return ((total, 1.0),)
    span = _span(rules)
    return tuple((outcome - span, chance) for outcome, chance in _from_totals(rules)[total])


@lru_cache(maxsize=1024)
def _drop_out_rival(rules: Rules, to_come: bool, total: int) -> Rival:
    """A rival with `total` after this round (`to_come`: before it, still to play)."""
    if not to_come:
        return Rival(dict(_after_round(rules, total)), False)
    outright = _outright(rules)
    outcomes: dict[int, float] = {}
    for points, chance in optimal_scores(rules.turn_rules):
        if not (outright and points == 0):
            for outcome, more in _after_round(rules, total + points):
                outcomes[outcome] = outcomes.get(outcome, 0.0) + chance * more
    return Rival(outcomes, True, outright)


@lru_cache(maxsize=16)
def _staying(rules: Rules) -> tuple[tuple[tuple[int, ...], tuple[float, ...]], ...]:
    """By total after this round, under the limit: its drop-out outcomes, and their chances, apart."""
    assert rules.drop_out is not None
    found = []
    for after in range(rules.drop_out):
        outcomes = _after_round(rules, after)
        found.append((tuple(outcome for outcome, _ in outcomes), tuple(chance for _, chance in outcomes)))
    return tuple(found)


@lru_cache(maxsize=1024)
def _outlast(rules: Rules, to_come: bool, total: int) -> tuple[float, ...]:
    """By this player's total after this round (under the limit), its chance of beating this rival alone."""
    rival, staying = _drop_out_rival(rules, to_come, total), _staying(rules)
    worth = {
        outcome: win_value((rival,), outcome, rules.ties)
        for outcome in {outcome for outcomes, _ in staying for outcome in outcomes}
    }
    return tuple(sum(map(operator.mul, chances, map(worth.__getitem__, outcomes))) for outcomes, chances in staying)


class _Field:
    """The rivals of a drop-out game as this round leaves them, and the chance of winning against
    them with each total after this round (worked out once per total: it is the same for any player)."""

    def __init__(self, rules: Rules, rivals: tuple[tuple[bool, int], ...]) -> None:
        assert rules.drop_out is not None
        self.limit, self.ties = rules.drop_out, rules.ties
        self.everyone = [_drop_out_rival(rules, to_come, total) for to_come, total in rivals]
        self.staying = [_outlast(rules, to_come, total) for to_come, total in rivals if to_come or total < self.limit]
        self.known: dict[int, float] = {}

    def chance(self, after: int) -> float:
        """The chance of winning with `after` points after this round."""
        known = self.known.get(after)
        if known is None:
            if after >= self.limit:
                known = win_value(self.everyone, after, self.ties)
            else:
                known = math.prod(outlast[after] for outlast in self.staying)
            self.known[after] = known
        return known


@lru_cache(maxsize=4096)
def _field(rules: Rules, rivals: tuple[tuple[bool, int], ...]) -> _Field:
    """Rivals given as (still to play this round, total before it if so, else after it)."""
    return _Field(rules, rivals)


def _drop_out(rules: Rules, own: int, rivals: tuple[tuple[bool, int], ...]) -> tuple[float, ...]:
    """Win chances by score in drop-out, for a player with total `own` before this round."""
    field = _field(rules, rivals)
    chances = [field.chance(own + points) for points in final_scores(rules.turn_rules)]
    if rules.instant_win:
        chances[0] = 1.0  # a shut box (score 0, the lowest) wins at once
    return tuple(chances)
