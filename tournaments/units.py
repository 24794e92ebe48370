"""Playing work units, their strategies loaded once per process, and the results counted into
small tallies: a bulk unit from the exact strategies' tables (`bulk.py`), any other game by game
at the table, where exact seats play from their tables too and the others turn by turn."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Protocol

import numpy as np
import numpy.typing as npt

from shutbox_cli.game import (
    GameRecord,
    Rules,
    TurnContext,
    TurnRecord,
    play_game,
    play_turn,
    score,
    seat_order,
    turn_rolls,
)
from shutbox_cli.game.bulk import play_turns, turn_table
from shutbox_cli.game.bulk_dice import outcomes, stream_keys
from strategies.loading import StrategyLoadError
from strategies.player import StrategyError, StrategyPlayer

from .bulk import BulkUnit, Masks
from .errors import TournamentFailure
from .plan import GameSlot, Matchup, Plan, WorkUnit
from .replay import replay_command
from .tally import Tally, count_game, share_unit


@dataclasses.dataclass(frozen=True)
class UnitResult:
    """What a worker sends back for one unit: the tallies of each of its matchups (one per
    player) and the number of games it played."""

    tallies: dict[int, list[Tally]]
    games: int


def matchup_title(plan: Plan, matchup: Matchup) -> str:
    names = plan.config.names
    return " vs ".join(names[index] for index in matchup.players)


def unit_title(plan: Plan, unit: WorkUnit) -> str:
    first = unit.first_deal * plan.table
    last = (unit.first_deal + unit.deals) * plan.table - 1
    titles = [matchup_title(plan, plan.matchups[index]) for index in unit.matchups]
    if len(titles) == 1:
        which = f"matchup {titles[0]}"
    elif len(titles) <= 3:
        which = f"matchups {', '.join(titles[:-1])} and {titles[-1]}"
    else:
        which = f"matchups {', '.join(titles[:2])} and {len(titles) - 2} more"
    return f"{which}, games {first} to {last} (dealt from seed {plan.deal_seed})"


def timeout_message(plan: Plan, unit: WorkUnit) -> str:
    """Why the run stopped when a unit ran past the time limit, whichever backend played it."""
    return (
        f"{unit_title(plan, unit)} ran past the limit of {plan.config.timeout:g} seconds per work unit; "
        "a strategy may be stuck (raise the limit with --timeout)."
    )


class _TabulationFailure(TournamentFailure):
    """An exact strategy failed while its table was being built (the unit is not known there)."""


class UnitPlayer:
    """Plays work units of one plan with the strategies loaded once in this process.

    An exact strategy's table is built once and kept for the whole run; any other strategy
    starts afresh each unit, so no state leaks between units.
    """

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.rules = plan.config.rules
        self.loaded = [entry.load() for entry in plan.config.strategies]
        self.unit = share_unit(plan.table)
        self._tables: dict[int, npt.NDArray[np.int16]] = {}
        self._fresh: dict[int, StrategyPlayer] = {}

    def _table(self, index: int) -> npt.NDArray[np.int16] | None:
        """An exact strategy's turn table (None for any other), built on first use from its answers."""
        if not (self.plan.bulk and self.plan.config.strategies[index].exact):
            return None
        table = self._tables.get(index)
        if table is None:
            player = self._new_player(index)
            try:
                table = turn_table(self.rules, player.move_policy, player.dice_policy)
            except StrategyError as error:
                raise _TabulationFailure(str(error)) from None
            self._tables[index] = table
        return table

    def _new_player(self, index: int) -> StrategyPlayer:
        loaded = self.loaded[index]
        try:
            return StrategyPlayer(loaded.make(), self.rules, loaded.name)
        except StrategyLoadError as error:
            raise TournamentFailure(str(error)) from None

    def _player(self, index: int) -> StrategyPlayer:
        """The strategy's player for this unit."""
        player = self._fresh.get(index)
        if player is None:
            player = self._fresh[index] = self._new_player(index)
        return player

    def _seat(self, index: int) -> TurnPlayer:
        """How a strategy plays its turns at a table: an exact one from its table (recorded
        without its rolls: the tallies need only the score), any other asked at each decision."""
        table = self._table(index)
        return _StrategyTurns(self.rules, self._player(index)) if table is None else _TableTurns(self.rules, table)

    def strategy_turns(self, index: int, seat: int, round_: int, games: npt.NDArray[np.int64]) -> Masks:
        """A context-free strategy's turns in a seat and round of these dice games, for a bulk unit."""
        seed = self.plan.deal_seed
        table = self._table(index)
        if table is not None:
            keys = stream_keys(seed, games, round_, seat)
            return play_turns(table, self.rules.full_box, keys.size, lambda k, live: outcomes(keys[live], k))
        player, ended = self._player(index), np.empty(games.size, dtype=np.int16)
        context = TurnContext(0, seat, round_, False, (None,), (0,), (True,))  # never read: context-free
        for position, game in enumerate(games.tolist()):
            try:
                turn = play_turn(
                    self.rules, turn_rolls(seed, game, round_, seat), player.start_turn(context, seed, game)
                )
            except StrategyError as error:
                where = f"round {round_}, seat {seat}, dealt from seed {seed} as game {game}: "
                raise _TabulationFailure(where + str(error)) from None
            ended[position] = turn.open_mask
        return ended

    def play(self, unit: WorkUnit) -> UnitResult:
        """Play every game of a unit and count it."""
        self._fresh.clear()
        try:
            return self._play(unit)
        except _TabulationFailure as error:
            raise TournamentFailure(f"in {unit_title(self.plan, unit)}: {error}") from None

    def _play(self, unit: WorkUnit) -> UnitResult:
        if unit.bulk:
            counted = BulkUnit(self.plan, unit, self.strategy_turns).play()
            return UnitResult(counted, unit.deals * self.plan.table * len(unit.matchups))
        (index,) = unit.matchups
        matchup = self.plan.matchups[index]
        seats = [self._seat(player) for player in matchup.players]
        tallies = [Tally() for _ in seats]
        games = 0
        for slot in self.plan.games(unit):
            count_game(self.play_game(matchup, slot, seats), tallies, self.unit)
            games += 1
        return UnitResult({index: tallies}, games)

    def play_game(self, matchup: Matchup, slot: GameSlot, seats: list[TurnPlayer]) -> GameRecord:
        """One game of a matchup; a strategy's failure says where it happened."""
        seed = self.plan.deal_seed

        def play(context: TurnContext) -> TurnRecord:
            rolls = turn_rolls(seed, slot.dice_game, context.round, context.seat)
            try:
                return seats[context.player].play(context, seed, slot.dice_game, rolls)
            except StrategyError as error:
                raise TournamentFailure(self._where(matchup, slot, context) + str(error)) from None

        return play_game(self.rules, len(seats), play, slot.first_seat)

    def _where(self, matchup: Matchup, slot: GameSlot, context: TurnContext) -> str:
        names = self.plan.config.names
        order = seat_order(len(matchup.players), slot.first_seat)
        seated = ", ".join(names[matchup.players[player]] for player in order)
        watch = replay_command(self.plan.config, matchup, slot)
        return (
            f"in matchup {matchup_title(self.plan, matchup)}, game {slot.number} (seat order {seated}), "
            f"round {context.round}, seat {context.seat}, dealt from seed {self.plan.deal_seed} as game "
            f"{slot.dice_game} (watch it with `{watch}`): "
        )


