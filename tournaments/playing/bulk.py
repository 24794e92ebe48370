"""The array engine: every unit the reference (`reference`, `--general-engine`) does not play, its
games at once in numpy arrays, and the tables exact strategies play from.

A unit's games stand in arrays (the rules written once: `shutbox_cli.game.bulk.play_games`), and
each strategy seated plays its turns of a step by its kind: an exact one from its table, a keyed
one from its key's table, any other context-free one turn by turn; those three once per (deal,
round, seat), looked up by every game of a bulk unit that seats the strategy there. A game-by-game
unit (one matchup whose strategies read their context) seats the others as kinds asked with the
context of each game's turn (`asked`: a solver's policy from its table, any other asked turn by
turn). The games are counted into the same tallies the reference counts. With the `fast` extra
(numba) a bulk unit plays compiled instead (`compiled`), to the same tallies; this numpy engine is
its reference and its fallback.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from shutbox_cli.game import Rules, TurnContext, TurnRecord, play_turn, score, turn_rolls
from shutbox_cli.game.bulk import (
    LARGEST,
    GameResults,
    Standing,
    most_in_a_game,
    play_games,
    play_keyed_turns,
    play_turns,
    turn_table_of,
)
from shutbox_cli.game.bulk_dice import absorbed, outcomes, stream_keys
from shutbox_cli.game.terms import GameNumber, Seed
from strategies.keys import KeyedContext
from strategies.player import StrategyError, StrategyPlayer

from ..errors import mark
from .compiled import CompiledUnits
from .keyed import distinct_keys, key_rows, key_values
from .plan import GameSlot, Plan, WorkUnit
from .seats import GameFailure, Seating, TabulationFailure
from .tally import NEVER_OUT, Tally, pair_outcomes, share_unit

Masks = npt.NDArray[np.int16]
Games = npt.NDArray[np.intp]
Dealt = npt.NDArray[np.uint8]
"""Every roll each of some games' turns can use ([game, roll], outcome codes): a turn uses at most
one roll per tile, plus the one that ends it."""
StrategyTurns = Callable[[int, int, int, npt.NDArray[np.int64]], Masks]
"""Strategy i's turns in seat s and round r of these dice games: the open mask each ends with."""
KeyedTurns = Callable[[int, int, int, npt.NDArray[np.int64], npt.NDArray[np.int64]], Masks]
"""A keyed strategy i's turns in seat s and round r of these dice games, given each turn's key row."""
SMALL = 4
"""A round asked for fewer than 1/SMALL of a unit's dice games plays just those, uncached."""


class AskedKind(Protocol):
    """A strategy asked with the context of each game's turn (`asked`): its turns in a seat and
    round of these games, each on the rolls dealt for it."""

    def turns(self, unit: BulkUnit, seat: int, round_: int, games: Games, dealt: Dealt) -> Masks: ...


