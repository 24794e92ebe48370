"""Bulk units played by the compiled kernel (`shutbox_cli.game.kernel`, the `fast` extra).

Exact strategies play from their turn tables inside the kernel (their turns of the rounds every
game plays made once per dice game, round and seat, `ahead`), keyed ones from the table of
each turn's key, worked out there; any other context-free strategy's turns are played here (turn
by turn, as the numpy engine plays them) for just the (seat, round, dice game) the kernel asks
for, and handed to it, as the tables of keys it meets for the first time are made here: the games
that waited for them are played again. Counts that could outgrow the kernel's words keep the numpy engine,
and so does a run with too few turns to play in bulk to pay for loading the kernel (unless the
switch asks for it: `kernel.forced`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from shutbox_cli.game import kernel
from shutbox_cli.game.box import score
from shutbox_cli.game.bulk import LARGEST, OUTCOMES, most_in_a_game

from .plan import Plan, WorkUnit
from .tally import Tally, pair_outcomes, share_unit

Masks = npt.NDArray[np.int16]
StrategyTurns = Callable[[int, int, int, npt.NDArray[np.int64]], Masks]
Table = Callable[[int], Masks]
KeyedTable = Callable[[int, tuple[int, ...]], Masks]
SMALL = 4
"""A round asked for fewer than 1/SMALL of a unit's dice games plays just those (as the numpy engine)."""
KEPT_ROUNDS = 16
"""Exact strategies' turns of the first rounds are kept within a unit and shared by every game
that meets them (the numpy engine's sharing); later ones, rarer, are played in each game."""
PAYING_TURNS = 2_000_000
"""The fewest turns of a plan's bulk games (every seat of each round a game lasts) the kernel plays
at all: loading numba and the compiled code takes about 0.4 processor seconds, about what the
kernel saves on about 2 million turns (measured: numpy about 4 million turns a second; the kernel
15 million before its turns were made ahead, several times that since, which moves the break-even
only from 2.2 to about 1.6 million turns: loading numba, not the kernel, sets it)."""
DROP_OUT_ROUNDS = 10
"""About how many points of the drop-out total a round adds (a game to 100 lasts about 10 rounds)."""
_NONE_MISSING = np.iinfo(np.int64).max
_TIES = {"share": kernel.SHARE, "seat": kernel.SEAT, "playoff": kernel.PLAYOFF}


