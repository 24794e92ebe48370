"""From a configuration to matchups, seatings, deals and fixed-size work units.

A matchup is one combination of strategies for the table size (in a gauntlet, only those that
seat one of its players: the first strategies of the field). Its games come in deals
of `table` games: game `r` of a deal seats the players rotated by `r`, so every strategy
sits in every seat equally often. With `duplicate`, the games of a deal share their dice
(every strategy meets the same dice in the same seat); without, each game has its own.
The dice depend only on the tournament's seed and the deal (or game) number, never on
who plays: every matchup is dealt the same games, so strategies are compared on common
dice across the whole field, and renaming one changes nothing it meets.
Work units hold a fixed number of deals, whatever the number of workers, so the plan and
the results do not depend on how the run is spread out. A matchup of context-free strategies
only (none reads the game context) is played in bulk: a strategy's turn in a (deal, round,
seat) is then the same whoever else sits at the table, so bulk units cover every such matchup
and play each turn once for all of them (an exact strategy's from its table, in lockstep with
numpy). A keyed built-in strategy (one that reads only its key's features of the context) plays
in bulk too, from one table per key, its turns worked out in every game apart.
A matchup with a context-reading strategy plays game by game, in small units of its own.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Iterator

from shutbox_cli.game import Rules, derive_seed
from shutbox_cli.game.terms import GameNumber, Seed
from strategies.keys import declared_key

from ..field.config import TournamentConfig
from ..field.entries import StrategyEntry
from ..referee.confinement import strict_confinement

UNIT_GAMES = 2000
"""About how many games one work unit of a matchup played turn by turn holds (rounded down to
whole deals, at least one): its games advance side by side, a step of all their turns asked of a
user's strategy at once, so a bigger unit pays each step's fixed cost over more games (2,000
against 400: the play of a user's context-reading strategy 1.6 times as fast)."""
BULK_UNIT_GAMES = 1 << 14
"""About how many games one bulk unit holds, over all the matchups it covers."""


@dataclasses.dataclass(frozen=True)
class Matchup:
    """Strategies at one table: player `p` of every game is `strategies[players[p]]`; `bulk`
    when every one of them is context-free."""

    index: int
    players: tuple[int, ...]
    bulk: bool = False


@dataclasses.dataclass(frozen=True)
class WorkUnit:
    """Deals `first_deal` up to (not including) `first_deal + deals` of some matchups: one
    played game by game, or every bulk matchup at once (`bulk`)."""

    number: int
    matchups: tuple[int, ...]
    first_deal: int
    deals: int
    bulk: bool = False


@dataclasses.dataclass(frozen=True)
class GameSlot:
    """One game of a matchup: its number, its dice stream's game index and who sits first.

    Seat `s` meets the dice `turn_rolls(plan.deal_seed, dice_game, round, s)` in every matchup."""

    number: int
    dice_game: GameNumber
    first_seat: int


@dataclasses.dataclass(frozen=True)
class Plan:
    """The whole tournament as matchups and work units; `deal_seed` seeds every game's dice."""

    config: TournamentConfig
    deal_seed: Seed
    matchups: tuple[Matchup, ...]
    deals: int
    deals_per_unit: int
    deals_per_bulk_unit: int
    bulk: bool = True
    """Whether context-free strategies play in bulk (False: every game turn by turn, the reference)."""
    done: frozenset[int] = frozenset()
    """Numbers of the units already played (by the run a checkpoint resumes): `units()` skips them."""
    keys: tuple[tuple[str, ...] | None, ...] = ()
    """By strategy, the features a keyed strategy plays in bulk by (None: it is not keyed)."""
    look_deals: int = 0
    """A match's SPRT looks after every this many deals of a unit (0: after whole units only): its
    units then count their games block by block (`blocks`)."""
    withheld: frozenset[tuple[int, int]] = frozenset()
    """(unit, matchup) pairs a unit plays without: a strategy's forfeited or disqualified games
    (`running.forfeits`); `units()` leaves a unit out once it has no matchup left."""
    strict: bool = False
    """Whether every host must be confined in full wherever it starts (`SHUTBOX_CONFINEMENT=strict`
    where the run was planned: a Dask worker's own environment may not say it)."""

    @property
    def table(self) -> int:
        return self.config.table

    @property
    def games_per_matchup(self) -> int:
        return self.deals * self.table

    @property
    def total_games(self) -> int:
        return self.games_per_matchup * len(self.matchups)

    @functools.cached_property
    def bulk_matchups(self) -> tuple[int, ...]:
        """The matchups played in bulk."""
        return tuple(matchup.index for matchup in self.matchups if matchup.bulk)

    @functools.cached_property
    def turn_matchups(self) -> tuple[int, ...]:
        """The matchups played turn by turn, each in units of its own."""
        return tuple(matchup.index for matchup in self.matchups if not matchup.bulk)

    @property
    def all_unit_count(self) -> int:
        """The plan's units, played or not, counted in closed form (`_all_units` lists them)."""
        per_matchup = -(-self.deals // self.deals_per_unit)
        bulk = -(-self.deals // self.deals_per_bulk_unit) if self.bulk_matchups else 0
        return bulk + per_matchup * len(self.turn_matchups)

    @property
    def unit_count(self) -> int:
        """The units still to play (`done` holds numbers of the plan's units only)."""
        if self.withheld:
            return sum(1 for _ in self.units())
        return self.all_unit_count - len(self.done)

    def unit(self, number: int) -> WorkUnit:
        """The plan's unit of this number, found in closed form (as `_all_units` lists it)."""
        bulk = self.bulk_matchups
        bulk_units = -(-self.deals // self.deals_per_bulk_unit) if bulk else 0
        if not 0 <= number < self.all_unit_count:
            raise IndexError(f"the plan has no unit {number}.")
        if number < bulk_units:
            first = number * self.deals_per_bulk_unit
            return WorkUnit(number, bulk, first, min(self.deals_per_bulk_unit, self.deals - first), bulk=True)
        per_matchup = -(-self.deals // self.deals_per_unit)
        nth, part = divmod(number - bulk_units, per_matchup)
        first = part * self.deals_per_unit
        return WorkUnit(number, (self.turn_matchups[nth],), first, min(self.deals_per_unit, self.deals - first))

    def units(self) -> Iterator[WorkUnit]:
        """The work units not yet played (not in `done`), in a fixed order: the bulk units deal by
        deal, then the other matchups one by one, deal by deal. A unit's number does not depend on
        which are done, nor on the matchups `withheld`."""
        units = (unit for unit in self._all_units() if unit.number not in self.done)
        if not self.withheld:
            return units
        return (kept for unit in units if (kept := self.kept(unit)).matchups)

    def kept(self, unit: WorkUnit) -> WorkUnit:
        """A unit without its withheld matchups."""
        kept = tuple(index for index in unit.matchups if (unit.number, index) not in self.withheld)
        return unit if len(kept) == len(unit.matchups) else dataclasses.replace(unit, matchups=kept)

    def _all_units(self) -> Iterator[WorkUnit]:
        number = 0
        bulk = self.bulk_matchups
        if bulk:
            for first in range(0, self.deals, self.deals_per_bulk_unit):
                yield WorkUnit(number, bulk, first, min(self.deals_per_bulk_unit, self.deals - first), bulk=True)
                number += 1
        for matchup in self.matchups:
            if matchup.bulk:
                continue
            for first in range(0, self.deals, self.deals_per_unit):
                yield WorkUnit(number, (matchup.index,), first, min(self.deals_per_unit, self.deals - first))
                number += 1

    def blocks(self, unit: WorkUnit) -> tuple[WorkUnit, ...]:
        """A unit's blocks, `look_deals` deals each (the last maybe fewer), in order: the unit itself
        where the plan does not look within units, or the unit is no longer than a block."""
        size = self.look_deals
        if not size or unit.deals <= size:
            return (unit,)
        return tuple(
            dataclasses.replace(unit, first_deal=first, deals=min(size, unit.first_deal + unit.deals - first))
            for first in range(unit.first_deal, unit.first_deal + unit.deals, size)
        )

    def games(self, unit: WorkUnit) -> Iterator[GameSlot]:
        """The games of one matchup of a work unit, in order."""
        table = self.table
        for deal in range(unit.first_deal, unit.first_deal + unit.deals):
            for rotation in range(table):
                number = deal * table + rotation
                yield GameSlot(number, deal if self.config.duplicate else number, rotation)


def make_plan(
    config: TournamentConfig, bulk: bool = True, bulk_unit_games: int = BULK_UNIT_GAMES, look_games: int = 0
) -> Plan:
    """Plan a tournament whose seed is known. Games per matchup round up to whole deals.
    `bulk=False` plays every matchup turn by turn: the reference the bulk engine is held to.
    `bulk_unit_games`: about how many games a bulk unit holds (smaller for a match that may stop);
    `look_games`: about how many games of a unit its blocks hold (a match's SPRT looks after each; 0: none)."""
    if config.seed is None:
        raise ValueError("a tournament needs its seed before it is planned.")
    keys = tuple(_key(entry, config.rules) if bulk else None for entry in config.strategies)
    free = [
        bulk and (entry.context_free or key is not None) for entry, key in zip(config.strategies, keys, strict=True)
    ]
    met: Iterator[tuple[int, ...]] = itertools.combinations(range(len(config.strategies)), config.table)
    if config.gauntlet:  # the field does not meet itself: every matchup seats a player
        met = (players for players in met if players[0] < config.gauntlet)
    matchups = tuple(
        Matchup(index, players, all(free[player] for player in players)) for index, players in enumerate(met)
    )
    deals = -(-config.games // config.table)
    per_bulk_deal = config.table * max(1, sum(matchup.bulk for matchup in matchups))
    look = max(1, look_games // config.table) if look_games else 0
    return Plan(
        config,
        derive_seed("deals", config.seed),
        matchups,
        deals,
        _whole_blocks(max(1, UNIT_GAMES // config.table), look),
        _whole_blocks(max(1, bulk_unit_games // per_bulk_deal), look),
        bulk,
        keys=keys,
        look_deals=look,
        strict=strict_confinement(),
    )


def _whole_blocks(deals: int, look: int) -> int:
    """A unit's deals, rounded down to whole blocks of `look` deals (at least one) where the plan looks
    within units: every block then holds `look` deals, the last of a budget maybe fewer."""
    return max(look, deals - deals % look) if look else deals


def _key(entry: StrategyEntry, rules: Rules) -> tuple[str, ...] | None:
    """The key a strategy plays by in bulk under these rules (None: none); a user's its host said."""
    if entry.context_free or not entry.builtin:
        return entry.key
    return declared_key(entry.load().cls, rules, entry.name)
