"""The compiled code of `kernel` (numba): imported only when a bulk unit plays compiled.

One function per set of rule paths in force (`unit_player`), so numba compiles little; it is
put together from small compiled steps (a game's seats, a turn, a round, settling, counting),
which numba inlines into it (`inline="always"`); the mix and a keyed turn's key are called (inlined
too, they took twice as long to compile). The dice are `dice`'s splitmix64-v1 in uint64
arithmetic (every operand uint64, so nothing turns float); the rules are `bulk.play_games`'s, one
game at a time; the placings `tally.finished_ahead`'s.
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
_NEVER_OUT = 2**62
_FAR = 2**63 - 1
_EXACT, _GIVEN, _KEYED, _UNKNOWN = 0, 1, 2, -2
_KEY_ROW = 10
"""A key as the kernel keeps it: its 64-bit hash (as int64), the strategy, then up to 8 feature values."""
_NONE = -1
_SHARE, _SEAT = 0, 1
_SCALARS = 6
_DEALT_BITS, _DEALT_MASK, _DEALT_GAME = 4, 15, 1 << 8
"""A deal's games so far at a table of two, in one word: player p's win shares (0 to 4) at bits 4p,
and the games counted, one _DEALT_GAME each (the word is only read there)."""
# A game's counts by seat: rows of `numbers`.
_WIN, _TURNS, _SUM, _SHUT, _TOTAL, _OUT, _STAYED, _LAST, _SCORE, _AT = range(10)
_WAITING = -3
"""A turn, a round or a game that waits for a given turn or a key's table."""
_GOES_ON, _OVER = -1, -2
"""After a round: the game goes on, or it is over (else the row of `numbers` to settle on)."""


@nb.njit(cache=True, error_model="numpy", _nrt=False)
def _mix(word):
    word = (word ^ (word >> _S30)) * _MIX_1
    word = (word ^ (word >> _S27)) * _MIX_2
    return word ^ (word >> _S31)


@nb.njit(cache=True, error_model="numpy", _nrt=False)
def _rivals(seat, playoff, numbers, flags):
    """What a seat's key sees of the others playing this round: the lowest score to beat and how
    many made it, how many turns are to come, and the leader's total before this round."""
    to_beat, to_beat_count, to_come, leader = _FAR, 0, 0, _FAR
    for other in range(numbers.shape[1]):
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
    return to_beat, to_beat_count, to_come, leader


@nb.njit(cache=True, error_model="numpy", _nrt=False)
def _feature(feature, seat, number, playoff, total, rivals):
    """The value of one feature of a key (`kernel.KEY_FEATURES`, numbered); 0 past its features."""
    to_beat, to_beat_count, to_come, leader = rivals
    if feature == 0:
        return seat
    if feature == 1:
        return number
    if feature == 2:
        return 1 if playoff else 0
    if feature == 3:
        return total
    if feature == 4:
        return _NONE if to_beat == _FAR else to_beat
    if feature == 5:
        return to_beat_count
    if feature == 6:
        return to_come
    if feature == 7:
        return _NONE if leader == _FAR else leader
    return 0


@nb.njit(cache=True, error_model="numpy", _nrt=False)
def _found_key(keys, key_row):
    """The slot of the table of the key in `key_row` among the `keys` (rows sorted by hash, the
    table's slot last); -1 if its table is not made yet."""
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


@nb.njit(cache=True, error_model="numpy", _nrt=False)
def _keyed_slot(strategy, seat, number, playoff, numbers, flags, key_features, keys, key_row):
    """The slot of the table of a keyed strategy's turn: its key worked out into `key_row`
    (`keyed.key_rows` for one turn) and looked up among the `keys`; -1 if its table is not made yet."""
    rivals = _rivals(seat, playoff, numbers, flags)
    key_row[1] = strategy
    for column in range(_KEY_ROW - 2):
        feature = key_features[strategy, column]
        key_row[column + 2] = _feature(feature, seat, number, playoff, numbers[_TOTAL, seat], rivals)
    hashed = np.uint64(0)
    for column in range(1, _KEY_ROW):
        hashed = _mix((hashed ^ np.uint64(key_row[column])) + _ABSORB)
    key_row[0] = np.int64(hashed >> np.uint64(1))  # positive: rows sort by it as numpy sorts int64
    return _found_key(keys, key_row)