class BulkPlayer:
    """The bulk side of a unit player: exact strategies' tables, kept for the run, and bulk units."""

    def __init__(self, owner: Seating) -> None:
        self.owner = owner
        self.plan = owner.plan
        self.rules = owner.rules
        self._tables: dict[int, npt.NDArray[np.int16]] = {}
        self._keyed: dict[tuple[int, tuple[int, ...]], npt.NDArray[np.int16]] = {}
        self._compiled: CompiledUnits | None = None

    def table(self, index: int) -> npt.NDArray[np.int16]:
        """An exact strategy's turn table, made on first use from its table (`UnitPlayer.policy`)."""
        table = self._tables.get(index)
        if table is None:
            try:
                policy = self.owner.policy(index)
            except StrategyError as error:
                raise TabulationFailure(mark("strategy", index) + str(error)) from None
            after = np.frombuffer(policy.next_mask, dtype=np.int16).reshape(self.rules.full_box + 1, -1)
            table = turn_table_of(after, np.frombuffer(policy.dice, dtype=np.uint8))
            self._tables[index] = table
        return table

    def table_turns(self, index: int) -> TableTurns:
        """An exact strategy's seat at a table played game by game."""
        return TableTurns(self.rules, self.table(index))

    def strategy_turns(self, index: int, seat: int, round_: int, games: npt.NDArray[np.int64]) -> Masks:
        """A context-free strategy's turns in a seat and round of these dice games."""
        seed = self.plan.deal_seed
        if self.plan.config.strategies[index].exact:
            table = self.table(index)
            keys = stream_keys(seed, games, round_, seat)
            return play_turns(table, self.rules.full_box, keys.size, lambda k, live: outcomes(keys[live], k))
        player, ended = self.owner.player(index), np.empty(games.size, dtype=np.int16)
        context = TurnContext(0, seat, round_, False, (None,), (0,), (True,))  # never read: context-free
        blamed = mark("strategy", index)
        try:
            if not isinstance(player, StrategyPlayer):  # a user's in its host: it plays them all in one round trip
                player.prefetch([(context, seed, game) for game in games.tolist()])
        except StrategyError as error:  # its host failed to answer at all
            raise TabulationFailure(f"{blamed}round {round_}, seat {seat}: {error}") from None
        for position, game in enumerate(games.tolist()):
            try:
                turn = play_turn(
                    self.rules, turn_rolls(seed, game, round_, seat), player.start_turn(context, seed, game)
                )
            except StrategyError as error:
                where = f"round {round_}, seat {seat}, dealt from seed {seed} as game {game}: "
                raise TabulationFailure(blamed + where + str(error)) from None
            ended[position] = turn.open_mask
        return ended

    def keyed_table(self, index: int, row: tuple[int, ...]) -> npt.NDArray[np.int16]:
        """A keyed strategy's turn table for one key (a key row), built on first use from its answers."""
        table = self._keyed.get((index, row))
        if table is None:
            features = self.plan.keys[index]
            assert features is not None
            player = self.owner.new_player(index)
            values = key_values(features, np.asarray(row))
            try:  # a user's strategy is tabulated in its host, its table checked here
                policy = player.keyed_policy(values)
            except StrategyError as error:
                context = KeyedContext(features, values)
                raise TabulationFailure(f"{mark('strategy', index)}with the key {context!r}: {error}") from None
            after = np.frombuffer(policy.next_mask, dtype=np.int16).reshape(self.rules.full_box + 1, -1)
            table = self._keyed[(index, row)] = turn_table_of(after, np.frombuffer(policy.dice, dtype=np.uint8))
        return table

    def keyed_turns(
        self, index: int, seat: int, round_: int, games: npt.NDArray[np.int64], rows: npt.NDArray[np.int64]
    ) -> Masks:
        """A keyed strategy's turns in a seat and round of these dice games, each from its key's table."""
        distinct, which = distinct_keys(rows)
        tables = np.stack([self.keyed_table(index, tuple(row)) for row in distinct.tolist()])
        keys = stream_keys(self.plan.deal_seed, games, round_, seat)
        return play_keyed_turns(tables, which, self.rules.full_box, lambda k, live: outcomes(keys[live], k))

    def play(
        self, unit: WorkUnit, blocks: Sequence[WorkUnit] = (), asked: Mapping[int, AskedKind] | None = None
    ) -> list[dict[int, list[Tally]]]:
        """Every game of a unit, counted per matchup and player block by block (`blocks`, the unit's
        in order; by default the unit whole): a bulk unit compiled when it can be, a game-by-game
        one with the strategies `asked` (by number) asked with their context."""
        blocks = blocks or (unit,)
        if unit.bulk:
            if self._compiled is None:
                self._compiled = CompiledUnits(self.plan, self.table, self.strategy_turns, self.keyed_table)
            if self._compiled.plays(unit):
                return [self._compiled.play(block) for block in blocks]
        return BulkUnit(self.plan, unit, self.strategy_turns, self.keyed_turns, asked).play_blocks(blocks)


class TableTurns:
    """An exact strategy's seat at a table played game by game: one roll a lookup in its table
    (recorded without its rolls: the tallies need only the score)."""

    def __init__(self, rules: Rules, table: npt.NDArray[np.int16]) -> None:
        self.rules = rules
        self.rows: list[list[int]] = table.tolist()
        self.full = rules.full_box

    def play(self, context: TurnContext, seed: Seed, game: GameNumber, rolls: Iterator[tuple[int, int]]) -> TurnRecord:
        rows, mask = self.rows, self.full
        for first, second in rolls:
            after = rows[mask][6 * first + second - 7]
            if after <= 0:
                mask = 0 if after == 0 else mask
                break
            mask = after
        return TurnRecord((), mask, score(self.rules, mask))


