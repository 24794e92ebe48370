"""A bulk unit's games compiled (numba, the `fast` extra): the turns, the rules and the tallies
in one pass over the games, bit for bit what the numpy engine (`bulk`) counts.

Each game is played on its own, seat by seat, from the same turn tables and the same
`splitmix64-v1` dice; its counts go straight into its matchup's tallies. An exact strategy walks
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
GAME_ROWS = 10
"""A game's counts by seat in the kernel's working array (win shares to the strategy seated)."""
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


def _ahead_arrays(games: UnitGames, slots: int, steps: int) -> tuple[npt.NDArray[Any], ...]:
    """The working arrays of the turns made ahead (`_kernel_source._deal_turns`), empty for none."""
    count = games.dice_games.shape[0] if steps else 0
    return (
        np.empty((games.seats, games.seats, slots), dtype=np.bool_),
        np.empty(count, dtype=np.uint64),
        np.empty(count, dtype=np.uint64),
        np.empty((games.seats, steps, count), dtype=np.uint8),
        np.empty(count, dtype=np.int32),
    )


def play(
    games: UnitGames,
    rules: tuple[bool, int, int, int, int],
    scores: npt.NDArray[np.int64],
    share: int,
    strategies: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int16], npt.NDArray[np.int32]],
    turns: npt.NDArray[np.int16],
    which: npt.NDArray[np.int64],
    counted: tuple[npt.NDArray[np.int64], npt.NDArray[np.uint64], npt.NDArray[np.int64]],
    missing: npt.NDArray[np.int64],
    keyed: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]],
    asked: npt.NDArray[np.int64],
    ahead: int = 0,
) -> npt.NDArray[np.int64]:
    """Play `which` games of the unit (numbered matchup by matchup, rotation by rotation, deal by
    deal), adding each finished game to the `counted` tallies: `counts` [matchup, player, count],
    `squares` [matchup, player, low word / high word] and `dealt` (below); return the games left
    unplayed for want of a given turn, whose lowest missing round is written in `missing` [slot,
    seat, dice game] (else left as it was).

    `rules` is (instant win, rounds, drop-out limit or -1, tie rule, full box); `strategies` is
    (kinds, slots, tables): strategy i is EXACT or GIVEN (`kinds[i]`), at `slots[i]` of `tables`
    [slot, mask, outcome] and of `turns` [slot, seat, round, dice game], which holds the turns
    given and keeps exact ones once played (UNKNOWN where neither; rounds past its end uncached).
    A KEYED strategy's turn plays from the table of its key: `keyed` is (its features by number,
    -1 past them [strategy, 8]; the keys whose tables are made [key, KEY_ROW + 1], sorted). A game
    stalled for a key not there writes it in its row of `asked` (else -1 first).

    At a table of two, `dealt` [matchup, deal] holds what a deal's games finished so far won, each
    player's win shares added up: once both are in, each player's outcome is counted in its
    pentanomial, in `counts` after `tied`. Elsewhere `dealt` is empty and no pairs are counted.
    """
    instant, rounds, drop_out, ties, full = rules
    kinds, slots, tables, walks = strategies
    key_features, keys = keyed
    counts, squares, dealt = counted
    paths = (bool((kinds == KEYED).any()), drop_out >= 0, ties == PLAYOFF)
    seats, stalled = games.seats, np.empty(which.shape[0], dtype=np.int64)
    left = compiled(*paths)(
        games.players,
        seats,
        games.deals,
        games.duplicate,
        games.seed,
        games.dice_games,
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
        np.ascontiguousarray(which, dtype=np.int64),
        counts,
        squares,
        missing,
        key_features,
        keys,
        asked,
        dealt,
        stalled,
        np.empty((GAME_ROWS, seats), dtype=np.int64),
        np.empty((2, seats), dtype=np.bool_),
        np.empty((seats, 2), dtype=np.uint64),
        np.empty(KEY_ROW, dtype=np.int64),
        np.empty((4, seats), dtype=np.int64),
        ahead,
        walks,
        _ahead_arrays(games, turns.shape[0], rules[4].bit_length() if ahead else 0),
        np.empty(games.players.shape[0], dtype=np.bool_),
    )
    return stalled[:left]
