"""The compiled code of `kernel` (numba): imported only when a bulk unit plays compiled.

One function per set of rule paths in force (`unit_player`), so numba compiles little and no
array crosses a call in the hot loop. It is the library's one exception to the complexity limit
(`noqa: C901` below): split into small compiled steps it played as fast (inlined) but took twice
as long to compile on a first run (4.4 CPU-s against 2.2, an empty `NUMBA_CACHE_DIR`). The dice
are `dice`'s splitmix64-v1 in uint64 arithmetic (every operand uint64, so nothing turns float);
the rules are `bulk.play_games`'s, one game at a time; the placings `tally.finished_ahead`'s.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._kernel_ahead import _ABSORB, _DEALT_BITS, _DEALT_GAME, _DEALT_MASK, _GAMMA, _LOW_32, _ONE, _S32, _36, _mix

_NEVER_OUT = 2**62
_FAR = 2**63 - 1
_EXACT, _GIVEN, _KEYED, _UNKNOWN = 0, 1, 2, -2
_KEY_ROW = 10
"""A key as the kernel keeps it: its 64-bit hash (as int64), the strategy, then up to 8 feature values."""
_NONE = -1
_SHARE, _SEAT = 0, 1
_SCALARS = 6
# A game's counts by seat: rows of `numbers`.
_WIN, _TURNS, _SHUT, _TOTAL, _OUT, _STAYED, _LAST, _SCORE = range(8)
# Who sits in each seat of the matchup and rotation played: rows of `seating`.
_PLAYER, _STRATEGY, _KIND, _SLOT = range(4)


@nb.njit
def _keyed_slot(strategy, seat, number, playoff, numbers, flags, key_features, keys, key_row):  # noqa: C901
    """The slot of the table of a keyed strategy's turn: its key worked out into `key_row`
    (`keyed.key_rows` for one turn) and looked up among the `keys` (rows sorted by hash, the
    table's slot last); -1 if its table is not made yet."""
    seats = numbers.shape[1]
    to_beat, to_beat_count, to_come, leader = _FAR, 0, 0, _FAR
    for other in range(seats):
        if other == seat or not flags[0, other]:
            continue
        score = numbers[_SCORE, other]
        if score < 0:
            to_come += 1
        elif score < to_beat:
            to_beat, to_beat_count = score, 1
        elif score == to_beat:
            to_beat_count += 1
        before = numbers[_TOTAL, other] - (score if score > 0 and not playoff else 0)
        if before < leader:
            leader = before
    key_row[1] = strategy
    for column in range(_KEY_ROW - 2):
        feature = key_features[strategy, column]
        value = 0
        if feature == 0:
            value = seat
        elif feature == 1:
            value = number
        elif feature == 2:
            value = 1 if playoff else 0
        elif feature == 3:
            value = numbers[_TOTAL, seat]
        elif feature == 4:
            value = _NONE if to_beat == _FAR else to_beat
        elif feature == 5:
            value = to_beat_count
        elif feature == 6:
            value = to_come
        elif feature == 7:
            value = _NONE if leader == _FAR else leader
        key_row[column + 2] = value
    hashed = np.uint64(0)
    for column in range(1, _KEY_ROW):
        hashed = _mix((hashed ^ np.uint64(key_row[column])) + _ABSORB)
    key_row[0] = np.int64(hashed >> np.uint64(1))  # positive: rows sort by it as numpy sorts int64
    low, high = 0, keys.shape[0]
    while low < high:
        middle = (low + high) // 2
        if keys[middle, 0] < key_row[0]:
            low = middle + 1
        else:
            high = middle
    while low < keys.shape[0] and keys[low, 0] == key_row[0]:
        same = True
        for column in range(1, _KEY_ROW):
            same = same and keys[low, column] == key_row[column]
        if same:
            return keys[low, _KEY_ROW]
        low += 1
    return -1


def unit_player(keyed, drop_outs, playoffs):  # noqa: C901
    """`play_unit` compiled for the rule paths in force only (keyed turns, drop-outs, playoffs):
    numba prunes the branches of a path left out before it types them, so the common unit (one
    round, no keys) compiles least; each variant is cached on disk apart (its flags in its key)."""
    plain = not keyed and not drop_outs and not playoffs

    @nb.njit(cache=True, error_model="numpy")
    def play_unit(games, rules, scores, strategies, turns, which, counted, stalls, keyed, work):  # noqa: C901
        """`kernel.play`, compiled: the games `which`, counted; those stalled written in `stalled`,
        and how many returned. Its working arrays come made (`kernel.Workspace`)."""
        players, seats, deals, duplicate, seed, dice_games = games
        instant, rounds, drop_out, ties, full, share = rules
        kinds, slots, tables, _ = strategies
        counts, squares, dealt = counted
        missing, asked, stalled = stalls
        key_features, keys = keyed
        numbers, flags, words, key_row, seating, paired = work
        left = 0
        key_seed = _mix(seed + _ABSORB)
        kept = turns.shape[2]
        pairs = _SCALARS + 2 * seats  # where a player's pentanomial starts in its counts, if counted
        for seat in range(seats):  # rows no game of a path without them writes
            numbers[_OUT, seat] = numbers[_LAST, seat] = -1
            numbers[_STAYED, seat] = 0
        matchup, rotation, deal, previous, seated_at = 0, 0, -1, -2, -1
        for index in range(which.shape[0]):
            game = which[index]
            if game == previous + 1:  # the next game: no division
                deal += 1
                if deal == deals:
                    deal, rotation = 0, rotation + 1
                    if rotation == seats:
                        rotation, matchup = 0, matchup + 1
            else:
                matchup, rotation, deal = game // (seats * deals), (game // deals) % seats, game % deals
            previous = game
            if plain and paired[matchup]:
                continue
            dice = deal if duplicate else rotation * deals + deal
            if seated_at != matchup * seats + rotation:  # who sits where: once per matchup and rotation
                seated_at = matchup * seats + rotation
                for seat in range(seats):
                    player = rotation + seat - (seats if rotation + seat >= seats else 0)
                    seating[_PLAYER, seat] = player
                    strategy = players[matchup, player]
                    seating[_STRATEGY, seat] = strategy
                    seating[_KIND, seat] = kinds[strategy]
                    seating[_SLOT, seat] = slots[strategy]
            for seat in range(seats):
                numbers[_WIN, seat] = numbers[_TURNS, seat] = numbers[_SHUT, seat] = numbers[_TOTAL, seat] = 0
                if playoffs:
                    numbers[_STAYED, seat] = 0
                    numbers[_LAST, seat] = -1
                if drop_outs:
                    numbers[_OUT, seat] = -1
                words[seat, 0] = words[seat, 1] = 0
                flags[0, seat] = True
            number, playoff, waiting = np.int64(0), np.bool_(False), False
            while True:
                # One round among the seats playing: each turn, then whether a shut box won at once.
                won = -1
                for seat in range(seats):
                    numbers[_SCORE, seat] = -1
                for seat in range(seats):
                    if not flags[0, seat]:
                        continue
                    kind, slot, mask = seating[_KIND, seat], seating[_SLOT, seat], _UNKNOWN
                    if keyed and kind == _KEYED:  # the turn's key (`keyed.key_rows`), and its table's slot
                        slot = _keyed_slot(
                            seating[_STRATEGY, seat], seat, number, playoff, numbers, flags, key_features, keys, key_row
                        )
                        if slot < 0:
                            for column in range(_KEY_ROW):
                                asked[left, column] = key_row[column]
                            waiting = True
                            break
                    elif number < kept:
                        mask = np.int64(turns[slot, seat, number, dice])
                    if mask == _UNKNOWN and kind != _GIVEN:
                        counter = _mix((key_seed ^ dice_games[dice]) + _ABSORB)
                        counter = _mix((counter ^ np.uint64(number)) + _ABSORB)
                        counter = _mix((counter ^ np.uint64(seat)) + _ABSORB)
                        mask = full
                        while True:
                            counter += _GAMMA
                            word = _mix(counter)
                            high = (word >> _S32) * _36 + (((word & _LOW_32) * _36) >> _S32)
                            after = tables[slot, mask, np.intp(high >> _S32)]
                            if after <= 0:
                                mask = 0 if after == 0 else mask
                                break
                            mask = np.int64(after)
                        if kind == _EXACT and number < kept:
                            turns[slot, seat, number, dice] = mask
                    elif mask == _UNKNOWN:
                        if number < missing[slot, seat, dice]:
                            missing[slot, seat, dice] = number
                        asked[left, 0] = -1
                        waiting = True
                        break
                    got = scores[mask]
                    numbers[_SCORE, seat] = got
                    if not playoff:
                        numbers[_TURNS, seat] += 1
                        numbers[_SHUT, seat] += got == 0
                        numbers[_TOTAL, seat] += got
                        square = np.uint64(got * got)
                        low = words[seat, 0] + square
                        words[seat, 1] += _ONE if low < square else np.uint64(0)
                        words[seat, 0] = low
                    if instant and got == 0:
                        won = seat
                        break
                if waiting:
                    break
                if playoffs and playoff:
                    for seat in range(seats):
                        if flags[0, seat]:
                            numbers[_STAYED, seat] += 1
                            numbers[_LAST, seat] = numbers[_SCORE, seat]
                number += 1
                if won >= 0:
                    numbers[_WIN, won] += share
                    break
                # Who is left to settle among, on which values (-1: the game goes on or is over).
                settle = -1
                if playoffs and playoff:
                    settle = _SCORE
                    for seat in range(seats):
                        flags[1, seat] = flags[0, seat]
                elif drop_outs:
                    standing, alone, anyone_out = 0, -1, False
                    for seat in range(seats):
                        out = flags[0, seat] and numbers[_TOTAL, seat] >= drop_out
                        flags[1, seat] = out
                        if out:
                            numbers[_OUT, seat] = number - 1
                            anyone_out = True
                            flags[0, seat] = False
                        elif flags[0, seat]:
                            standing += 1
                            alone = seat
                    if seats > 1 and standing == 1:
                        numbers[_WIN, alone] += share
                        break
                    if standing:
                        continue
                    if not anyone_out:
                        break
                    settle = _TOTAL
                else:
                    if number < rounds:
                        continue
                    settle = _TOTAL
                    for seat in range(seats):
                        flags[1, seat] = True
                # The lowest values among them: alone, shared, the first seat's, or a playoff among them.
                best = _FAR
                for seat in range(seats):
                    if flags[1, seat] and numbers[settle, seat] < best:
                        best = numbers[settle, seat]
                tied, first = 0, -1
                for seat in range(seats):
                    flags[0, seat] = flags[1, seat] and numbers[settle, seat] == best
                    if flags[0, seat]:
                        tied += 1
                        first = seat if first < 0 else first
                if ties == _SHARE:
                    part = share if tied == 1 else share // tied
                    for seat in range(seats):
                        if flags[0, seat]:
                            numbers[_WIN, seat] += part
                    break
                if playoffs and tied > 1:  # the playoff rule: another round among them
                    playoff = True
                    continue
                numbers[_WIN, first] += share
                break
            if waiting:
                stalled[left] = game
                left += 1
                continue
            # The game counted into its matchup's tallies, seat by seat as player by player.
            won_deal = _DEALT_GAME
            for seat in range(seats):
                player = seating[_PLAYER, seat]
                won_deal += numbers[_WIN, seat] << (_DEALT_BITS * player)
                counts[matchup, player, 0] += numbers[_WIN, seat]
                counts[matchup, player, 1] += numbers[_TURNS, seat]
                counts[matchup, player, 2] += numbers[_TOTAL, seat]
                counts[matchup, player, 3] += numbers[_SHUT, seat]
                counts[matchup, player, 4] += numbers[_TURNS, seat] > 0
                counts[matchup, player, 5] += numbers[_TOTAL, seat]
                low = squares[matchup, player, 0] + words[seat, 0]
                squares[matchup, player, 1] += words[seat, 1] + (_ONE if low < words[seat, 0] else np.uint64(0))
                squares[matchup, player, 0] = low
                for other in range(seat + 1, seats):
                    won, won_other = numbers[_WIN, seat] > 0, numbers[_WIN, other] > 0
                    placed = np.int64(won) - np.int64(won_other)
                    if placed == 0 and not won:  # neither won: out later, then the lower total of as many turns, ...
                        out = _NEVER_OUT if numbers[_OUT, seat] < 0 else numbers[_OUT, seat]
                        out_other = _NEVER_OUT if numbers[_OUT, other] < 0 else numbers[_OUT, other]
                        last, last_other = numbers[_LAST, seat], numbers[_LAST, other]
                        if drop_outs and out != out_other:
                            placed = 1 if out > out_other else -1
                        elif numbers[_TURNS, seat] != numbers[_TURNS, other]:
                            placed = 0
                        elif numbers[_TOTAL, seat] != numbers[_TOTAL, other]:
                            placed = 1 if numbers[_TOTAL, seat] < numbers[_TOTAL, other] else -1
                        elif playoffs and numbers[_STAYED, seat] != numbers[_STAYED, other]:  # ... then the playoff
                            placed = 1 if numbers[_STAYED, seat] > numbers[_STAYED, other] else -1
                        elif playoffs and last >= 0 and last_other >= 0 and last != last_other:
                            placed = 1 if last < last_other else -1
                    mate = seating[_PLAYER, other]
                    if placed == 0:
                        counts[matchup, player, _SCALARS + seats + mate] += 1
                        counts[matchup, mate, _SCALARS + seats + player] += 1
                    else:
                        ahead, behind = (player, mate) if placed > 0 else (mate, player)
                        counts[matchup, ahead, _SCALARS + behind] += 1
            if dealt.shape[0]:  # a table of two: the deal's pentanomial outcomes, counted once both games are in
                value = dealt[matchup, deal] + won_deal
                if value >= seats * _DEALT_GAME:
                    for player in range(seats):
                        counts[matchup, player, pairs + ((value >> (_DEALT_BITS * player)) & _DEALT_MASK)] += 1
                else:
                    dealt[matchup, deal] = value
        return left

    return play_unit
