"""Exact strategies' turns many at a time.

An exact strategy's play depends only on (open tiles, dice), so a turn is a walk through one
table: `next_mask[mask, outcome]`, the box after the roll `outcome` (the ordered pair of dice,
`6 * (die1 - 1) + (die2 - 1)`) with the strategy's choice of one die or two and of the move
folded in, or END when the roll ends the turn. Turns then advance in lockstep with numpy, one
roll of every unfinished turn per step: the same dice and the same moves as the general engine
plays one turn at a time.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from .box import dice_table
from .moves import THROW_INDEX, move_table
from .rules import Rules

END = -1
"""`next_mask` of a roll that no open set fits: the turn ends with the box it had."""

OUTCOMES = 36
"""Ordered pairs of dice: outcome o is die1 = o // 6 + 1, die2 = o % 6 + 1; one die uses die1."""

MovePolicy = Callable[[int, tuple[int, ...]], int]
"""The move (a mask) for (open mask, dice); asked only when there is a choice."""
DicePolicy = Callable[[int], int]
"""One die or two for an open mask; asked only when the rules leave the choice."""
Rolls = Callable[[int, npt.NDArray[np.intp]], npt.NDArray[np.integer]]
"""Roll k of the turns at these indices, as outcome codes."""


def turn_table(rules: Rules, choose_move: MovePolicy, choose_dice: DicePolicy) -> npt.NDArray[np.int16]:
    """The table `next_mask[mask, outcome]` of a policy under these rules."""
    moves = move_table(rules)
    options = dice_table(rules)
    table = np.full((rules.full_box + 1, OUTCOMES), END, dtype=np.int16)
    for mask in range(1, rules.full_box + 1):
        count = options[mask][0] if len(options[mask]) == 1 else choose_dice(mask)
        chosen: dict[tuple[int, ...], int] = {}
        for outcome in range(OUTCOMES):
            pair = (outcome // 6 + 1, outcome % 6 + 1)
            throw = pair[:1] if count == 1 else (min(pair), max(pair))
            if throw not in chosen:
                legal = moves.moves(mask, throw)
                if not legal:
                    chosen[throw] = END
                else:
                    move = legal[0] if len(legal) == 1 else choose_move(mask, throw)
                    chosen[throw] = mask & ~move
            table[mask, outcome] = chosen[throw]
    return table


_THROWS_OF = np.array(
    [
        [THROW_INDEX[(outcome // 6 + 1,)] for outcome in range(OUTCOMES)],
        [THROW_INDEX[(outcome // 6 + 1, outcome % 6 + 1)] for outcome in range(OUTCOMES)],
    ],
    dtype=np.intp,
)
"""The throw (its index in THROWS) an outcome makes with one die and with two."""


def turn_table_of(after: npt.NDArray[np.int16], dice: npt.NDArray[np.uint8]) -> npt.NDArray[np.int16]:
    """`turn_table` from a policy already tabulated by throw: `after[mask, throw]` the box after
    each throw of THROWS (the same box when it matches nothing) and `dice[mask]` the dice rolled."""
    masks = np.arange(after.shape[0])
    throws = _THROWS_OF[dice.astype(np.intp) - 1]  # [mask, outcome]
    table = after[masks[:, None], throws].astype(np.int16)
    table[table == masks[:, None]] = END
    table[0] = END
    return table


def play_turns(table: npt.NDArray[np.int16], start: int, count: int, rolls: Rolls) -> npt.NDArray[np.int16]:
    """The open mask at the end of each of `count` turns from the box `start`."""
    masks = np.full(count, start, dtype=np.int16)
    live = np.arange(count, dtype=np.intp)
    roll = 0
    while live.size:
        after = table[masks[live], rolls(roll, live)]
        going = after > 0  # a shut box (0) and END (-1) both end the turn
        shut = after == 0
        masks[live[shut]] = 0
        live = live[going]
        masks[live] = after[going]
        roll += 1
    return masks


def play_keyed_turns(
    tables: npt.NDArray[np.int16], keys: npt.NDArray[np.intp], start: int, rolls: Rolls
) -> npt.NDArray[np.int16]:
    """`play_turns` where turn i plays from the table `tables[keys[i]]`."""
    masks = np.full(keys.size, start, dtype=np.int16)
    live = np.arange(keys.size, dtype=np.intp)
    roll = 0
    while live.size:
        after = tables[keys[live], masks[live], rolls(roll, live)]
        going = after > 0
        masks[live[after == 0]] = 0
        live = live[going]
        masks[live] = after[going]
        roll += 1
    return masks


LARGEST = 2**63 - 1
"""The largest count a 64-bit array holds: a sum that could pass it is kept in Python ints."""


def most_in_a_game(rules: Rules) -> tuple[int, int]:
    """The most one seat's scores, and its squared scores, can add up to over a game's regular
    rounds: every one of `rounds` turns at the top score, or in a drop-out game a total below the
    limit before its last turn (its squares at most that total times the top score)."""
    top = max(_scores(rules))
    if rules.drop_out is None:
        return rules.rounds * top, rules.rounds * top * top
    total = rules.drop_out - 1 + top
    return total, total * top


SeatTurns = Callable[[int, int, npt.NDArray[np.intp]], npt.NDArray[np.int16]]
"""The open mask at the end of the turn of seat s in round r, for the games at these indices."""


class GameResults:
    """What many games of one table came to, by seat (arrays indexed [seat, game]).

    `wins` counts in units of `share` (a win split k ways is share // k); `turns`, `score_sum`,
    `score_squares` and `shut_boxes` count regular rounds (not playoffs); `totals` are the final
    totals; `out_after` is the round a seat dropped out in (-1 if never); `playoff_rounds` the
    playoff rounds a seat stayed in and `playoff_score` its score in the last of them (-1 if it
    did not play it: no playoff, or a shut box ended that round before its turn).
    """

    def __init__(self, seats: int, games: int, share: int, wide: bool) -> None:
        shape = (seats, games)
        self.share = share
        self.wins = np.zeros(shape, dtype=np.int64)
        self.turns = np.zeros(shape, dtype=np.int64)
        # Digit scores of big boxes, squared and added up over rounds, can outgrow 64 bits: Python ints keep them.
        sums = object if wide else np.int64
        self.score_sum = np.zeros(shape, dtype=sums)
        self.score_squares = np.zeros(shape, dtype=sums)
        self.shut_boxes = np.zeros(shape, dtype=np.int64)
        self.totals = np.zeros(shape, dtype=sums)
        self.out_after = np.full(shape, -1, dtype=np.int64)
        self.playoff_rounds = np.zeros(shape, dtype=np.int64)
        self.playoff_score = np.full(shape, -1, dtype=np.int64)
        self.standing: Standing | None = None


@dataclasses.dataclass
class Standing:
    """Where the games stand as a seat's turn is asked for (arrays [seat, game]): this round's
    `scores` so far (-1: not played), the `totals` before it, who is `playing` it, and whether it
    is a `playoff`. `play_games` keeps it up to date, for turns that depend on the game."""

    scores: npt.NDArray[np.int64] = dataclasses.field(default_factory=lambda: np.empty((0, 0), np.int64))
    totals: npt.NDArray[np.int64] = dataclasses.field(default_factory=lambda: np.empty((0, 0), np.int64))
    playing: npt.NDArray[np.bool_] = dataclasses.field(default_factory=lambda: np.empty((0, 0), bool))
    playoff: bool = False


def play_games(
    rules: Rules, seats: int, games: int, share: int, turns: SeatTurns, standing: Standing | None = None
) -> GameResults:
    """Play `games` games of `seats` seats at once, exactly as `match.play_game` plays one:
    seats in order, instant wins, fixed rounds or drop-out, and the tie rule. A `standing` given
    is kept up to date as each seat's turns are asked for."""
    table = _scores(rules)
    wide = most_in_a_game(rules)[1] > LARGEST
    results = GameResults(seats, games, share, wide)
    results.standing = standing
    if standing is not None:
        standing.totals = results.totals
    scores = np.asarray(table, dtype=object if wide else np.int64)
    if rules.drop_out is None:
        _fixed_rounds(rules, seats, games, turns, scores, results)
    else:
        _drop_out(rules, seats, games, turns, scores, results)
    return results


def _play_round(
    rules: Rules,
    number: int,
    playing: npt.NDArray[np.bool_],
    turns: SeatTurns,
    scores: npt.NDArray[np.int64],
    results: GameResults | None,
    standing: Standing | None = None,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """One round of the games with any seat playing (`playing[seat, game]`): each seat's score
    (-1 where it did not play) and the seat that won at once by shutting the box (-1 if none).
    A regular round (`results` given) is counted and added to the totals."""
    seats, games = playing.shape
    round_scores = np.full((seats, games), -1, dtype=np.int64)
    instant = np.full(games, -1, dtype=np.int64)
    if standing is not None:
        standing.scores, standing.playing, standing.playoff = round_scores, playing, results is None
    for seat in range(seats):
        index = np.flatnonzero(playing[seat] & (instant < 0))
        if not index.size:
            continue
        got = scores[turns(seat, number, index)]
        round_scores[seat, index] = got
        if rules.instant_win:
            instant[index[got == 0]] = seat  # a shut box: later seats do not play
        if results is not None:
            results.turns[seat, index] += 1
            results.score_sum[seat, index] += got
            results.score_squares[seat, index] += got * got
            results.shut_boxes[seat, index] += got == 0
    if results is not None:
        results.totals += np.maximum(round_scores, 0)
    return round_scores, instant


def _settle(
    rules: Rules,
    number: int,
    values: npt.NDArray[np.int64],
    among: npt.NDArray[np.bool_],
    games: npt.NDArray[np.intp],
    turns: SeatTurns,
    scores: npt.NDArray[np.int64],
    results: GameResults,
) -> None:
    """Give the wins of `games` to the lowest `values` among the seats `among` (both [seat, game]
    over those games), settling ties by the rule; playoff rounds are numbered from `number`."""
    best = np.where(among, values, np.iinfo(np.int64).max).min(axis=0)
    tied = among & (values == best)
    if rules.ties.value == "share":
        results.wins[:, games] += tied * (results.share // tied.sum(axis=0))
        return
    first = tied.argmax(axis=0)  # the earliest tied seat
    if rules.ties.value == "seat":
        results.wins[first, games] += results.share
        return
    while games.size:
        alone = tied.sum(axis=0) == 1
        results.wins[first[alone], games[alone]] += results.share
        games, tied = games[~alone], tied[:, ~alone]
        if not games.size:
            return
        playing = np.zeros((tied.shape[0], results.wins.shape[1]), dtype=bool)
        playing[:, games] = tied
        round_scores, instant = _play_round(rules, number, playing, turns, scores, None, results.standing)
        number += 1
        results.playoff_rounds[:, games] += tied
        results.playoff_score[:, games] = np.where(tied, round_scores[:, games], results.playoff_score[:, games])
        won = instant[games] >= 0
        results.wins[instant[games][won], games[won]] += results.share
        games, tied = games[~won], tied[:, ~won]
        values = round_scores[:, games]
        best = np.where(tied, values, np.iinfo(np.int64).max).min(axis=0)
        tied &= values == best
        first = tied.argmax(axis=0)


def _fixed_rounds(
    rules: Rules, seats: int, games: int, turns: SeatTurns, scores: npt.NDArray[np.int64], results: GameResults
) -> None:
    playing = np.ones((seats, games), dtype=bool)
    over = np.zeros(games, dtype=bool)
    for number in range(rules.rounds):
        playing[:, over] = False
        _, instant = _play_round(rules, number, playing, turns, scores, results, results.standing)
        won = np.flatnonzero(instant >= 0)
        results.wins[instant[won], won] += results.share
        over[won] = True
    left = np.flatnonzero(~over)
    _settle(
        rules, rules.rounds, results.totals[:, left], np.ones((seats, left.size), bool), left, turns, scores, results
    )


def _drop_out(
    rules: Rules, seats: int, games: int, turns: SeatTurns, scores: npt.NDArray[np.int64], results: GameResults
) -> None:
    assert rules.drop_out is not None
    active = np.ones((seats, games), dtype=bool)
    number = 0
    while active.any():
        _, instant = _play_round(rules, number, active, turns, scores, results, results.standing)
        won = np.flatnonzero(instant >= 0)
        results.wins[instant[won], won] += results.share
        active[:, won] = False
        out = active & (results.totals >= rules.drop_out)
        results.out_after[out] = number
        left = active & ~out
        number += 1
        standing = left.sum(axis=0)
        last = np.flatnonzero(standing == 1) if seats > 1 else np.empty(0, dtype=np.intp)
        results.wins[left[:, last].argmax(axis=0), last] += results.share
        gone = np.flatnonzero((standing == 0) & out.any(axis=0))
        if gone.size:
            _settle(rules, number, results.totals[:, gone], out[:, gone], gone, turns, scores, results)
        active = left
        active[:, last] = False


@functools.cache
def _scores(rules: Rules) -> tuple[int, ...]:
    from .box import score

    return tuple(score(rules, mask) for mask in range(rules.full_box + 1))
