"""The compiled code of `kernel` (numba): imported only when a bulk unit plays compiled.

The dice are `dice`'s splitmix64-v1 in uint64 arithmetic (every operand uint64, so nothing
turns float); the rules are `bulk.play_games`'s, one game at a time; the placings are
`tally.finished_ahead`'s.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .dice import ABSORB, GAMMA, MIX_1, MIX_2

_GAMMA = np.uint64(GAMMA)
_ABSORB = np.uint64(ABSORB)
_MIX_1 = np.uint64(MIX_1)
_MIX_2 = np.uint64(MIX_2)
_LOW_32 = np.uint64(0xFFFFFFFF)
_36 = np.uint64(36)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)
_NEVER_OUT = 2**62
_EXACT, _UNKNOWN = 0, -2
_SHARE, _SEAT = 0, 1
_SCALARS = 6
_WIN, _TURNS, _SUM, _SHUT, _TOTAL = range(5)
_STALLED = -2


@nb.njit(cache=True, inline="always")
def _mix(word):  # type: ignore[no-untyped-def]
    word = (word ^ (word >> _S30)) * _MIX_1
    word = (word ^ (word >> _S27)) * _MIX_2
    return word ^ (word >> _S31)


@nb.njit(cache=True, inline="always")
def _stream_key(seed, game, number, seat):  # type: ignore[no-untyped-def]
    key = _mix(seed + _ABSORB)
    key = _mix((key ^ game) + _ABSORB)
    key = _mix((key ^ np.uint64(number)) + _ABSORB)
    return _mix((key ^ np.uint64(seat)) + _ABSORB)


@nb.njit(cache=True, inline="always")
def _exact_turn(table, full, key):  # type: ignore[no-untyped-def]
    mask = full
    counter = key
    while True:
        counter = counter + _GAMMA
        word = _mix(counter)
        high = (word >> _S32) * _36 + (((word & _LOW_32) * _36) >> _S32)
        after = table[mask, np.intp(high >> _S32)]
        if after <= 0:
            return 0 if after == 0 else mask
        mask = after


@nb.njit(cache=True)
def _turn(strategy, seat, number, dice, seed, dice_games, full, kinds, slots, tables, given, missing):  # type: ignore[no-untyped-def]
    """The open mask a strategy's turn ends with, or -1 when it is a given turn not given yet."""
    slot = slots[strategy]
    if kinds[strategy] == _EXACT:
        return _exact_turn(tables[slot], full, _stream_key(seed, dice_games[dice], number, seat))
    if number < given.shape[2]:
        found = given[slot, seat, number, dice]
        if found != _UNKNOWN:
            return np.int64(found)
    if number < missing[slot, seat, dice]:
        missing[slot, seat, dice] = number
    return -1


@nb.njit(cache=True)
def _round(at, playing, number, counted, game, state, squares, round_scores):  # type: ignore[no-untyped-def]
    """One round of a game among the seats `playing`: the seat that shut the box and won at once,
    -1 if none, `_STALLED` for want of a given turn. A regular round (`counted`) is tallied."""
    (seed, dice_games, dice, full, instant, scores, kinds, slots, tables, given, missing) = game
    seats = playing.shape[0]
    for seat in range(seats):
        round_scores[seat] = -1
    for seat in range(seats):
        if not playing[seat]:
            continue
        mask = _turn(at[seat], seat, number, dice, seed, dice_games, full, kinds, slots, tables, given, missing)
        if mask < 0:
            return _STALLED
        got = scores[mask]
        round_scores[seat] = got
        if counted:
            state[_TURNS, seat] += 1
            state[_SUM, seat] += got
            state[_SHUT, seat] += got == 0
            state[_TOTAL, seat] += got
            square = np.uint64(got * got)
            low = squares[seat, 0] + square
            if low < square:
                squares[seat, 1] += np.uint64(1)
            squares[seat, 0] = low
        if instant and got == 0:
            return seat
    return -1


@nb.njit(cache=True)
def _settle(at, values, among, number, ties, share, game, state, squares, stayed, last, round_scores):  # type: ignore[no-untyped-def]
    """Give the win to the lowest `values` among the seats `among`, settling ties by the rule;
    False for want of a given turn in a playoff."""
    wins = state[_WIN]
    seats = values.shape[0]
    tied = np.zeros(seats, dtype=np.bool_)
    best = np.iinfo(np.int64).max
    for seat in range(seats):
        if among[seat] and values[seat] < best:
            best = values[seat]
    count, first = 0, -1
    for seat in range(seats):
        if among[seat] and values[seat] == best:
            tied[seat] = True
            count += 1
            if first < 0:
                first = seat
    if ties == _SHARE:
        for seat in range(seats):
            if tied[seat]:
                wins[seat] += share // count
        return True
    while True:
        if ties == _SEAT or count == 1:
            wins[first] += share
            return True
        won = _round(at, tied, number, False, game, state, squares, round_scores)
        if won == _STALLED:
            return False
        number += 1
        for seat in range(seats):
            if tied[seat]:
                stayed[seat] += 1
                last[seat] = round_scores[seat]
        if won >= 0:
            wins[won] += share
            return True
        best = np.iinfo(np.int64).max
        for seat in range(seats):
            if tied[seat] and round_scores[seat] < best:
                best = round_scores[seat]
        count, first = 0, -1
        for seat in range(seats):
            tied[seat] = tied[seat] and round_scores[seat] == best
            if tied[seat]:
                count += 1
                if first < 0:
                    first = seat


