"""A bulk unit's games compiled (numba, the `fast` extra): the turns, the rules and the tallies
in one pass over the games, bit for bit what the numpy engine (`bulk`) counts.

First the exact strategies' turns of the rounds every game plays are made once per (dice game,
round, seat), in lockstep, and the two-seat matchups of exact strategies under plain rules are
played whole from them (`_kernel_ahead`); every other game is then played on its own, seat by
seat, from the same turn tables and the same `splitmix64-v1` dice, its counts going straight
into its matchup's tallies (`_kernel_source`). An exact strategy walks
its table; a keyed one the table of the turn's key, worked out from where the game stands; any
other context-free strategy plays from the turns it is `given` by (seat, round, dice game). A game
that needs a turn not given yet, or the table of a key not made yet, is left unplayed and
returned, with what it waits for: the caller plays those turns or makes those tables and calls
again for just those games (the counts add up exactly, in any order). `available()` says
whether the kernel can run: numba installed and `SHUTBOX_KERNEL` not `numpy` (the switch that
forces the reference engine); `numba` there asks for the kernel however little a run has to play
(`forced()`; else a run too small to pay for loading it keeps the numpy engine:
`tournaments.playing.compiled`). Nothing here imports numba until a unit is played, and the
compiled code is cached on disk between runs (numba's cache: `NUMBA_CACHE_DIR` if set, else beside
the installed package when that folder is writable, else the user's cache folder).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

SWITCH = "SHUTBOX_KERNEL"
"""The environment variable that chooses the bulk engine: `numpy` forces the reference engine,
`numba` the kernel (where it is available) whatever the run's size."""
REFERENCE, COMPILED = "numpy", "numba"

EXACT, GIVEN, KEYED = 0, 1, 2
"""How a strategy's turns are found: walked through its table, looked up among those given, or
walked through the table of the turn's key."""
KEY_FEATURES = ("seat", "round", "playoff", "total", "to_beat", "to_beat_count", "to_come", "leader_total")
"""The features a key may name (`strategies.keys.FEATURES`), numbered for the kernel."""
KEY_ROW = 10
"""A key in `asked` and `keys`: its hash, the strategy, then up to 8 feature values (0 past its
features); a row of `keys` adds the slot of its table."""
GAME_ROWS = 8
"""A game's counts by seat in the kernel's working array (win shares to the strategy seated)."""
SEATING_ROWS = 4
"""Who sits in a seat of the matchup and rotation played: its player, strategy, kind and slot."""
UNKNOWN = -2
"""A given turn not played yet."""

COUNTED = ("win_shares", "turns", "score_sum", "shut_boxes", "played", "total_sum")
"""A player's counts in `counts`, in order, before `ahead` and `tied` by player and, at a table of
two, its pentanomial (score squares are counted apart, in two 64-bit words)."""
SHARE, SEAT, PLAYOFF = range(3)
"""The tie rules, numbered for the kernel."""


def available() -> bool:
    """Whether bulk units play compiled: numba importable and the switch not set to `numpy`."""
    if _switch() == REFERENCE:
        return False
    return _numba_found()


def forced() -> bool:
    """Whether the switch asks for the kernel whatever the run's size."""
    return _switch() == COMPILED


def _switch() -> str:
    return os.environ.get(SWITCH, "").strip().lower()


@functools.cache
def _numba_found() -> bool:
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


@functools.cache
def compiled(keyed: bool, drop_outs: bool, playoffs: bool) -> Callable[..., Any]:
    """The compiled unit player for the rule paths in force: keyed turns, drop-outs, playoffs
    (numba loaded, and just that variant compiled or read from the cache)."""
    from ._kernel_source import unit_player

    return unit_player(keyed, drop_outs, playoffs)  # type: ignore[no-untyped-call,no-any-return]


@functools.cache
def played_ahead() -> Callable[..., Any]:
    """The compiled code that plays ahead of a unit's games (`_kernel_ahead.play_ahead`: numba
    loaded, and that code compiled or read from the cache)."""
    from ._kernel_ahead import play_ahead

    return play_ahead


class UnitGames:
    """A bulk unit as the kernel plays it: who sits where, where each game's dice come from, and
    how each strategy's turns are found (arrays, so the compiled code reads them directly).

    Its dice games (`dice_games`) come rotation by rotation, deal by deal within one (a duplicate
    unit's deals once: every rotation plays the same dice), so a strategy's turns in one rotation
    lie side by side, in the kernel's arrays as in its loops."""

    def __init__(
        self,
        seats: int,
        first_deal: int,
        deals: int,
        players: npt.NDArray[np.int64],
        duplicate: bool,
        seed: int,
    ) -> None:
        self.seats, self.deals = seats, deals
        self.players = np.ascontiguousarray(players, dtype=np.int64)
        self.duplicate = duplicate
        self.seed = np.uint64(seed & ((1 << 64) - 1))
        dealt = first_deal + np.arange(deals, dtype=np.int64)
        if not duplicate:  # deal d's game of rotation r is dice game d * seats + r
            dealt = (dealt[None, :] * seats + np.arange(seats, dtype=np.int64)[:, None]).ravel()
        self.dice_games = np.ascontiguousarray(dealt, dtype=np.uint64)
        self.count = self.players.shape[0] * seats * deals