class BulkUnit:
    """The games of one unit, laid out matchup by matchup, rotation by rotation, deal by deal; the
    strategies `asked` (by number) are asked with their games' context, the others play by kind."""

    def __init__(
        self,
        plan: Plan,
        unit: WorkUnit,
        strategy_turns: StrategyTurns,
        keyed_turns: KeyedTurns | None = None,
        asked: Mapping[int, AskedKind] | None = None,
    ) -> None:
        self.plan = plan
        self.unit = unit
        self.rules = plan.config.rules
        self.seed: Seed = plan.deal_seed
        self.strategy_turns = strategy_turns
        self.keyed_turns = keyed_turns
        self.asked = dict(asked or {})
        self.standing = Standing()
        self.players = seats = plan.table
        deals = unit.deals
        self.layout = (len(unit.matchups), seats, deals)
        matchup, rotation, deal = np.indices(self.layout).reshape(3, -1)
        self.rotation = rotation
        # Which dice stream each game's seats meet: the deal's, or with duplicate off the game's own.
        self.dice_index = deal if plan.config.duplicate else deal * seats + rotation
        first = unit.first_deal * (1 if plan.config.duplicate else seats)
        self.dice_games = first + np.arange(deals if plan.config.duplicate else deals * seats)
        players = np.array([plan.matchups[index].players for index in unit.matchups], dtype=np.intp)
        self.strategy_at = [players[matchup, (rotation + seat) % seats] for seat in range(seats)]
        self._turns: dict[tuple[int, int, int], Masks] = {}
        self._order = tuple(dict.fromkeys(players[0].tolist())) if self.asked else None
        """The order a game-by-game unit's strategies are asked in: its matchup's."""
        self.failure: GameFailure | None = None
        self._last = np.iinfo(np.int64).max
        """Games numbered from this on play no more: a game before them failed."""
        if self.asked:
            self.numbers = (deal + unit.first_deal) * seats + rotation
            self._keys = absorbed(0, self.seed, self.dice_games)
            """Each dice game's stream key as far as its seed and number go (`bulk_dice.absorbed`)."""
            self._rolls = np.arange(self.rules.tiles + 1, dtype=np.uint64)[None, :]

    def game_dice(self, games: Games) -> npt.NDArray[np.int64]:
        """The dice game each of these games is dealt from."""
        dice: npt.NDArray[np.int64] = self.dice_games[self.dice_index[games]]
        return dice

    def slot(self, game: int) -> GameSlot:
        """A game of a game-by-game unit as the plan numbers it."""
        return GameSlot(int(self.numbers[game]), int(self.game_dice(np.array([game]))[0]), int(self.rotation[game]))

    def failed(self, failure: GameFailure) -> None:
        """A game failed: it and every game after it play no more; the first to fail is blamed."""
        if failure.slot.number < self._last:
            self.failure, self._last = failure, failure.slot.number

    def _strategy_turns(self, strategy: int, seat: int, round_: int, dice: npt.NDArray[np.intp]) -> Masks:
        key = (strategy, seat, round_)
        known = self._turns.get(key)
        if known is not None:
            return known[dice]
        if self.asked or dice.size * SMALL < self.dice_games.size:  # a game-by-game unit shares no turns
            return self.strategy_turns(strategy, seat, round_, self.dice_games[dice])
        known = self._turns[key] = self.strategy_turns(strategy, seat, round_, self.dice_games)
        return known[dice]

    def turns(self, seat: int, round_: int, games: Games) -> Masks:
        """`SeatTurns` for `play_games`: each game's turn in this seat and round."""
        strategies = self.strategy_at[seat][games]
        if self._order is None:
            order = np.flatnonzero(np.bincount(strategies)).tolist()  # np.unique would load numpy.ma
            found = np.empty(games.size, dtype=np.int16)
        else:  # the games after one that failed play no more
            order = list(self._order)
            strategies = np.where(self.numbers[games] < self._last, strategies, -1)
            found = np.full(games.size, self.rules.full_box, dtype=np.int16)
        dice = self.dice_index[games]
        for strategy in order:
            chosen = strategies == strategy
            if self._order is None or chosen.any():
                found[chosen] = self._turns_of(strategy, seat, round_, games, dice, chosen)
        return found

    def _turns_of(
        self, strategy: int, seat: int, round_: int, games: Games, dice: Games, chosen: npt.NDArray[np.bool_]
    ) -> Masks:
        """One strategy's turns in this seat and round of the `chosen` games, by its kind."""
        kind = self.asked.get(strategy)
        if kind is not None:
            asked = games[chosen]
            keys = absorbed(self._keys[dice[chosen]], round_, seat)
            return kind.turns(self, seat, round_, asked, outcomes(keys[:, None], self._rolls))
        features = self.plan.keys[strategy] if self.plan.keys else None
        if features is None:
            return self._strategy_turns(strategy, seat, round_, dice[chosen])
        # Its turn depends on where its game stands: played in every game apart.
        assert self.keyed_turns is not None
        rows = key_rows(features, self.standing, seat, round_, games[chosen])
        return self.keyed_turns(strategy, seat, round_, self.dice_games[dice[chosen]], rows)

    def play(self) -> dict[int, list[Tally]]:
        """Every game of the unit, counted per matchup and player."""
        return self.play_blocks((self.unit,))[0]

    def play_blocks(self, blocks: Sequence[WorkUnit]) -> list[dict[int, list[Tally]]]:
        """Every game of the unit, played at once and counted per matchup and player block by block
        (the unit's blocks, `Plan.blocks`); a `GameFailure` at the first game to fail."""
        plan, unit = self.plan, self.unit
        count = int(np.prod(self.layout))
        results = play_games(self.rules, plan.table, count, share_unit(plan.table), self.turns, self.standing)
        if self.failure is not None:
            raise self.failure
        return [
            block_tallies(results, self.layout, block.first_deal - unit.first_deal, block, self.rules)
            for block in blocks
        ]


