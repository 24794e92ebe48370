"""Playing work units, their strategies loaded once per process (a user's in a host process of its
own, never here), and the results counted into small tallies. Two ways play a unit: the array
engine (`bulk.py`, which alone needs numpy: a process that only hands out units never loads it)
every unit of a plan in bulk, the reference (`reference.py`, turn by turn) every unit of the
general engine's plan (`--general-engine`), and it is what the tests hold the array engine to."""

from __future__ import annotations

import dataclasses
import time
from array import array
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from shutbox_cli.game import GameRecord, TurnContext, seat_order
from strategies.loading import LoadedStrategy, StrategyLoadError
from strategies.player import StrategyError, StrategyPlayer
from strategies.table import PolicyTable

from ..errors import TournamentFailure, mark, marked, setting, spelled
from ..field.entries import StrategyEntry
from ..folders import cache_folder
from ..referee import idle
from ..referee.confine import host_memory_limit
from ..referee.seccomp import undumpable
from .fingerprints import note_table
from .plan import GameSlot, Matchup, Plan, WorkUnit
from .reference import play_turn_by_turn
from .replay import replay_command, replay_line
from .seats import AskedTurns, GameFailure, Player, Seat, TabulationFailure
from .tables import keep_table, read_table, source_digest, table_key
from .tally import Tally, count_game, count_length, share_unit

if TYPE_CHECKING:
    from ..referee.isolation import Host
    from .bulk import AskedKind, BulkPlayer


@dataclasses.dataclass(frozen=True)
class UnitResult:
    """What a worker sends back for one unit: the tallies of each of its matchups (one per
    player), the number of games it played and the unit's number (a checkpoint keeps it); where
    the plan looks within units (`Plan.look_deals`), also the results of its blocks in order."""

    tallies: dict[int, list[Tally]]
    games: int
    unit: int
    blocks: tuple[UnitResult, ...] = ()

    def __reduce__(self) -> tuple[Callable[..., UnitResult], tuple[object, ...]]:
        """Pickled as one array of whole numbers, which even a pure-Python pickler sends at once (as
        a list of Python ints when a count outgrows 64 bits: squared digit scores can)."""
        matchups = tuple(self.tallies)
        players = tuple(len(self.tallies[index]) for index in matchups)
        numbers = [
            count
            for index in matchups
            for tally in self.tallies[index]
            for count in tally.counts(len(self.tallies[index]))
        ]
        try:
            packed: bytes | list[int] = array("q", numbers).tobytes()
        except OverflowError:
            packed = numbers
        return _unpacked, (matchups, players, packed, self.games, self.unit, self.blocks)


@dataclasses.dataclass(frozen=True)
class Forfeit:
    """A user's strategy's failure in a unit that the run went on after (`running.forfeits`): the
    strategy (its name, spec and place in the field), the work unit it failed in, the matchups of
    that unit it forfeited and their games, the failure (its first line, `marked` with its settings'
    placeholders as a `TournamentError` is) and whether it was disqualified there."""

    strategy: str
    spec: str
    index: int
    unit: int
    matchups: tuple[int, ...]
    titles: tuple[str, ...]
    """The matchups' titles, their players' names in order (`a vs b`)."""
    games: int
    marked: str
    disqualified: bool = False

    @property
    def why(self) -> str:
        """The failure in one sentence, as a report says it: its settings named as the library
        names them, the game to watch by its `shutbox replay` command line (`replay_line`)."""
        return spelled(self.marked, str, replay_line)


def _unpacked(
    matchups: tuple[int, ...],
    players: tuple[int, ...],
    packed: bytes | list[int],
    games: int,
    unit: int,
    blocks: tuple[UnitResult, ...] = (),
) -> UnitResult:
    """A `UnitResult` from its pickled form."""
    counts, at, tallies = array("q", packed) if isinstance(packed, bytes) else packed, 0, {}
    for index, seated in zip(matchups, players, strict=True):
        length = count_length(seated)
        tallies[index] = [
            Tally.of_counts(counts[at + length * player : at + length * (player + 1)], seated)
            for player in range(seated)
        ]
        at += length * seated
    return UnitResult(tallies, games, unit, blocks)


