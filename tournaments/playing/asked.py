"""The seats of the array engine (`bulk.BulkUnit`) that are asked with their game's context, each
step's turns together: what a game-by-game unit seats besides exact strategies (which play from
their tables there as in a bulk unit).

A built-in that plays a solver's policy for the turn (`_solved_for`, not part of the contract)
plays from that policy's table (`SolvedSeat`); any other strategy is asked turn by turn
(`AskedSeat`), a strategy in its host in one round trip for the step. Its questions come in the
order of the games' turns, round by round, seat by seat, the games in order; a strategy that keeps
state between questions meets the unit's games' turns interleaved, each turn whole. The results
are those of the reference (`reference.play_turn_by_turn`) for every strategy whose answers depend
only on what it is shown: its random generators are seeded at each turn from the game's position.
The failure a run stops on is the same too: the one the first game to fail meets, as if the games
before it had been played to their ends first (a game that fails drops out of later steps; the
games before it play on).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import numpy.typing as npt

from shutbox_cli.game import Rules, play_turn, turn_rolls
from shutbox_cli.game.bulk import play_keyed_turns, turn_table_of
from shutbox_cli.game.match import turn_context
from strategies.player import StrategyError, StrategyPlayer
from strategies.table import solution_table

from ..referee.wire import ContextFields
from .bulk import BulkUnit, Dealt, Games, Masks
from .checked import UNVOUCHED, turn_ends
from .seats import GameFailure, Player

KEPT_POLICIES = 256
"""The most turn tables of solvers' policies kept at once (a built-in's turns may meet many)."""


class SolvedSeat:
    """A built-in that plays a solver's policy for each turn (`_solved_for(rules, context)`): its
    turns played from those policies' tables, all at once (tables kept for the unit player's run)."""

    def __init__(self, player: StrategyPlayer, tables: dict[int, tuple[Any, npt.NDArray[np.int16]]]) -> None:
        self.player = player
        # The built-ins' hook, kept out of the strategy contract by its underscore (strategies/solved.py).
        self.solved = type(player.strategy)._solved_for  # type: ignore[attr-defined]  # noqa: SLF001
        self.tables = tables

    def turns(self, unit: BulkUnit, seat: int, round_: int, games: Games, dealt: Dealt) -> Masks:
        strategy, rules = self.player.strategy, unit.rules
        found: dict[int, tuple[Any, int]] = {}  # each solution kept, so that no other takes its id
        chosen: list[npt.NDArray[np.int16]] = []
        which = np.empty(games.size, dtype=np.intp)
        dice_games = unit.game_dice(games).tolist()
        for position, (context, game) in enumerate(
            zip(game_contexts(unit, seat, round_, games), dice_games, strict=True)
        ):
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


class AskedSeat:
    """Any other strategy: asked turn by turn through the general engine (a strategy in its host
    plays the step's turns in one round trip first, and its every answer is checked here)."""

    def __init__(self, player: Player) -> None:
        self.player = player

    def turns(self, unit: BulkUnit, seat: int, round_: int, games: Games, dealt: Dealt) -> Masks:
        player, seed, rules = self.player, unit.seed, unit.rules
        contexts = game_contexts(unit, seat, round_, games)
        dice_games = unit.game_dice(games).tolist()
        ended = np.full(games.size, rules.full_box, dtype=np.int16)
        remote = None if isinstance(player, StrategyPlayer) else player
        start = 0
        if remote is not None:
            try:
                batch = remote.play(seed, contexts, dice_games, dealt)
            except StrategyError as error:  # its host failed to answer at all: nothing plays on
                raise GameFailure(unit.slot(int(games[0])), turn_context(contexts[0]), error) from None
            masks = turn_ends(rules, batch.dealt, batch.counts, batch.given)
            unvouched = np.flatnonzero(masks == UNVOUCHED)
            start = int(unvouched[0]) if unvouched.size else masks.size
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


def game_contexts(unit: BulkUnit, seat: int, round_: int, games: Games) -> list[ContextFields]:
    """The context of each game's turn in this seat and round, from where the games stand: its
    fields, which a host is sent as they are (`match.turn_context` makes the context). Games that
    stand alike share one tuple of fields, made once (a host is sent it once)."""
    count, standing = unit.players, unit.standing
    seats = (np.arange(count)[None, :] - unit.rotation[games][:, None]) % count  # [game, player]
    players = (unit.rotation[games] + seat) % count
    parts = (
        players[:, None],
        standing.scores[seats, games[:, None]],
        standing.totals[seats, games[:, None]],
        standing.playing[seats, games[:, None]],
    )
    key = None if any(part.dtype == object for part in parts) else _row_keys(np.hstack(parts).astype(np.int64))
    if key is None:  # totals past 64 bits, or too many ways to stand: each game's own
        return _contexts(seat, round_, standing.playoff, *parts)
    _, first, which = np.unique(key, return_index=True, return_inverse=True)
    made = _contexts(seat, round_, standing.playoff, *(part[first] for part in parts))
    return list(map(made.__getitem__, which.tolist()))


def _row_keys(table: npt.NDArray[np.int64]) -> npt.NDArray[np.int64] | None:
    """A number for each row, the same for rows alike and only for them (None where the rows' values
    span too much for one 64-bit number)."""
    low = table.min(axis=0)
    spans = (table.max(axis=0) - low + 1).tolist()
    if math.prod(spans) >= 1 << 62:
        return None
    strides = np.array([math.prod(spans[:column]) for column in range(len(spans))], dtype=np.int64)
    keys: npt.NDArray[np.int64] = (table - low) @ strides
    return keys


def _contexts(
    seat: int,
    round_: int,
    playoff: bool,
    players: npt.NDArray[Any],
    scores: npt.NDArray[Any],
    totals: npt.NDArray[Any],
    playing: npt.NDArray[Any],
) -> list[ContextFields]:
    """Each row's context fields (a score not posted yet, -1, is None)."""
    posted = scores.astype(object)
    posted[scores < 0] = None
    steady = itertools.repeat
    return list(
        zip(
            players[:, 0].tolist(),
            steady(seat),
            steady(round_),
            steady(playoff),
            map(tuple, posted.tolist()),
            map(tuple, totals.tolist()),
            map(tuple, playing.tolist()),
            strict=False,
        )
    )
