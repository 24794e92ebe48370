"""A game-by-game unit played with array logic: where all its games stand is kept in numpy arrays
(the bulk engine's `play_games`: rounds, drop-out, ties and instant wins), and each step asks every
game's turn in one seat of one round at once, then counts the games with the bulk engine's tallies.

A step asks each strategy for all its turns in it together: an exact one plays them from its table
in lockstep with numpy; a built-in that plays a solver's policy for the turn (`_solved_for`, not
part of the contract) from that policy's table; any other is asked turn by turn, a strategy in its
host in one round trip for the step. Its questions come in the order of the games' turns, round by
round, seat by seat, the games in order; a strategy that keeps state between questions meets the
unit's games' turns interleaved, each turn whole. The results are those of playing the games one
after another (`UnitPlayer.one_after_another`) for every strategy whose answers depend only on what
it is shown: its random generators are seeded at each turn from the game's position. The failure a
run stops on is the same too: the one the first game to fail meets, as if the games before it had
been played to their ends first (a game that fails drops out of later steps; the games before it
play on).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from shutbox_cli.game import Rules, play_turn, turn_rolls
from shutbox_cli.game.bulk import END, Standing, play_games, play_keyed_turns, turn_table_of
from shutbox_cli.game.bulk_dice import absorbed, outcomes
from shutbox_cli.game.match import turn_context
from shutbox_cli.game.terms import Seed
from strategies.player import StrategyError, StrategyPlayer
from strategies.table import solution_table

from ..referee.wire import ContextFields
from .bulk import Masks, block_tallies
from .checked import UNVOUCHED, turn_ends
from .lockstep import GameFailure
from .plan import GameSlot, Plan, WorkUnit
from .seats import Player
from .tally import Tally, share_unit

Games = npt.NDArray[np.intp]
Dealt = npt.NDArray[np.uint8]
"""Every roll each of some games' turns can use ([game, roll], outcome codes): a turn uses at most
one roll per tile, plus the one that ends it."""
KEPT_POLICIES = 256
"""The most turn tables of solvers' policies kept at once (a built-in's turns may meet many)."""


class StepSeat:
    """How one player of a matchup plays its turns of a step: `turns(unit, seat, round, games,
    dealt)`, each game's turn on the dice dealt for it."""

    def turns(self, unit: StepUnit, seat: int, round_: int, games: Games, dealt: Dealt) -> Masks:
        raise NotImplementedError


class ExactSeat(StepSeat):
    """An exact strategy: its turns played from its turn table, all at once, one roll of every
    turn at a time, a turn that ended staying as it ended (`_ending`): as `bulk.play_turns`
    plays them, with no turn set apart as it ends."""

    def __init__(self, table: Callable[[], npt.NDArray[np.int16]]) -> None:
        self.table = table

    def turns(self, unit: StepUnit, seat: int, round_: int, games: Games, dealt: Dealt) -> Masks:
        ending, boxes = _ending(self.table()), unit.rules.full_box + 1
        states = np.full(games.size, boxes - 1, dtype=np.int16)
        for roll in range(dealt.shape[1]):  # a turn uses at most one roll per tile, plus the one that ends it
            states = ending[states, dealt[:, roll]]
        return states - boxes


_ENDINGS: dict[int, tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]] = {}
"""`_ending`'s tables, by the id of the turn table each is made from (kept with it)."""


def _ending(table: npt.NDArray[np.int16]) -> npt.NDArray[np.int16]:
    """A turn table (`bulk.turn_table_of`: the box after each outcome from each box, END where the
    turn ends with the box as it is, 0 where it shuts the box) with the turns that ended kept
    apart: state b < B (B boxes) is box b with the turn going on, B + b box b with the turn over,
    which every outcome leaves as it is."""
    kept = _ENDINGS.get(id(table))
    if kept is None or kept[0] is not table:
        if len(_ENDINGS) >= KEPT_POLICIES:
            _ENDINGS.clear()
        boxes = np.arange(table.shape[0], dtype=np.int16)
        going = np.where(table == END, boxes[:, None], table) + np.where(table > 0, 0, table.shape[0])
        over = np.broadcast_to((boxes + table.shape[0])[:, None], table.shape)
        kept = _ENDINGS[id(table)] = (table, np.concatenate((going, over)).astype(np.int16))
    return kept[1]


