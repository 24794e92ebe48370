"""From a configuration to matchups, seatings, deals and fixed-size work units.

A matchup is one combination of strategies for the table size. Its games come in deals
of `table` games: game `r` of a deal seats the players rotated by `r`, so every strategy
sits in every seat equally often. With `duplicate`, the games of a deal share their dice
(every strategy meets the same dice in the same seat); without, each game has its own.
The dice depend only on the tournament's seed and the deal (or game) number, never on
who plays: every matchup is dealt the same games, so strategies are compared on common
dice across the whole field, and renaming one changes nothing it meets.
Work units hold a fixed number of deals, whatever the number of workers, so the plan and
the results do not depend on how the run is spread out.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator

from shutbox_cli.game import derive_seed

from .config import TournamentConfig

UNIT_GAMES = 400
"""About how many games one work unit plays (rounded down to whole deals, at least one)."""


@dataclasses.dataclass(frozen=True)
class Matchup:
    """Strategies at one table: player `p` of every game is `strategies[players[p]]`."""

    index: int
    players: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class WorkUnit:
    """Deals `first_deal` up to (not including) `first_deal + deals` of one matchup."""

    number: int
    matchup: int
    first_deal: int
    deals: int


@dataclasses.dataclass(frozen=True)
class GameSlot:
    """One game of a matchup: its number, its dice stream's game index and who sits first.

    Seat `s` meets the dice `turn_rolls(plan.deal_seed, dice_game, round, s)` in every matchup."""

    number: int
    dice_game: int
    first_seat: int


@dataclasses.dataclass(frozen=True)
class Plan:
    """The whole tournament as matchups and work units; `deal_seed` seeds every game's dice."""

    config: TournamentConfig
    deal_seed: int
    matchups: tuple[Matchup, ...]
    deals: int
    deals_per_unit: int

    @property
    def table(self) -> int:
        return self.config.table

    @property
    def games_per_matchup(self) -> int:
        return self.deals * self.table

    @property
    def total_games(self) -> int:
        return self.games_per_matchup * len(self.matchups)

    @property
    def unit_count(self) -> int:
        per_matchup = -(-self.deals // self.deals_per_unit)
        return per_matchup * len(self.matchups)

    def units(self) -> Iterator[WorkUnit]:
        """The work units in a fixed order: matchup by matchup, deal by deal."""
        number = 0
        for matchup in self.matchups:
            for first in range(0, self.deals, self.deals_per_unit):
                yield WorkUnit(number, matchup.index, first, min(self.deals_per_unit, self.deals - first))
                number += 1

    def games(self, unit: WorkUnit) -> Iterator[GameSlot]:
        """The games of a work unit, in order."""
        table = self.table
        for deal in range(unit.first_deal, unit.first_deal + unit.deals):
            for rotation in range(table):
                number = deal * table + rotation
                yield GameSlot(number, deal if self.config.duplicate else number, rotation)


def make_plan(config: TournamentConfig) -> Plan:
    """Plan a tournament whose seed is known. Games per matchup round up to whole deals."""
    if config.seed is None:
        raise ValueError("a tournament needs its seed before it is planned.")
    matchups = tuple(
        Matchup(index, players)
        for index, players in enumerate(itertools.combinations(range(len(config.strategies)), config.table))
    )
    deals = -(-config.games // config.table)
    return Plan(config, derive_seed("deals", config.seed), matchups, deals, max(1, UNIT_GAMES // config.table))