class CompiledUnits:
    """A plan's bulk units played by the kernel, with what every unit shares made once."""

    def __init__(self, plan: Plan, table: Table, strategy_turns: StrategyTurns, keyed_table: KeyedTable) -> None:
        self.plan = plan
        self.rules = rules = plan.config.rules
        self.table = table
        self.strategy_turns = strategy_turns
        self.keyed_table = keyed_table
        self.scores = np.array([score(rules, mask) for mask in range(rules.full_box + 1)], dtype=np.int64)
        top = int(self.scores.max())
        self._most = (top * top, *most_in_a_game(rules))
        drop_out = -1 if rules.drop_out is None else rules.drop_out
        self.ruled = (rules.instant_win, rules.rounds, drop_out, _TIES[rules.ties.value], rules.full_box)
        self.kept = min(KEPT_ROUNDS, rules.rounds) if rules.drop_out is None else KEPT_ROUNDS
        # the rounds every game plays (in drop-out, those no total can reach the limit before)
        self.ahead = self.kept if rules.drop_out is None else min(self.kept, -(-rules.drop_out // top))
        self._seated: dict[tuple[int, ...], Seated] = {}
        self._workspaces: dict[tuple[int, ...], kernel.Workspace] = {}
        self.steps = rules.tiles
        self.pays = bulk_turns(plan) >= PAYING_TURNS

    def fits(self, unit: WorkUnit) -> bool:
        """Whether the kernel's counts hold this unit's: a score squared, and a player's score and
        total sums over its games, in 64 bits; its squared scores (two words) in 128."""
        games = unit.deals * self.plan.table
        square, total, squares = self._most
        return square <= LARGEST and total * games <= LARGEST and squares * games < 2**128

    def plays(self, unit: WorkUnit) -> bool:
        """Whether this unit goes to the kernel: its counts fit, the plan big enough (or the
        kernel asked for), and numba there and allowed."""
        return self.fits(unit) and (self.pays or kernel.forced()) and kernel.available()

    def play(self, unit: WorkUnit) -> dict[int, list[Tally]]:
        """Every game of a bulk unit, counted per matchup and player (`BulkUnit.play`'s tallies)."""
        plan, seats = self.plan, self.plan.table
        players = np.array([plan.matchups[index].players for index in unit.matchups], dtype=np.int64)
        games = kernel.UnitGames(seats, unit.first_deal, unit.deals, players, plan.config.duplicate, plan.deal_seed)
        dice_count = games.dice_games.size
        seated = _strategies(plan, unit)
        strategies = self._seated.get(seated) or self._seated.setdefault(seated, Seated(self, seated))
        shape = (seats, len(seated), unit.deals, len(unit.matchups))
        workspace = self._workspaces.get(shape)
        if workspace is None:
            workspace = self._workspaces[shape] = kernel.Workspace(games, len(seated), self.steps)
        turns = np.full((len(seated), seats, self.kept, dice_count), kernel.UNKNOWN, dtype=np.int16)
        paired = pair_outcomes(seats)
        counts = np.zeros((len(unit.matchups), seats, len(kernel.COUNTED) + 2 * seats + paired), dtype=np.int64)
        dealt = np.zeros((len(unit.matchups), unit.deals) if paired else (0, 0), dtype=np.int64)
        squares = np.zeros((len(unit.matchups), seats, 2), dtype=np.uint64)
        counted = (counts, squares, dealt)
        which, ahead = workspace.every_game, self.ahead
        stalls = _stalls((len(seated), seats, dice_count), which.size if strategies.stalls(seated) else 0)
        while which.size:
            arrays = (strategies.kinds, strategies.slots, strategies.tables, strategies.walks)  # tables grow with keys
            keyed = (strategies.features, strategies.keys)
            left = kernel.play(
                games,
                self.ruled,
                self.scores,
                share_unit(seats),
                arrays,
                turns,
                which,
                counted,
                stalls,
                keyed,
                workspace,
                ahead,
            )
            missing, asked, stalled = stalls
            which, ahead = stalled[:left].copy(), 0
            if which.size:
                strategies.add_keys(asked[: which.size])
                if (missing != _NONE_MISSING).any():
                    turns = self._given(seated, turns, missing, games.dice_games.astype(np.int64))
        return _tallies(unit, counts, squares, seats * unit.deals)

    def _given(
        self, seated: tuple[int, ...], turns: Masks, missing: npt.NDArray[np.int64], dice_games: npt.NDArray[np.int64]
    ) -> Masks:
        """`turns` with those `missing` asks for played (and `missing` cleared): all of a round's
        dice games when many of them are asked for, else just those."""
        asked = missing != _NONE_MISSING
        rounds = int(missing[asked].max()) + 1
        if rounds > turns.shape[2]:
            grown = np.full((*turns.shape[:2], rounds, turns.shape[3]), kernel.UNKNOWN, dtype=np.int16)
            grown[:, :, : turns.shape[2]] = turns
            turns = grown
        for slot, seat in zip(*np.nonzero(asked.any(axis=2)), strict=True):
            for round_ in np.unique(missing[slot, seat][asked[slot, seat]]).tolist():
                dice = np.flatnonzero(missing[slot, seat] == round_)
                if dice.size * SMALL >= dice_games.size:
                    dice = np.arange(dice_games.size)
                turns[slot, seat, round_, dice] = self.strategy_turns(seated[slot], int(seat), round_, dice_games[dice])
        missing[:] = _NONE_MISSING
        return turns


class Seated:
    """The strategies a plan's bulk units seat, as the kernel finds their turns: `kinds`, `slots`
    in `tables` (a table of no move for a strategy without one), keyed ones' `features` by number,
    and the `keys` met so far (sorted rows: hash, strategy, values, then their table's slot)."""

    def __init__(self, units: CompiledUnits, seated: tuple[int, ...]) -> None:
        self.units = units
        strategies, keys = units.plan.config.strategies, units.plan.keys
        self.kinds = np.full(len(strategies), kernel.EXACT, dtype=np.int64)
        self.slots = np.zeros(len(strategies), dtype=np.int64)
        self.features = np.full((len(strategies), kernel.KEY_ROW - 2), -1, dtype=np.int64)
        none = np.full((units.rules.full_box + 1, OUTCOMES), -1, dtype=np.int16)
        tables = []
        for slot, index in enumerate(seated):
            features = keys[index] if keys else None
            self.slots[index] = slot
            if features is not None:
                self.kinds[index] = kernel.KEYED
                self.features[index, : len(features)] = [kernel.KEY_FEATURES.index(name) for name in features]
            elif not strategies[index].exact:
                self.kinds[index] = kernel.GIVEN
            tables.append(units.table(index) if self.kinds[index] == kernel.EXACT else none)
        self.tables = np.ascontiguousarray(np.stack(tables))
        self.walks = np.stack([kernel.walk_table(table) for table in tables])
        self.made = len(tables)
        self.keys = np.empty((0, kernel.KEY_ROW + 1), dtype=np.int64)

    def stalls(self, seated: tuple[int, ...]) -> bool:
        """Whether a game of these strategies may wait for a turn given or a key's table: one of them
        is not exact."""
        return bool((self.kinds[list(seated)] != kernel.EXACT).any())

    def add_keys(self, asked: npt.NDArray[np.int64]) -> None:
        """Make the tables of the keys asked for (rows with -1 first ask for none)."""
        rows = np.unique(asked[asked[:, 0] >= 0], axis=0)
        if not rows.size:
            return
        made = [
            self.units.keyed_table(int(row[1]), tuple(row[2 : 2 + int((self.features[row[1]] >= 0).sum())].tolist()))
            for row in rows
        ]
        needed = self.made + len(made)
        if needed > self.tables.shape[0]:  # room for twice as many: tables are added a few at a time
            grown = np.empty((2 * needed, *self.tables.shape[1:]), dtype=np.int16)
            grown[: self.made] = self.tables[: self.made]
            self.tables = grown
        self.tables[self.made : needed] = made
        slots = np.arange(self.made, needed, dtype=np.int64)[:, None]
        self.made = needed
        keys = np.concatenate([self.keys, np.hstack([rows, slots])])
        self.keys = np.ascontiguousarray(keys[np.argsort(keys[:, 0], kind="stable")])


def _stalls(
    shape: tuple[int, int, int], games: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Where the kernel writes the games it leaves for want of a turn or a key's table (`kernel.play`):
    room for `games` of them (none where every strategy seated is exact)."""
    return (
        np.full(shape if games else (0, 0, 0), _NONE_MISSING, dtype=np.int64),
        np.empty((games, kernel.KEY_ROW), dtype=np.int64),
        np.empty(games, dtype=np.int64),
    )


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
            tally.ahead, tally.tied = row[first : first + seats], row[first + seats : first + 2 * seats]
            tally.pairs = row[first + 2 * seats :]
            tallies.append(tally)
        found[matchup] = tallies
    return found


def _strategies(plan: Plan, unit: WorkUnit) -> tuple[int, ...]:
    """The strategies the unit's matchups seat, in order."""
    return tuple(sorted({player for index in unit.matchups for player in plan.matchups[index].players}))


def bulk_turns(plan: Plan) -> float:
    """About how many turns the plan's bulk games take: each seat of each round a game lasts."""
    rules = plan.config.rules
    rounds = rules.rounds if rules.drop_out is None else max(1.0, rules.drop_out / DROP_OUT_ROUNDS)
    return len(plan.bulk_matchups) * plan.games_per_matchup * plan.table * rounds