class SolvedSeat(StepSeat):
    """A built-in that plays a solver's policy for each turn (`_solved_for(rules, context)`): its
    turns played from those policies' tables, all at once (tables kept for the unit player's run)."""

    def __init__(self, player: StrategyPlayer, tables: dict[int, tuple[Any, npt.NDArray[np.int16]]]) -> None:
        self.player = player
        self.solved = type(player.strategy)._solved_for  # type: ignore[attr-defined]
        self.tables = tables

    def turns(self, unit: StepUnit, seat: int, round_: int, games: Games, dealt: Dealt) -> Masks:
        strategy, rules = self.player.strategy, unit.rules
        found: dict[int, tuple[Any, int]] = {}  # each solution kept, so that no other takes its id
        chosen: list[npt.NDArray[np.int16]] = []
        which = np.empty(games.size, dtype=np.intp)
        dice_games = unit.dice_games[games].tolist()
        for position, (context, game) in enumerate(zip(unit.contexts(seat, round_, games), dice_games, strict=True)):
            shown = self.player.start_turn(turn_context(context), unit.seed, game).context  # its key's, if keyed
            solution = self.solved(strategy, rules, shown)
            known = found.get(id(solution))
            if known is None:
                known = found[id(solution)] = (solution, len(chosen))
                chosen.append(self._table(rules, solution))
            which[position] = known[1]
        return play_keyed_turns(np.stack(chosen), which, rules.full_box, lambda roll, live: dealt[live, roll])

    def _table(self, rules: Rules, solution: Any) -> npt.NDArray[np.int16]:
        kept = self.tables.get(id(solution))
        if kept is None or kept[0] is not solution:
            if len(self.tables) >= KEPT_POLICIES:
                self.tables.clear()
            table = solution_table(rules, solution.moves, solution.dice)
            after = np.frombuffer(table.next_mask, dtype=np.int16).reshape(rules.full_box + 1, -1)
            kept = (solution, turn_table_of(after, np.frombuffer(table.dice, dtype=np.uint8)))
            self.tables[id(solution)] = kept
        return kept[1]


class AskedSeat(StepSeat):
    """Any other strategy: asked turn by turn through the general engine (a strategy in its host
    plays the step's turns in one round trip first, and its every answer is checked here)."""

    def __init__(self, player: Player) -> None:
        self.player = player

    def turns(self, unit: StepUnit, seat: int, round_: int, games: Games, dealt: Dealt) -> Masks:
        player, seed, rules = self.player, unit.seed, unit.rules
        contexts = unit.contexts(seat, round_, games)
        dice_games = unit.dice_games[games].tolist()
        ended = np.full(games.size, rules.full_box, dtype=np.int16)
        remote = None if isinstance(player, StrategyPlayer) else player
        start = 0
        if remote is not None:
            try:
                batch = remote.play(seed, contexts, dice_games, dealt)
            except StrategyError as error:  # its host failed to answer at all: nothing plays on
                raise GameFailure(unit.slot(int(games[0])), turn_context(contexts[0]), error) from None
            masks = turn_ends(rules, batch.dealt.tobytes(), batch.counts.tolist(), batch.given.tolist())
            start = masks.index(UNVOUCHED) if UNVOUCHED in masks else len(masks)
            ended[:start] = masks[:start]
            remote.keep(start)
        # The turns not vouched for (a host's from the first it failed or answered wrong) through
        # the general engine, which says what went wrong.
        for position in range(start, games.size):
            context, game = turn_context(contexts[position]), dice_games[position]
            # A host's turn rolls the dice it was dealt for the turn, not worked out again.
            rolls = turn_rolls(seed, game, round_, seat) if remote is None else remote.rolls(context, seed, game)
            try:
                ended[position] = play_turn(rules, rolls, player.start_turn(context, seed, game)).open_mask
            except StrategyError as error:
                failure = GameFailure(unit.slot(int(games[position])), context, error)
                if remote is not None and not remote.answering:
                    raise failure from None  # its host stopped: nothing plays on
                unit.failed(failure)
                break
        return ended


