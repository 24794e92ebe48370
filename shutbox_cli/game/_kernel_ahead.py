"""The compiled code of `kernel` that plays ahead of a unit's games (numba): the exact strategies'
turns of the rounds every game plays, once per (dice game, round, seat), and the two-seat
matchups of exact strategies under plain rules, played whole from those turns. Imported only
when a bulk unit plays compiled; `play_ahead` is compiled once (one variant), cached on disk.

The turns are made in lockstep (`_roll`, `_walk`): loops without a branch or a call, which the
compiler turns into vector instructions; a strategy's turns of one rotation lie side by side
(`kernel.UnitGames`). The dice are `dice`'s splitmix64-v1 in uint64 arithmetic (every operand
uint64, so nothing turns float). `_kernel_source` takes its dice words and `_mix` from here: numba
keys a cached function on its own file only, so a change here to them needs that file changed too.
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
_ONE = np.uint64(1)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)
_EXACT = 0
_OUTCOMES = 36
_SHARE = 0
_SCALARS = 6
_DEALT_BITS, _DEALT_MASK, _DEALT_GAME = 4, 15, 1 << 8
"""A deal's games so far at a table of two, in one word: player p's win shares (0 to 4) at bits 4p,
and the games counted, one _DEALT_GAME each (the word is only read there)."""


@nb.njit
def _mix(word):
    word = (word ^ (word >> _S30)) * _MIX_1
    word = (word ^ (word >> _S27)) * _MIX_2
    return word ^ (word >> _S31)


@nb.njit(cache=True, error_model="numpy")
def play_ahead(games, rules, scores, strategies, turns, counted, ahead, pairs, paired, arrays):
    """`kernel.play`'s first part, compiled: the exact turns of the first `ahead` rounds made
    (`_deal_turns`), then, with `pairs`, the two-seat matchups of exact strategies played
    (`_play_pairs`, marked in `paired`; none marked without)."""
    players, seats, deals, duplicate, seed, dice_games = games
    kinds, slots, _, walks = strategies
    key_seed = _mix(seed + _ABSORB)
    _deal_turns(ahead, seats, duplicate, key_seed, dice_games, players, kinds, slots, walks, turns, arrays)
    for matchup in range(players.shape[0]):
        paired[matchup] = False
    if pairs:
        _play_pairs(players, deals, duplicate, kinds, slots, turns, scores, rules, counted, paired)


@nb.njit
def _add_counts(counts, squares, matchup, player, counted, low, high):
    """A player's counts over some games of a matchup (win shares, turns, total, shut boxes, games
    played) added to its tallies (`kernel.COUNTED`), its squared scores in two words."""
    wins, turns, total, shut, played = counted
    counts[matchup, player, 0] += wins
    counts[matchup, player, 1] += turns
    counts[matchup, player, 2] += total
    counts[matchup, player, 3] += shut
    counts[matchup, player, 4] += played
    counts[matchup, player, 5] += total
    summed = squares[matchup, player, 0] + low
    squares[matchup, player, 1] += high + (_ONE if summed < low else np.uint64(0))
    squares[matchup, player, 0] = summed


@nb.njit(error_model="numpy")
def _deal_turns(ahead, seats, duplicate, key_seed, dice_games, players, kinds, slots, walks, turns, arrays):
    """The exact strategies' turns of the first `ahead` rounds of every dice game, written in `turns`
    [slot, seat, round, dice game]: for each round and seat, every dice game's rolls made at once,
    then each exact strategy seated there walks them, all its dice games side by side. The dice
    games come rotation by rotation (`kernel.UnitGames`), so a strategy seated in one rotation only
    walks its own. `arrays` holds the working arrays (`kernel.Workspace.ahead`): `seated`
    [rotation, seat, slot], `dealt` and `counters` [dice game] (words), `rolls` [seat, step, dice
    game], `walking` [dice game] (the walks' states)."""
    seated, dealt, counters, rolls, walking = arrays
    games = dice_games.shape[0]
    rotations = 1 if duplicate else seats
    _seat_exact(seats, duplicate, players, kinds, slots, seated)
    for dice in range(games):
        dealt[dice] = _mix((key_seed ^ dice_games[dice]) + _ABSORB)
    for number in range(ahead):
        for seat in range(seats):
            if not seated[:rotations, seat].any():
                continue
            for dice in range(games):
                counters[dice] = _mix((_mix((dealt[dice] ^ np.uint64(number)) + _ABSORB) ^ np.uint64(seat)) + _ABSORB)
            _roll(counters, rolls[seat])
            for rotation in range(rotations):
                first, last = rotation * (games // rotations), (rotation + 1) * (games // rotations)
                for slot in range(seated.shape[2]):
                    if seated[rotation, seat, slot]:
                        out = turns[slot, seat, number, first:last]
                        _walk(walks[slot], rolls[seat, :, first:last], counters[first:last], walking[first:last], out)


@nb.njit
def _seat_exact(seats, duplicate, players, kinds, slots, seated):
    """Which exact strategies' slots sit in which seat of a rotation's dice games, in `seated`
    [rotation, seat, slot] (a duplicate unit's every rotation as its first: they share the dice)."""
    for rotation in range(seated.shape[0]):
        for seat in range(seats):
            for slot in range(seated.shape[2]):
                seated[rotation, seat, slot] = False
    for matchup in range(players.shape[0]):
        for rotation in range(seats):
            for seat in range(seats):
                strategy = players[matchup, rotation + seat - (seats if rotation + seat >= seats else 0)]
                if kinds[strategy] == _EXACT:
                    seated[0 if duplicate else rotation, seat, slots[strategy]] = True


@nb.njit(error_model="numpy")
def _roll(counters, rolls):
    """Rolls [step, dice game] of the dice games whose turns' streams start at `counters`: roll k
    of each is `dice.turn_rolls`' (the outcome, 0 to 35), every dice game's at once (a loop the
    compiler makes vector instructions of: no branch, no call)."""
    for step in range(rolls.shape[0]):
        gamma = np.uint64(step + 1) * _GAMMA
        rolled = rolls[step]
        for dice in range(counters.shape[0]):
            word = counters[dice] + gamma
            word = (word ^ (word >> _S30)) * _MIX_1
            word = (word ^ (word >> _S27)) * _MIX_2
            word = word ^ (word >> _S31)
            rolled[dice] = np.uint8(((word >> _S32) * _36 + (((word & _LOW_32) * _36) >> _S32)) >> _S32)


@nb.njit(error_model="numpy")
def _walk(table, rolls, counters, walking, out):
    """A strategy's turns on these rolls [step, dice game], their ends written in `out`: its walk
    table (`kernel.walk_table`: a turn's end is a state every roll leaves as it is) walked a step
    of every dice game at a time, as many steps as rolls (the most a turn of a legal table takes:
    one per tile), without a branch (vector instructions). A walk not ended by then goes on with
    its stream's next rolls, one dice game at a time."""
    steps, ended = rolls.shape[0], table.shape[0] // (2 * _OUTCOMES)  # the first end state
    for dice in range(walking.shape[0]):
        walking[dice] = ended - 1  # the full box
    for step in range(steps):
        rolled = rolls[step]
        for dice in range(walking.shape[0]):
            walking[dice] = table[np.uint32(walking[dice]) * np.uint32(_OUTCOMES) + np.uint32(rolled[dice])]
    for dice in range(walking.shape[0]):
        state, step = walking[dice], steps
        while state < ended:
            step += 1
            word = _mix(counters[dice] + np.uint64(step) * _GAMMA)
            outcome = ((word >> _S32) * _36 + (((word & _LOW_32) * _36) >> _S32)) >> _S32
            state = table[np.uint32(state) * np.uint32(_OUTCOMES) + np.uint32(outcome)]
        out[dice] = state - ended


@nb.njit(error_model="numpy")
def _play_pairs(players, deals, duplicate, kinds, slots, turns, scores, rules, counted, paired):
    """Every game of the unit's two-seat matchups of exact strategies, under rules without keys,
    drop-outs or playoffs, from their turns made ahead: a matchup's games rotation by rotation,
    deal by deal, each a few additions (its counts kept in locals, added to the tallies once a
    rotation); those matchups marked in `paired`. The counts are `play_unit`'s, bit for bit."""
    instant, rounds, _, ties, _, share = rules
    counts, squares, dealt = counted
    pairs = _SCALARS + 4  # where a player's pentanomial starts in its counts
    for matchup in range(players.shape[0]):
        if kinds[players[matchup, 0]] != _EXACT or kinds[players[matchup, 1]] != _EXACT:
            continue
        paired[matchup] = True
        for rotation in range(2):
            player, mate = rotation, 1 - rotation  # seat 0's player, seat 1's
            slot, slot_other = slots[players[matchup, player]], slots[players[matchup, mate]]
            wins, turns_in, total, shut, played = 0, 0, 0, 0, 0
            wins_other, turns_other, total_other, shut_other, played_other = 0, 0, 0, 0, 0
            low, high, low_other, high_other = np.uint64(0), np.uint64(0), np.uint64(0), np.uint64(0)
            first_ahead, other_ahead, even = 0, 0, 0
            for deal in range(deals):
                dice = deal if duplicate else rotation * deals + deal
                score, score_other, turned, turned_other, won = 0, 0, 0, 0, -1
                for number in range(rounds):
                    got = scores[turns[slot, 0, number, dice]]
                    score += got
                    turned += 1
                    shut += got == 0
                    square = np.uint64(got * got)
                    low += square
                    high += _ONE if low < square else np.uint64(0)
                    if instant and got == 0:
                        won = 0
                        break
                    got = scores[turns[slot_other, 1, number, dice]]
                    score_other += got
                    turned_other += 1
                    shut_other += got == 0
                    square = np.uint64(got * got)
                    low_other += square
                    high_other += _ONE if low_other < square else np.uint64(0)
                    if instant and got == 0:
                        won = 1
                        break
                if won < 0:  # the lower total; a tie shared (2) or the first seat's
                    lower = 0 if score < score_other else 1
                    won = lower if score != score_other else (2 if ties == _SHARE else 0)
                part = share if won == 0 else (share // 2 if won == 2 else 0)
                part_other = share if won == 1 else (share // 2 if won == 2 else 0)
                wins += part
                wins_other += part_other
                first_ahead += won == 0
                other_ahead += won == 1
                even += won == 2
                turns_in += turned
                turns_other += turned_other
                total += score
                total_other += score_other
                played += turned > 0
                played_other += turned_other > 0
                value = dealt[matchup, deal] + _DEALT_GAME + (part << (_DEALT_BITS * player))
                value += part_other << (_DEALT_BITS * mate)
                if value >= 2 * _DEALT_GAME:  # the deal's pentanomial outcomes, once both its games are in
                    counts[matchup, 0, pairs + (value & _DEALT_MASK)] += 1
                    counts[matchup, 1, pairs + ((value >> _DEALT_BITS) & _DEALT_MASK)] += 1
                else:
                    dealt[matchup, deal] = value
            _add_counts(counts, squares, matchup, player, (wins, turns_in, total, shut, played), low, high)
            _add_counts(
                counts,
                squares,
                matchup,
                mate,
                (wins_other, turns_other, total_other, shut_other, played_other),
                low_other,
                high_other,
            )
            counts[matchup, player, _SCALARS + mate] += first_ahead
            counts[matchup, mate, _SCALARS + player] += other_ahead
            counts[matchup, player, _SCALARS + 2 + mate] += even
            counts[matchup, mate, _SCALARS + 2 + player] += even