@nb.njit(cache=True)
def _play_game(at, rounds, drop_out, ties, share, game, state, squares, out_after, stayed, last):  # type: ignore[no-untyped-def]
    """One game by the rules, its counts in `state`; False for want of a given turn."""
    wins, totals = state[_WIN], state[_TOTAL]
    seats = at.shape[0]
    round_scores = np.empty(seats, dtype=np.int64)
    if drop_out < 0:
        playing = np.ones(seats, dtype=np.bool_)
        for number in range(rounds):
            won = _round(at, playing, number, True, game, state, squares, round_scores)
            if won == _STALLED:
                return False
            if won >= 0:
                wins[won] += share
                return True
        return _settle(at, totals, playing, rounds, ties, share, game, state, squares, stayed, last, round_scores)
    active = np.ones(seats, dtype=np.bool_)
    out = np.zeros(seats, dtype=np.bool_)
    number = 0
    while True:
        won = _round(at, active, number, True, game, state, squares, round_scores)
        if won == _STALLED:
            return False
        if won >= 0:
            wins[won] += share
            return True
        standing, anyone_out, alone = 0, False, -1
        for seat in range(seats):
            out[seat] = active[seat] and totals[seat] >= drop_out
            if out[seat]:
                out_after[seat] = number
                anyone_out = True
                active[seat] = False
            elif active[seat]:
                standing += 1
                alone = seat
        number += 1
        if seats > 1 and standing == 1:
            wins[alone] += share
            return True
        if standing == 0:
            if anyone_out:
                return _settle(at, totals, out, number, ties, share, game, state, squares, stayed, last, round_scores)
            return True


@nb.njit(cache=True)
def _placed(seat, other, state, out_after, stayed, last):  # type: ignore[no-untyped-def]
    """`tally.finished_ahead` of two seats of a game: 1 ahead, -1 behind, 0 level."""
    wins, turns, totals = state[_WIN], state[_TURNS], state[_TOTAL]
    won, won_other = wins[seat] > 0, wins[other] > 0
    if won != won_other:
        return 1 if won else -1
    if won:
        return 0
    out = _NEVER_OUT if out_after[seat] < 0 else out_after[seat]
    out_other = _NEVER_OUT if out_after[other] < 0 else out_after[other]
    if out != out_other:
        return 1 if out > out_other else -1
    if turns[seat] != turns[other]:
        return 0
    if totals[seat] != totals[other]:
        return 1 if totals[seat] < totals[other] else -1
    if stayed[seat] != stayed[other]:
        return 1 if stayed[seat] > stayed[other] else -1
    if last[seat] < 0 or last[other] < 0 or last[seat] == last[other]:
        return 0
    return 1 if last[seat] < last[other] else -1


@nb.njit(cache=True)
def play_unit(  # type: ignore[no-untyped-def]
    players,
    seats,
    deals,
    duplicate,
    seed,
    dice_games,
    instant,
    rounds,
    drop_out,
    ties,
    full,
    scores,
    share,
    kinds,
    slots,
    tables,
    given,
    which,
    counts,
    squares,
    missing,
):
    """`kernel.play`, compiled."""
    stalled = np.empty(which.shape[0], dtype=np.int64)
    left = 0
    at = np.empty(seats, dtype=np.int64)
    state = np.empty((5, seats), dtype=np.int64)
    game_squares = np.empty((seats, 2), dtype=np.uint64)
    out_after = np.empty(seats, dtype=np.int64)
    stayed = np.empty(seats, dtype=np.int64)
    last = np.empty(seats, dtype=np.int64)
    for index in range(which.shape[0]):
        number = which[index]
        matchup, rotation, deal = number // (seats * deals), (number // deals) % seats, number % deals
        dice = deal if duplicate else deal * seats + rotation
        for seat in range(seats):
            at[seat] = players[matchup, (rotation + seat) % seats]
        state[:] = 0
        game_squares[:] = 0
        out_after[:] = -1
        stayed[:] = 0
        last[:] = -1
        game = (seed, dice_games, dice, full, instant, scores, kinds, slots, tables, given, missing)
        if not _play_game(at, rounds, drop_out, ties, share, game, state, game_squares, out_after, stayed, last):
            stalled[left] = number
            left += 1
            continue
        _count(matchup, rotation, seats, state, game_squares, out_after, stayed, last, counts, squares)
    return stalled[:left]


@nb.njit(cache=True)
def _count(matchup, rotation, seats, state, game_squares, out_after, stayed, last, counts, squares):  # type: ignore[no-untyped-def]
    """Add a finished game to its matchup's counts, seat by seat as player by player."""
    for seat in range(seats):
        player = (rotation + seat) % seats
        row = counts[matchup, player]
        row[0] += state[_WIN, seat]
        row[1] += state[_TURNS, seat]
        row[2] += state[_SUM, seat]
        row[3] += state[_SHUT, seat]
        played = state[_TURNS, seat] > 0
        row[4] += played
        if played:
            row[5] += state[_TOTAL, seat]
        low = squares[matchup, player, 0] + game_squares[seat, 0]
        if low < game_squares[seat, 0]:
            squares[matchup, player, 1] += np.uint64(1)
        squares[matchup, player, 0] = low
        squares[matchup, player, 1] += game_squares[seat, 1]
        for other in range(seats):
            if other == seat:
                continue
            placed = _placed(seat, other, state, out_after, stayed, last)
            mate = (rotation + other) % seats
            row[_SCALARS + mate] += placed > 0
            row[_SCALARS + seats + mate] += placed == 0