@nb.njit(inline="always")
def _walked(tables, slot, full, counter):
    """The box a turn ends with, walked through a table from the full box on the rolls of the
    stream at `counter` (splitmix64-v1: the high word of each word times 36)."""
    mask = full
    while True:
        counter += _GAMMA
        word = _mix(counter)
        high = (word >> _S32) * _36 + (((word & _LOW_32) * _36) >> _S32)
        after = tables[slot, mask, np.intp(high >> _S32)]
        if after <= 0:
            return 0 if after == 0 else mask
        mask = np.int64(after)


@nb.njit(inline="always")
def _turn(keyed, strategy, seat, number, playoff, dice, left, known, game, looked):
    """The box a seat's turn ends with, or _WAITING: for a given turn not given yet (its lowest
    round written in `missing`, -1 first in `asked`), or for a key's table not made yet (the key in
    `asked`). `known` is (kinds, slots, tables, turns, missing), `game` (numbers, flags, the dice
    stream's key for the game, full box), `looked` (key_features, keys, key_row, asked)."""
    kinds, slots, tables, turns, missing = known
    numbers, flags, key, full = game
    key_features, keys, key_row, asked = looked
    kind, slot, mask = kinds[strategy], slots[strategy], _UNKNOWN
    if keyed and kind == _KEYED:  # the turn's key (`keyed.key_rows`), and its table's slot
        slot = _keyed_slot(strategy, seat, number, playoff, numbers, flags, key_features, keys, key_row)
        if slot < 0:
            for column in range(_KEY_ROW):
                asked[left, column] = key_row[column]
            return _WAITING
    elif number < turns.shape[2]:
        mask = np.int64(turns[slot, seat, number, dice])
    if mask != _UNKNOWN:
        return mask
    if kind == _GIVEN:
        if number < missing[slot, seat, dice]:
            missing[slot, seat, dice] = number
        asked[left, 0] = -1
        return _WAITING
    counter = _mix((_mix((key ^ np.uint64(number)) + _ABSORB) ^ np.uint64(seat)) + _ABSORB)
    mask = _walked(tables, slot, full, counter)
    if kind == _EXACT and number < turns.shape[2]:
        turns[slot, seat, number, dice] = mask
    return mask


@nb.njit(inline="always")
def _counted_turn(numbers, words, seat, got):
    """A regular round's turn added to its seat's counts (its square in two words)."""
    numbers[_TURNS, seat] += 1
    numbers[_SUM, seat] += got
    numbers[_SHUT, seat] += got == 0
    numbers[_TOTAL, seat] += got
    square = np.uint64(got * got)
    low = words[seat, 0] + square
    words[seat, 1] += _ONE if low < square else np.uint64(0)
    words[seat, 0] = low


@nb.njit(inline="always")
def _played_round(keyed, instant, number, playoff, dice, left, scores, words, known, game, looked):
    """One round among the seats playing: each turn, then whether a shut box won at once. The seat
    that won so (-1 if none), or _WAITING."""
    numbers, flags = game[0], game[1]
    seats = numbers.shape[1]
    for seat in range(seats):
        numbers[_SCORE, seat] = -1
    for seat in range(seats):
        if not flags[0, seat]:
            continue
        mask = _turn(keyed, numbers[_AT, seat], seat, number, playoff, dice, left, known, game, looked)
        if mask == _WAITING:
            return _WAITING
        got = scores[mask]
        numbers[_SCORE, seat] = got
        if not playoff:
            _counted_turn(numbers, words, seat, got)
        if instant and got == 0:
            return seat
    return -1


@nb.njit(inline="always")
def _dropped(numbers, flags, number, drop_out, share):
    """After a round of a drop-out game: who dropped out (among those to settle); _GOES_ON while
    any stays in, _OVER where one is left (it wins) or none dropped out, else _TOTAL to settle on."""
    seats = numbers.shape[1]
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
        return _OVER
    if standing:
        return _GOES_ON
    return _TOTAL if anyone_out else _OVER


@nb.njit(inline="always")
def _to_settle(paths, numbers, flags, number, playoff, rules, share):
    """After a round no shut box won: the row of `numbers` to settle on among the seats in
    `flags[1]`, or _GOES_ON, or _OVER. `paths` is (drop-outs, playoffs), `rules` (rounds, drop-out)."""
    drop_outs, playoffs = paths
    if playoffs and playoff:
        for seat in range(numbers.shape[1]):
            flags[1, seat] = flags[0, seat]
        return _SCORE
    if drop_outs:
        return _dropped(numbers, flags, number, rules[1], share)
    if number < rules[0]:
        return _GOES_ON
    for seat in range(numbers.shape[1]):
        flags[1, seat] = True
    return _TOTAL