def finished_ahead(results: GameResults, seat: int, other: int) -> npt.NDArray[np.int8]:
    """`tally.finished_ahead` for every game at once: 1 where `seat` finished ahead of `other`, -1
    behind, 0 level. The first rule that tells them apart decides; rules no game of these needs
    (drop-outs, playoffs) are skipped."""
    won, won_other = results.wins[seat] > 0, results.wins[other] > 0
    rules: list[tuple[npt.NDArray[np.bool_], int]] = [(won & ~won_other, 1), (won_other & ~won, -1), (won, 0)]
    if (results.out_after >= 0).any():
        out, out_other = (np.where(results.out_after[at] < 0, NEVER_OUT, results.out_after[at]) for at in (seat, other))
        rules += [(out > out_other, 1), (out < out_other, -1)]
    total, total_other = results.totals[seat], results.totals[other]
    rules += [
        (results.turns[seat] != results.turns[other], 0),
        (np.asarray(total < total_other, dtype=bool), 1),
        (np.asarray(total > total_other, dtype=bool), -1),
    ]
    if results.playoff_rounds.any():
        rounds, rounds_other = results.playoff_rounds[seat], results.playoff_rounds[other]
        last, last_other = results.playoff_score[seat], results.playoff_score[other]
        both = (last >= 0) & (last_other >= 0)
        rules += [
            (rounds > rounds_other, 1),
            (rounds < rounds_other, -1),
            (both & (last < last_other), 1),
            (both & (last > last_other), -1),
        ]
    conditions, placed = zip(*rules, strict=True)
    places: npt.NDArray[np.int8] = np.select(conditions, placed, 0).astype(np.int8)
    return places


PER_GAME = (
    "wins",
    "turns",
    "score_sum",
    "score_squares",
    "shut_boxes",
    "totals",
    "out_after",
    "playoff_rounds",
    "playoff_score",
)
"""The arrays of `GameResults` that hold a figure per seat and game."""