def joined(blocks: tuple[UnitResult, ...], unit: int) -> UnitResult:
    """One unit's result from those of its blocks, which it keeps."""
    if len(blocks) == 1:
        return blocks[0]
    tallies: dict[int, list[Tally]] = {}
    for block in blocks:
        for matchup, counted in block.tallies.items():
            summed = tallies.setdefault(matchup, [Tally() for _ in counted])
            for tally, more in zip(summed, counted, strict=True):
                tally.add(more)
    return UnitResult(tallies, sum(block.games for block in blocks), unit, blocks)


def matchup_title(plan: Plan, matchup: Matchup) -> str:
    names = plan.config.names
    return " vs ".join(names[index] for index in matchup.players)


def unit_title(plan: Plan, unit: WorkUnit) -> str:
    """Which games a unit holds, in words, marked unseen with its number (`errors.mark`): every
    failure that names its unit so says which it was, whichever process met it."""
    first = unit.first_deal * plan.table
    last = (unit.first_deal + unit.deals) * plan.table - 1
    titles = [matchup_title(plan, plan.matchups[index]) for index in unit.matchups]
    if len(titles) == 1:
        which = f"matchup {titles[0]}"
    elif len(titles) <= 3:
        which = f"matchups {', '.join(titles[:-1])} and {titles[-1]}"
    else:
        which = f"matchups {', '.join(titles[:2])} and {len(titles) - 2} more"
    return f"{mark('unit', unit.number)}{which}, games {first} to {last} (dealt from seed {plan.deal_seed})"


def timed(plan: Plan, unit: WorkUnit, loading: bool = False) -> bool:
    """Whether the time limit applies to a unit: it seats a user's strategy, which may be stuck,
    or (`loading`) it waits for every strategy of the plan to load, a user's among them. A
    built-in strategy is never stuck, so a unit of built-in strategies plays to its end."""
    entries = plan.config.strategies
    if all(entry.builtin for entry in entries):
        return False
    players = (player for index in unit.matchups for player in plan.matchups[index].players)
    return loading or any(not entries[player].builtin for player in players)


def timeout_message(plan: Plan, unit: WorkUnit) -> str:
    """Why the run stopped when a unit ran past the time limit, whichever backend played it."""
    return (
        f"{unit_title(plan, unit)} ran past the limit of {plan.config.timeout:g} seconds per work unit; "
        f"a strategy may be stuck (raise the limit with {setting('timeout')})."
    )