@nb.njit(inline="always")
def _settled(playoffs, numbers, flags, settle, ties, share):
    """The lowest values of row `settle` among the seats in `flags[1]`: alone, shared, the first
    seat's; or (False) a playoff among them, the seats playing it in `flags[0]`."""
    seats = numbers.shape[1]
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
        for seat in range(seats):
            if flags[0, seat]:
                numbers[_WIN, seat] += share // tied
        return True
    if playoffs and tied > 1:  # the playoff rule: another round among them
        return False
    numbers[_WIN, first] += share
    return True


@nb.njit(inline="always")
def _played_game(paths, ruled, dice, left, scores, share, words, known, game, looked):
    """A game to its end, its counts in `numbers` and `words`; False where it waits. `paths` is
    (keyed, drop-outs, playoffs), `ruled` (instant win, rounds, drop-out limit, tie rule)."""
    keyed, drop_outs, playoffs = paths
    instant, rounds, drop_out, ties = ruled
    numbers, flags = game[0], game[1]
    number, playoff = np.int64(0), np.bool_(False)
    while True:
        won = _played_round(keyed, instant, number, playoff, dice, left, scores, words, known, game, looked)
        if won == _WAITING:
            return False
        if playoffs and playoff:
            for seat in range(numbers.shape[1]):
                if flags[0, seat]:
                    numbers[_STAYED, seat] += 1
                    numbers[_LAST, seat] = numbers[_SCORE, seat]
        number += 1
        if won >= 0:
            numbers[_WIN, won] += share
            return True
        settle = _to_settle((drop_outs, playoffs), numbers, flags, number, playoff, (rounds, drop_out), share)
        if settle == _GOES_ON:
            continue
        if settle == _OVER or _settled(playoffs, numbers, flags, settle, ties, share):
            return True
        playoff = True


@nb.njit(inline="always")
def _seated(numbers, words, flags, players, matchup, rotation):
    """A game's working arrays set for its start, each seat's strategy in row _AT."""
    seats = numbers.shape[1]
    for seat in range(seats):
        for row in range(_AT):
            numbers[row, seat] = 0
        numbers[_OUT, seat] = numbers[_LAST, seat] = -1
        numbers[_AT, seat] = players[matchup, (rotation + seat) % seats]
        words[seat, 0] = words[seat, 1] = 0
        flags[0, seat] = True


@nb.njit(inline="always")
def _placed(numbers, seat, other):
    """`tally.finished_ahead` of two seats of a finished game: 1 ahead, -1 behind, 0 level."""
    won, won_other = numbers[_WIN, seat] > 0, numbers[_WIN, other] > 0
    out = _NEVER_OUT if numbers[_OUT, seat] < 0 else numbers[_OUT, seat]
    out_other = _NEVER_OUT if numbers[_OUT, other] < 0 else numbers[_OUT, other]
    last, last_other = numbers[_LAST, seat], numbers[_LAST, other]
    if won != won_other:
        return 1 if won else -1
    if won:
        return 0
    if out != out_other:
        return 1 if out > out_other else -1
    if numbers[_TURNS, seat] != numbers[_TURNS, other]:
        return 0
    if numbers[_TOTAL, seat] != numbers[_TOTAL, other]:
        return 1 if numbers[_TOTAL, seat] < numbers[_TOTAL, other] else -1
    if numbers[_STAYED, seat] != numbers[_STAYED, other]:
        return 1 if numbers[_STAYED, seat] > numbers[_STAYED, other] else -1
    if last >= 0 and last_other >= 0 and last != last_other:
        return 1 if last < last_other else -1
    return 0