def block_tallies(
    results: GameResults, layout: tuple[int, int, int], start: int, block: WorkUnit, rules: Rules
) -> dict[int, list[Tally]]:
    """The tallies of a block of games laid out as `layout` (matchup, rotation, deal): its `block.deals`
    deals from the `start`-th on, counted per matchup and player."""
    matchups, seats, deals = layout
    if start == 0 and block.deals == deals:
        return _tallies(results, block, layout, rules)
    sliced = copy.copy(results)
    for name in PER_GAME:
        values = getattr(results, name)
        kept = values.reshape(len(values), *layout)[..., start : start + block.deals]
        setattr(sliced, name, kept.reshape(len(values), -1))
    return _tallies(sliced, block, (matchups, seats, block.deals), rules)


def _summed(values: npt.NDArray[np.int64], layout: tuple[int, int, int], most: int) -> npt.NDArray[np.int64]:
    """One seat's counts (`most` at most a game) summed over a unit's deals, exactly: in 64 bits
    where that many games of the most fit, else in Python ints."""
    shaped = values.reshape(layout)
    if most * layout[2] > LARGEST:
        shaped = shaped.astype(object)
    summed: npt.NDArray[np.int64] = shaped.sum(axis=2)
    return summed


def _tallies(
    results: GameResults, unit: WorkUnit, layout: tuple[int, int, int], rules: Rules
) -> dict[int, list[Tally]]:
    _, seats, deals = layout
    played = results.turns > 0
    fields = {
        "win_shares": results.wins,
        "turns": results.turns,
        "score_sum": results.score_sum,
        "score_squares": results.score_squares,
        "shut_boxes": results.shut_boxes,
        "played": played,
        "total_sum": np.where(played, results.totals, 0),
    }
    # By seat, summed over deals: [field][seat] -> (matchup, rotation). Turns and the other counts
    # grow by at most a few a round: 64 bits hold more than any run can play.
    total, squares = most_in_a_game(rules)
    most = {"score_sum": total, "score_squares": squares, "total_sum": total}
    sums = {
        name: [_summed(values[seat], layout, most.get(name, 0)) for seat in range(seats)]
        for name, values in fields.items()
    }
    # By pair of seats, summed over deals: [seat][other] -> (matchup, rotation).
    ahead = [[np.zeros(layout[:2], dtype=np.int64) for _ in range(seats)] for _ in range(seats)]
    tied = [[np.zeros(layout[:2], dtype=np.int64) for _ in range(seats)] for _ in range(seats)]
    for seat, other in itertools.combinations(range(seats), 2):
        placed = finished_ahead(results, seat, other).reshape(layout)
        ahead[seat][other] = (placed > 0).sum(axis=2)
        ahead[other][seat] = (placed < 0).sum(axis=2)
        tied[seat][other] = tied[other][seat] = (placed == 0).sum(axis=2)
    found: dict[int, list[Tally]] = {}
    for position, matchup in enumerate(unit.matchups):
        tallies = []
        for player in range(seats):
            tally = Tally(games=seats * deals)
            for name, by_seat in sums.items():
                value = sum(int(by_seat[(player - rotation) % seats][position, rotation]) for rotation in range(seats))
                setattr(tally, name, value)
            for counts, by_pair in ((tally.ahead, ahead), (tally.tied, tied)):
                for other in range(seats):
                    counts.append(
                        sum(
                            int(by_pair[(player - rotation) % seats][(other - rotation) % seats][position, rotation])
                            for rotation in range(seats)
                        )
                        if other != player
                        else 0
                    )
            tallies.append(tally)
        found[matchup] = tallies
    _count_pairs(results, layout, found, unit.matchups)
    return found


def _count_pairs(
    results: GameResults, layout: tuple[int, int, int], found: dict[int, list[Tally]], matchups: tuple[int, ...]
) -> None:
    """At a table of two, each player's pentanomial (`Tally.pairs`): its win shares over each deal's
    two games, counted by value."""
    seats = layout[1]
    if seats != 2:
        return
    wins = [results.wins[seat].reshape(layout) for seat in range(seats)]
    for position, matchup in enumerate(matchups):
        for player, tally in enumerate(found[matchup]):
            dealt = sum(wins[(player - rotation) % seats][position, rotation] for rotation in range(seats))
            tally.pairs = np.bincount(dealt, minlength=pair_outcomes(seats)).tolist()