class UnitPlayer:
    """Plays work units of one plan: the built-in strategies loaded once in this process, each
    user's strategy in a host process of its own (`isolation`), never here; `close` stops the hosts.

    An exact strategy's table is made once and kept for the whole run: sent with the plan (`tables`,
    made by the run's main process), read from the cache of tables, or built from the strategy's
    answers and kept there; any other strategy starts afresh each unit, so no state leaks between units.
    """

    def __init__(self, plan: Plan, tables: Mapping[int, PolicyTable] | None = None) -> None:
        self._clock: float | None = time.monotonic()
        """When the first unit's clock may have started: a pool sends it as the worker starts."""
        undumpable()  # a referee, wherever it plays (a Dask worker too): no user's process may attach to it
        self.plan = plan
        self.rules = plan.config.rules
        self.unit = share_unit(plan.table)
        self._fresh: dict[int, Player] = {}
        self._bulk: BulkPlayer | None = None
        self._tables: dict[int, PolicyTable] = dict(tables or {})
        self._solved: dict[int, Any] = {}
        """Turn tables of solvers' policies a built-in plays game by game (`asked.SolvedSeat`)."""
        self.loaded: list[LoadedStrategy | Host] = []
        entries = plan.config.strategies
        launched: dict[int, tuple[Host, bool]] = {}
        try:
            for index, entry in enumerate(entries):
                if not entry.builtin:  # the hosts load side by side, and while this process gets ready
                    launched[index] = self._launch(entry)
            if launched and plan.bulk:
                self._bulk = self._bulk_player()  # numpy loads while the hosts load
            for index, entry in enumerate(entries):
                self.loaded.append(self._ready(entry, *launched[index]) if index in launched else entry.load())
        except BaseException:
            for host, _ in launched.values():
                host.stop()
            raise

    def _launch(self, entry: StrategyEntry) -> tuple[Host, bool]:
        """A user's strategy started in a host of its own, or the host it was probed in here (`idle`),
        loaded already: whether it is that one."""
        from ..referee.isolation import Host  # the hosts' code, loaded only for a field with a user's strategy

        config = self.plan.config
        limit = host_memory_limit(config.memory_limit, config.workers)
        probed = idle.take(idle.key(entry.spec, entry.params, entry.name, self.rules, config.timeout, limit))
        if probed is not None:
            return probed, True
        host = Host.launch(
            entry.spec,
            entry.params,
            entry.name,
            self.rules,
            timeout=config.timeout,
            memory_limit_mib=limit,
            strict=self.plan.strict,
        )
        return host, False

    @staticmethod
    def _ready(entry: StrategyEntry, host: Host, loaded: bool) -> Host:
        """The host once loaded; its strategy must be what it was when the run began."""
        if not loaded:
            host.ready()
        if (host.name, host.exact, host.context_free) != (entry.name, entry.exact, entry.context_free):
            host.stop()
            raise StrategyLoadError(f"strategy {entry.name!r} is no longer what it was when the run began.")
        return host

    def close(self) -> None:
        """Stop every host (and whatever its strategy started)."""
        for loaded in self.loaded:
            if not isinstance(loaded, LoadedStrategy):
                loaded.stop()

    @property
    def bulk(self) -> BulkPlayer:
        """The bulk side of this player, made (and numpy loaded) on first use."""
        if self._bulk is None:
            self._bulk = self._bulk_player()
        return self._bulk

    def _bulk_player(self) -> BulkPlayer:
        from .bulk import BulkPlayer

        return BulkPlayer(self)

    def new_player(self, index: int) -> Player:
        """A new player for a strategy."""
        loaded = self.loaded[index]
        try:
            if not isinstance(loaded, LoadedStrategy):
                return loaded.player()
            return StrategyPlayer(loaded.make(), self.rules, loaded.name)
        except (StrategyLoadError, StrategyError) as error:
            raise TournamentFailure(mark("strategy", index) + marked(error)) from None

    def policy(self, index: int) -> PolicyTable:
        """An exact strategy's table, made once for the run (a failure to build it is a `StrategyError`)."""
        table = self._tables.get(index)
        if table is None:
            table = self._tables[index] = self._made_table(index)
            note_table(self.plan.config.strategies[index], self.rules, table)
        return table

    def tables(self) -> dict[int, PolicyTable]:
        """Every exact strategy's table, for the workers of a pool: none of them builds one. A table
        that fails to build fails the first unit that seats its strategy, as it would have there."""
        if not self.plan.bulk:  # exact strategies are asked at each decision
            return {}
        self._arm()
        made: dict[int, PolicyTable] = {}
        for index, entry in enumerate(self.plan.config.strategies):
            if entry.exact:
                try:
                    made[index] = self.policy(index)
                except StrategyError as error:
                    first = next((unit for unit in self.plan.units() if self._seats(unit, index)), None)
                    if first is None:  # no unit left to play seats it: none needs it
                        continue
                    blamed = mark("strategy", index)
                    raise TournamentFailure(f"{blamed}in {unit_title(self.plan, first)}: {error}") from None
        return made

    def _seats(self, unit: WorkUnit, index: int) -> bool:
        return any(index in self.plan.matchups[matchup].players for matchup in unit.matchups)

    def _made_table(self, index: int) -> PolicyTable:
        """A user's table read from the cache of tables, or built from the strategy's answers and kept
        there; a built-in's, always built (see `tables`)."""
        entry, folder = self.plan.config.strategies[index], cache_folder()
        key = None if folder is None else table_key(entry, source_digest(entry), self.rules)
        if folder is not None and key is not None:
            try:
                kept = read_table(folder, key, entry, self.rules)
            except StrategyLoadError as error:
                raise TournamentFailure(mark("strategy", index) + marked(error)) from None
            if kept is not None:
                return kept
        table = self.new_player(index).policy
        if folder is not None and key is not None:
            keep_table(folder, key, table)
        return table

    def player(self, index: int) -> Player:
        """The strategy's player for this unit."""
        player = self._fresh.get(index)
        if player is None:
            player = self._fresh[index] = self.new_player(index)
        return player

    def _seat(self, index: int) -> Seat:
        """How a strategy plays its turns at a table: an exact one from its table, any other
        asked at each decision."""
        if self.plan.bulk and self.plan.config.strategies[index].exact:
            return self.bulk.table_turns(index)
        return AskedTurns(self.rules, self.player(index))

    def _arm(self) -> None:
        """Start the clock of the hosts' answers: a silent host is named a little before the unit's
        own time limit would end the run unnamed."""
        timeout = self.plan.config.timeout
        started, self._clock = self._clock or time.monotonic(), None
        deadline = started + timeout - min(2.0, timeout / 4)
        for loaded in self.loaded:
            if not isinstance(loaded, LoadedStrategy):
                loaded.deadline = deadline

    def play(self, unit: WorkUnit) -> UnitResult:
        """Play every game of a unit and count it, block by block where the plan looks within units."""
        self._fresh.clear()
        self._arm()
        try:
            return joined(self._play(unit, self.plan.blocks(unit)), unit.number)
        except TabulationFailure as error:
            raise TournamentFailure(f"in {unit_title(self.plan, unit)}: {error.marked}") from None
        except TournamentFailure as error:  # a strategy's, in a game: marked with its unit
            raise TournamentFailure(mark("unit", unit.number) + error.marked) from None

    def _play(self, unit: WorkUnit, blocks: tuple[WorkUnit, ...]) -> tuple[UnitResult, ...]:
        """A unit's results, block by block: the array engine's in a plan in bulk, else the reference's."""
        matchup = self.plan.matchups[unit.matchups[0]]
        try:
            if unit.bulk:
                counted = self.bulk.play(unit, blocks)
            elif self.plan.bulk:
                counted = self.bulk.play(unit, blocks, self._asked(matchup))
            else:
                counted = [{unit.matchups[0]: self._turn_by_turn(matchup, block)} for block in blocks]
        except GameFailure as failure:
            raise self._failed(matchup, failure) from None
        games = self.plan.table * len(unit.matchups)
        return tuple(
            UnitResult(found, block.deals * games, unit.number) for found, block in zip(counted, blocks, strict=True)
        )

    def _asked(self, matchup: Matchup) -> dict[int, AskedKind]:
        """How the array engine asks the strategies of a game-by-game unit that do not play from a
        table: a solver's policy from its table, any other turn by turn with its context."""
        from .asked import AskedSeat, SolvedSeat

        asked: dict[int, AskedKind] = {}
        for index in matchup.players:
            if not self.plan.config.strategies[index].exact:
                player = self.player(index)
                if isinstance(player, StrategyPlayer) and player.solved:
                    asked[index] = SolvedSeat(player, self._solved)
                else:
                    asked[index] = AskedSeat(player)
        return asked

    def _turn_by_turn(self, matchup: Matchup, unit: WorkUnit, side_by_side: bool = True) -> list[Tally]:
        """A unit's games played by the reference, turn by turn (`reference`)."""
        seats = [self._seat(player) for player in matchup.players]
        tallies = [Tally() for _ in seats]
        slots = list(self.plan.games(unit))
        for record in play_turn_by_turn(self.rules, self.plan.deal_seed, slots, seats, side_by_side):
            count_game(record, tallies, self.unit)
        return tallies

    def one_after_another(self, unit: WorkUnit) -> UnitResult:
        """A game-by-game unit played by the reference each game to its end, then the next: what the
        tests hold the other ways of playing it to (and `benchmarks/lockstep.py` times)."""
        self._fresh.clear()
        (index,) = unit.matchups
        matchup = self.plan.matchups[index]
        try:
            tallies = self._turn_by_turn(matchup, unit, side_by_side=False)
        except GameFailure as failure:
            raise self._failed(matchup, failure) from None
        return UnitResult({index: tallies}, unit.deals * self.plan.table, unit.number)

    def play_game(self, matchup: Matchup, slot: GameSlot, seats: list[Seat]) -> GameRecord:
        """One game of a matchup played by the reference; a strategy's failure says where it happened."""
        try:
            (record,) = play_turn_by_turn(self.rules, self.plan.deal_seed, [slot], seats)
        except GameFailure as failure:
            raise self._failed(matchup, failure) from None
        return record

    def _failed(self, matchup: Matchup, failure: GameFailure) -> TournamentFailure:
        """A strategy's failure in a game, saying where it happened, whichever way played the game."""
        blamed = mark("strategy", matchup.players[failure.context.player])
        return TournamentFailure(blamed + self._where(matchup, failure.slot, failure.context) + str(failure.error))

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