class TurnPlayer(Protocol):
    """Plays one seat's turn of a game on the dice it is dealt."""

    def play(self, context: TurnContext, seed: int, game: int, rolls: Iterator[tuple[int, int]]) -> TurnRecord: ...


@dataclasses.dataclass(frozen=True)
class _StrategyTurns:
    """A strategy asked at each decision, through the general engine."""

    rules: Rules
    player: StrategyPlayer

    def play(self, context: TurnContext, seed: int, game: int, rolls: Iterator[tuple[int, int]]) -> TurnRecord:
        return play_turn(self.rules, rolls, self.player.start_turn(context, seed, game))


class _TableTurns:
    """An exact strategy played from its table, one roll a lookup."""

    def __init__(self, rules: Rules, table: npt.NDArray[np.int16]) -> None:
        self.rules = rules
        self.rows: list[list[int]] = table.tolist()
        self.full = rules.full_box

    def play(self, context: TurnContext, seed: int, game: int, rolls: Iterator[tuple[int, int]]) -> TurnRecord:
        rows, mask = self.rows, self.full
        for first, second in rolls:
            after = rows[mask][6 * first + second - 7]
            if after <= 0:
                mask = 0 if after == 0 else mask
                break
            mask = after
        return TurnRecord((), mask, score(self.rules, mask))
