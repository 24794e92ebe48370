"""Playing work units: each game of a unit at the table, its strategies loaded once per
process, and the result counted into small tallies."""

from __future__ import annotations

import dataclasses

from shutbox_cli.game import GameRecord, TurnContext, TurnRecord, play_game, play_turn, seat_order, turn_rolls
from strategies.loading import StrategyLoadError
from strategies.player import StrategyError, StrategyPlayer

from .errors import TournamentFailure
from .plan import GameSlot, Matchup, Plan, WorkUnit
from .tally import Tally, count_game, share_unit


@dataclasses.dataclass(frozen=True)
class UnitResult:
    """What a worker sends back for one unit: the unit's matchup, its tallies and game count."""

    matchup: int
    tallies: list[Tally]
    games: int


def matchup_title(plan: Plan, matchup: Matchup) -> str:
    names = plan.config.names
    return " vs ".join(names[index] for index in matchup.players)


def unit_title(plan: Plan, unit: WorkUnit) -> str:
    matchup = plan.matchups[unit.matchup]
    first = unit.first_deal * plan.table
    last = (unit.first_deal + unit.deals) * plan.table - 1
    return f"matchup {matchup_title(plan, matchup)}, games {first} to {last} (dealt from seed {plan.deal_seed})"


def timeout_message(plan: Plan, unit: WorkUnit) -> str:
    """Why the run stopped when a unit ran past the time limit, whichever backend played it."""
    return (
        f"{unit_title(plan, unit)} ran past the limit of {plan.config.timeout:g} seconds per work unit; "
        "a strategy may be stuck (raise the limit with --timeout)."
    )


class UnitPlayer:
    """Plays work units of one plan with the strategies loaded once in this process."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.rules = plan.config.rules
        self.loaded = [entry.load() for entry in plan.config.strategies]
        self.unit = share_unit(plan.table)
        self._kept: dict[int, StrategyPlayer] = {}

    def _player(self, index: int) -> StrategyPlayer:
        """A player for a strategy. A tabulable strategy keeps its player (and its memo) for
        the whole run; any other starts afresh each unit, so no state leaks between units."""
        kept = self._kept.get(index)
        if kept is not None:
            return kept
        loaded = self.loaded[index]
        try:
            player = StrategyPlayer(loaded.make(), self.rules, loaded.name)
        except StrategyLoadError as error:
            raise TournamentFailure(str(error)) from None
        if loaded.cls.tabulable():
            self._kept[index] = player
        return player

    def play(self, unit: WorkUnit) -> UnitResult:
        """Play every game of a unit and count it."""
        matchup = self.plan.matchups[unit.matchup]
        players = [self._player(index) for index in matchup.players]
        tallies = [Tally() for _ in players]
        games = 0
        for slot in self.plan.games(unit):
            count_game(self.play_game(matchup, slot, players), tallies, self.unit)
            games += 1
        return UnitResult(unit.matchup, tallies, games)

    def play_game(self, matchup: Matchup, slot: GameSlot, players: list[StrategyPlayer]) -> GameRecord:
        """One game of a matchup; a strategy's failure says where it happened."""
        rules, seed = self.rules, self.plan.deal_seed

        def play(context: TurnContext) -> TurnRecord:
            player = players[context.player].start_turn(context, seed, slot.dice_game)
            try:
                return play_turn(rules, turn_rolls(seed, slot.dice_game, context.round, context.seat), player)
            except StrategyError as error:
                raise TournamentFailure(self._where(matchup, slot, context) + str(error)) from None

        return play_game(rules, len(players), play, slot.first_seat)

    def _where(self, matchup: Matchup, slot: GameSlot, context: TurnContext) -> str:
        names = self.plan.config.names
        order = seat_order(len(matchup.players), slot.first_seat)
        seated = ", ".join(names[matchup.players[player]] for player in order)
        return (
            f"in matchup {matchup_title(self.plan, matchup)}, game {slot.number} (seat order {seated}), "
            f"round {context.round}, seat {context.seat}, dealt from seed {self.plan.deal_seed} as game "
            f"{slot.dice_game}: "
        )