def walk_table(table: npt.NDArray[np.int16]) -> npt.NDArray[np.int32]:
    """An exact strategy's turn table [mask, outcome] as the kernel walks it, flattened: the masks'
    rows, then a row for each way a turn ends, which every roll leaves as it is (a shut box: the
    first, ended with the mask m open: the first plus m), so a walk needs no branch to stop."""
    masks = table.shape[0]
    ends = masks + np.arange(masks, dtype=np.int32)[:, None]
    walked = np.where(table > 0, table, np.where(table == 0, masks, ends)).astype(np.int32)
    return np.concatenate([walked, np.repeat(ends, table.shape[1], axis=1)]).ravel()


class Workspace:
    """The kernel's working arrays for units of one shape (seats, strategies seated, dice games,
    matchups), made once and used unit after unit (a unit makes none: arrays made in the compiled
    code would compile numpy's allocation too, and large ones made anew cost page faults).

    `game` is a game's: `numbers` [row, seat] its counts, `flags` [2, seat] playing this round and
    among those to settle, `words` [seat, 2] its squares, low and high word, `key_row` a turn's key,
    `seating` [row, seat] who sits where in the matchup and rotation played, `paired` [matchup] the
    matchups played from their turns made ahead. `ahead` is the turns made ahead's
    (`_kernel_source._deal_turns`): `seated` [rotation, seat, slot], `dealt` and `counters` [dice
    game] (words), `rolls` [seat, step, dice game], `walking` [dice game] (the walks' states)."""

    def __init__(self, games: UnitGames, slots: int, steps: int) -> None:
        seats, dice, matchups = games.seats, games.dice_games.shape[0], games.players.shape[0]
        self.game = (
            np.empty((GAME_ROWS, seats), dtype=np.int64),
            np.empty((2, seats), dtype=np.bool_),
            np.empty((seats, 2), dtype=np.uint64),
            np.empty(KEY_ROW, dtype=np.int64),
            np.empty((SEATING_ROWS, seats), dtype=np.int64),
            np.empty(matchups, dtype=np.bool_),
        )
        self.ahead = (
            np.empty((seats, seats, slots), dtype=np.bool_),
            np.empty(dice, dtype=np.uint64),
            np.empty(dice, dtype=np.uint64),
            np.empty((seats, steps, dice), dtype=np.uint8),
            np.empty(dice, dtype=np.int32),
        )
        self.every_game = np.arange(games.count, dtype=np.int64)


def play(
    games: UnitGames,
    rules: tuple[bool, int, int, int, int],
    scores: npt.NDArray[np.int64],
    share: int,
    strategies: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int16], npt.NDArray[np.int32]],
    turns: npt.NDArray[np.int16],
    which: npt.NDArray[np.int64],
    counted: tuple[npt.NDArray[np.int64], npt.NDArray[np.uint64], npt.NDArray[np.int64]],
    stalls: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]],
    keyed: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]],
    workspace: Workspace,
    ahead: int = 0,
) -> int:
    """Play `which` games of the unit (numbered matchup by matchup, rotation by rotation, deal by
    deal), adding each finished game to the `counted` tallies: `counts` [matchup, player, count],
    `squares` [matchup, player, low word / high word] and `dealt` (below). The games left unplayed
    for want of a given turn or a key's table are written in `stalls` (`missing`, `asked`,
    `stalled`, below), and how many returned.

    `rules` is (instant win, rounds, drop-out limit or -1, tie rule, full box); `strategies` is
    (kinds, slots, tables, walks): strategy i is EXACT or GIVEN (`kinds[i]`), at `slots[i]` of
    `tables` [slot, mask, outcome] (`walks`: an exact one's as `walk_table` lays it out) and of
    `turns` [slot, seat, round, dice game], which holds the turns given and keeps exact ones once
    played (UNKNOWN where neither; rounds past its end uncached). The exact strategies' turns of
    the first `ahead` rounds are made first, in every dice game (the rounds every game plays; 0 on
    a unit's later calls). A GIVEN turn not there stalls its game: its lowest missing round is
    written in `missing` [slot, seat, dice game] (else left as it was). A KEYED strategy's turn
    plays from the table of its key: `keyed` is (its features by number, -1 past them [strategy,
    8]; the keys whose tables are made [key, KEY_ROW + 1], sorted). A game stalled for a key not
    there writes it in its row of `asked` (else -1 first). A unit whose strategies are all exact
    never stalls: its `stalls` may be empty.

    At a table of two, `dealt` [matchup, deal] holds what a deal's games finished so far won, each
    player's win shares added up: once both are in, each player's outcome is counted in its
    pentanomial, in `counts` after `tied`. Elsewhere `dealt` is empty and no pairs are counted.
    """
    instant, rounds, drop_out, ties, full = rules
    paths = (bool((strategies[0] == KEYED).any()), drop_out >= 0, ties == PLAYOFF)
    unit = (games.players, games.seats, games.deals, games.duplicate, games.seed, games.dice_games)
    ruled = (instant, rounds, drop_out, ties, full, share)
    paired = workspace.game[-1]
    if ahead:
        pairs = games.seats == 2 and ahead == rounds and not any(paths)
        played_ahead()(unit, ruled, scores, strategies, turns, counted, ahead, pairs, paired, workspace.ahead)
        if paired.all():  # every game played
            return 0
    played = compiled(*paths)(unit, ruled, scores, strategies, turns, which, counted, stalls, keyed, workspace.game)
    return int(played)