@nb.njit(inline="always")
def _counted_game(numbers, words, counts, squares, matchup, rotation):
    """A finished game counted into its matchup's tallies, seat by seat as player by player; what
    it won, each player's win shares in a word (`dealt`'s)."""
    seats = numbers.shape[1]
    won_deal = _DEALT_GAME
    for seat in range(seats):
        player = (rotation + seat) % seats
        won_deal += numbers[_WIN, seat] << (_DEALT_BITS * player)
        row = counts[matchup, player]
        row[0] += numbers[_WIN, seat]
        row[1] += numbers[_TURNS, seat]
        row[2] += numbers[_SUM, seat]
        row[3] += numbers[_SHUT, seat]
        if numbers[_TURNS, seat] > 0:
            row[4] += 1
            row[5] += numbers[_TOTAL, seat]
        low = squares[matchup, player, 0] + words[seat, 0]
        squares[matchup, player, 1] += words[seat, 1] + (_ONE if low < words[seat, 0] else np.uint64(0))
        squares[matchup, player, 0] = low
        for other in range(seat + 1, seats):
            placed = _placed(numbers, seat, other)
            mate = (rotation + other) % seats
            if placed == 0:
                counts[matchup, player, _SCALARS + seats + mate] += 1
                counts[matchup, mate, _SCALARS + seats + player] += 1
            else:
                ahead, behind = (player, mate) if placed > 0 else (mate, player)
                counts[matchup, ahead, _SCALARS + behind] += 1
    return won_deal


@nb.njit(inline="always")
def _counted_deal(counts, dealt, matchup, deal, won_deal):
    """At a table of two, a game's win shares added to its deal's; once both games are in, each
    player's outcome counted in its pentanomial (in `counts` after `tied`)."""
    seats = counts.shape[1]
    value = dealt[matchup, deal] + won_deal
    if value >= seats * _DEALT_GAME:
        pairs = _SCALARS + 2 * seats
        for player in range(seats):
            counts[matchup, player, pairs + ((value >> (_DEALT_BITS * player)) & _DEALT_MASK)] += 1
    else:
        dealt[matchup, deal] = value


@nb.njit(inline="always")
def _located(game, previous, at, seats, deals):
    """A game's (matchup, rotation, deal) from its number, or from the last game's (`at`) when it
    is the next one: no division."""
    matchup, rotation, deal = at
    if game != previous + 1:
        return game // (seats * deals), (game // deals) % seats, game % deals
    deal += 1
    if deal == deals:
        deal, rotation = 0, rotation + 1
        if rotation == seats:
            rotation, matchup = 0, matchup + 1
    return matchup, rotation, deal


def unit_player(keyed, drop_outs, playoffs):
    """`play_unit` compiled for the rule paths in force only (keyed turns, drop-outs, playoffs):
    numba prunes the branches of a path left out before it types them, so the common unit (one
    round, no keys) compiles least; each variant is cached on disk apart (its flags in its key)."""

    # No array is made here (they all come made), so numba's reference counting is off (`_nrt`): the
    # steps' arrays would be counted in and out at every turn they are inlined into (2.6x slower).
    @nb.njit(cache=True, error_model="numpy", _nrt=False)
    def play_unit(
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
        turns,
        which,
        counts,
        squares,
        missing,
        key_features,
        keys,
        asked,
        dealt,
        stalled,
        numbers,
        flags,
        words,
        key_row,
    ):
        """`kernel.play`, compiled: the games `which`, counted; those stalled written in `stalled`,
        and how many returned. Its working arrays come made (an array made here would compile
        numpy's allocation too): `numbers` [row, seat] a game's counts, `flags` [2, seat] playing
        this round and among those to settle, `words` [seat, 2] its squares, low and high word,
        `key_row` a turn's key."""
        left = 0
        key_seed = _mix(seed + _ABSORB)
        paths, ruled = (keyed, drop_outs, playoffs), (instant, rounds, drop_out, ties)
        known, looked = (kinds, slots, tables, turns, missing), (key_features, keys, key_row, asked)
        at, previous = (0, 0, -1), -2
        for index in range(which.shape[0]):
            game = which[index]
            at = _located(game, previous, at, seats, deals)
            matchup, rotation, deal = at
            previous = game
            dice = deal if duplicate else deal * seats + rotation
            _seated(numbers, words, flags, players, matchup, rotation)
            key = _mix((key_seed ^ dice_games[dice]) + _ABSORB)
            if not _played_game(
                paths, ruled, dice, left, scores, share, words, known, (numbers, flags, key, full), looked
            ):
                stalled[left] = game
                left += 1
                continue
            won_deal = _counted_game(numbers, words, counts, squares, matchup, rotation)
            if dealt.shape[0]:  # a table of two: the deal's pentanomial outcomes, counted once both games are in
                _counted_deal(counts, dealt, matchup, deal, won_deal)
        return left

    return play_unit
