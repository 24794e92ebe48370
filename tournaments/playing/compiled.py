"""A bulk unit played by the compiled kernel (`shutbox_cli.game.kernel`, the `fast` extra).

Exact strategies play from their turn tables inside the kernel; any other context-free strategy's
turns are played here (turn by turn, as the numpy engine plays them) for just the (seat, round,
dice game) the kernel asks for, and handed to it; the games that waited for them are played again.
Keyed strategies, and scores too big to square in 64 bits, keep the numpy engine.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from shutbox_cli.game import kernel
from shutbox_cli.game.box import score
from shutbox_cli.game.bulk import WIDE
from shutbox_cli.game.rules import Rules

from .plan import Plan, WorkUnit
from .tally import Tally, share_unit

Masks = npt.NDArray[np.int16]
StrategyTurns = Callable[[int, int, int, npt.NDArray[np.int64]], Masks]
Table = Callable[[int], Masks]
SMALL = 4
"""A round asked for fewer than 1/SMALL of a unit's dice games plays just those (as the numpy engine)."""
_NONE_MISSING = np.iinfo(np.int64).max
_TIES = {"share": kernel.SHARE, "seat": kernel.SEAT, "playoff": kernel.PLAYOFF}


def plays_compiled(plan: Plan, unit: WorkUnit) -> bool:
    """Whether this unit goes to the kernel: numba there and allowed, no keyed strategy, small scores."""
    rules = plan.config.rules
    keyed = plan.keys and any(plan.keys[index] is not None for index in _strategies(plan, unit))
    return not keyed and int(_scores(rules).max()) ** 2 < WIDE and kernel.available()


def play_compiled(plan: Plan, unit: WorkUnit, table: Table, strategy_turns: StrategyTurns) -> dict[int, list[Tally]]:
    """Every game of a bulk unit, counted per matchup and player (`BulkUnit.play`'s tallies)."""
    rules, seats, config = plan.config.rules, plan.table, plan.config
    players = np.array([plan.matchups[index].players for index in unit.matchups], dtype=np.int64)
    dice_count = unit.deals * (1 if config.duplicate else seats)
    first = unit.first_deal * (1 if config.duplicate else seats)
    dice_games = first + np.arange(dice_count, dtype=np.int64)
    games = kernel.UnitGames(seats, unit.deals, players, config.duplicate, plan.deal_seed, dice_games)
    strategies = _strategies(plan, unit)
    kinds = np.full(len(config.strategies), kernel.EXACT, dtype=np.int64)
    slots = np.zeros(len(config.strategies), dtype=np.int64)
    exact = [index for index in strategies if config.strategies[index].exact]
    other = [index for index in strategies if not config.strategies[index].exact]
    full = rules.full_box
    tables = np.stack([table(index) for index in exact]) if exact else np.full((1, full + 1, 36), -1, np.int16)
    for slot, index in enumerate(exact):
        slots[index] = slot
    for slot, index in enumerate(other):
        kinds[index], slots[index] = kernel.GIVEN, slot
    given = np.full((max(1, len(other)), seats, 0, dice_count), kernel.UNKNOWN, dtype=np.int16)
    missing = np.full((max(1, len(other)), seats, dice_count), _NONE_MISSING, dtype=np.int64)
    drop_out = -1 if rules.drop_out is None else rules.drop_out
    ruled = (rules.instant_win, rules.rounds, drop_out, _TIES[rules.ties.value], full)
    counts = np.zeros((len(unit.matchups), seats, len(kernel.COUNTED) + 2 * seats), dtype=np.int64)
    squares = np.zeros((len(unit.matchups), seats, 2), dtype=np.uint64)
    which = np.arange(games.count, dtype=np.int64)
    scores, share = _scores(rules), share_unit(seats)
    while which.size:
        which = kernel.play(games, ruled, scores, share, kinds, slots, tables, given, which, counts, squares, missing)
        if which.size:
            given = _given(other, given, missing, dice_games, strategy_turns)
    return _tallies(unit, counts, squares, seats * unit.deals)


def _given(
    other: list[int],
    given: npt.NDArray[np.int16],
    missing: npt.NDArray[np.int64],
    dice_games: npt.NDArray[np.int64],
    strategy_turns: StrategyTurns,
) -> npt.NDArray[np.int16]:
    """`given` with the turns `missing` asks for played (and `missing` cleared): all of a round's
    dice games when many of them are asked for, else just those."""
    asked = missing != _NONE_MISSING
    rounds = int(missing[asked].max()) + 1
    if rounds > given.shape[2]:
        grown = np.full(given.shape[:2] + (rounds, given.shape[3]), kernel.UNKNOWN, dtype=np.int16)
        grown[:, :, : given.shape[2]] = given
        given = grown
    for slot, seat in zip(*np.nonzero(asked.any(axis=2)), strict=True):
        for round_ in np.unique(missing[slot, seat][asked[slot, seat]]).tolist():
            dice = np.flatnonzero(missing[slot, seat] == round_)
            if dice.size * SMALL >= dice_games.size:
                dice = np.arange(dice_games.size)
            given[slot, seat, round_, dice] = strategy_turns(other[slot], int(seat), round_, dice_games[dice])
    missing[:] = _NONE_MISSING
    return given


def _tallies(
    unit: WorkUnit, counts: npt.NDArray[np.int64], squares: npt.NDArray[np.uint64], games: int
) -> dict[int, list[Tally]]:
    seats = counts.shape[1]
    first = len(kernel.COUNTED)
    found: dict[int, list[Tally]] = {}
    for position, matchup in enumerate(unit.matchups):
        tallies = []
        for player in range(seats):
            row = counts[position, player].tolist()
            low, high = squares[position, player].tolist()
            tally = Tally(games=games, **dict(zip(kernel.COUNTED, row[:first], strict=True)))
            tally.score_squares = high << 64 | low
            tally.ahead, tally.tied = row[first : first + seats], row[first + seats :]
            tallies.append(tally)
        found[matchup] = tallies
    return found


def _strategies(plan: Plan, unit: WorkUnit) -> list[int]:
    """The strategies the unit's matchups seat, in order."""
    return sorted({player for index in unit.matchups for player in plan.matchups[index].players})


def _scores(rules: Rules) -> npt.NDArray[np.int64]:
    return np.array([score(rules, mask) for mask in range(rules.full_box + 1)], dtype=np.int64)