class StepUnit:
    """One unit's games of one matchup (player `p` in `seats[p]`), laid out as the bulk engine lays
    out a matchup's: rotation by rotation, deal by deal."""

    def __init__(self, plan: Plan, unit: WorkUnit, seats: Sequence[StepSeat]) -> None:
        self.rules = plan.config.rules
        self.seed: Seed = plan.deal_seed
        self.seats = seats
        self.players = len(seats)
        self.deals = unit.deals
        self.layout = (1, self.players, unit.deals)
        rotation, deal = np.indices(self.layout[1:]).reshape(2, -1)
        deal += unit.first_deal
        self.rotation = rotation
        self.numbers = deal * self.players + rotation
        self.dice_games = deal if plan.config.duplicate else self.numbers
        self._keys = absorbed(0, self.seed, self.dice_games)
        """Each game's dice stream key as far as its seed and dice game go (`bulk_dice.absorbed`)."""
        self._rolls = np.arange(self.rules.tiles + 1, dtype=np.uint64)[None, :]
        self.standing = Standing()
        self.failure: GameFailure | None = None
        self._last = np.iinfo(np.int64).max
        """Games numbered from this on play no more: a game before them failed."""

    def slot(self, game: int) -> GameSlot:
        return GameSlot(int(self.numbers[game]), int(self.dice_games[game]), int(self.rotation[game]))

    def failed(self, failure: GameFailure) -> None:
        """A game failed: it and every game after it play no more; the first to fail is blamed."""
        if failure.slot.number < self._last:
            self.failure, self._last = failure, failure.slot.number

    def contexts(self, seat: int, round_: int, games: Games) -> list[ContextFields]:
        """The context of each game's turn in this seat and round, from where the games stand: its
        fields, which a host is sent as they are (`match.turn_context` makes the context)."""
        count, standing = self.players, self.standing
        seats = (np.arange(count)[None, :] - self.rotation[games][:, None]) % count  # [game, player]
        scores = standing.scores[seats, games[:, None]]
        posted = scores.astype(object)
        posted[scores < 0] = None  # not played yet
        players = ((self.rotation[games] + seat) % count).tolist()
        steady = itertools.repeat
        return list(
            zip(
                players,
                steady(seat),
                steady(round_),
                steady(standing.playoff),
                _rows(posted, scores),
                _rows(standing.totals[seats, games[:, None]]),
                _rows(standing.playing[seats, games[:, None]]),
                strict=False,
            )
        )

    def turns(self, seat: int, round_: int, games: Games) -> Masks:
        """`SeatTurns` for `play_games`: each game's turn in this seat and round, by its player."""
        found = np.full(games.size, self.rules.full_box, dtype=np.int16)
        players = (self.rotation[games] + seat) % self.players
        dealt = outcomes(absorbed(self._keys[games], round_, seat)[:, None], self._rolls)
        for player, place in enumerate(self.seats):
            chosen = np.flatnonzero((players == player) & (self.numbers[games] < self._last))
            if chosen.size:
                found[chosen] = place.turns(self, seat, round_, games[chosen], dealt[chosen])
        return found

    def play(self, blocks: Sequence[WorkUnit] = ()) -> list[list[Tally]]:
        """Every game of the unit, counted by player block by block (`blocks`, the unit's in order;
        by default the unit whole); a `GameFailure` at the first game to fail."""
        count = self.players * self.deals
        results = play_games(self.rules, self.players, count, share_unit(self.players), self.turns, self.standing)
        if self.failure is not None:
            raise self.failure
        first = blocks[0].first_deal if blocks else 0
        parts = [WorkUnit(0, (0,), block.first_deal - first, block.deals) for block in blocks]
        return [
            block_tallies(results, self.layout, part.first_deal, part, self.rules)[0]
            for part in parts or [WorkUnit(0, (0,), 0, self.deals)]
        ]


def _rows(values: npt.NDArray[Any], compared: npt.NDArray[Any] | None = None) -> list[tuple[Any, ...]]:
    """Each row of `values` as a tuple; one tuple for them all where every row is the same (as
    `compared`'s rows are, when given: a turn's context is often its neighbours', such as every
    total at the first round, and a tuple sent once reaches a host once)."""
    same = values if compared is None else compared
    if same.shape[0] > 1 and bool((same == same[0]).all()):
        return [tuple(values[0].tolist())] * same.shape[0]
    return list(map(tuple, values.tolist()))
