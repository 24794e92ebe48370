"""A decision as numbers, for learning agents and the trained policies played as strategies: the
observation (a flat array of whole numbers), the action (an index: a move, or a number of dice)
and the mask of the legal actions (docs/rl.md).

A decision is a question of the rules: before a roll, how many dice (phase 0); after a roll with
legal moves, which to shut (phase 1). The observation holds the box (1 per open tile), the phase,
the dice, what the one-die rule allows, the score standing, and the context a strategy may read
(`strategies.keys.FEATURES`, seen from the player deciding). Actions `0 .. len(moves) - 1` shut the
move of that index in `moves` (every set of tiles a roll could shut on this box: a sum of 12 or less,
in the order of their masks); the last two roll one die and two dice. Only numpy is needed here.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from shutbox_cli.game import Rules, TurnContext, dice_options, legal_moves, score, tile_sum
from shutbox_cli.game.rules import MAX_ROUNDS
from shutbox_cli.game.terms import Mask
from strategies.base import SOLO_CONTEXT
from strategies.keys import ALL_FEATURES, key_of

HIGHEST_ROLL = 12
"""The highest roll of two dice: no move shuts tiles adding up to more."""
NONE = -1
"""What a feature that may be None (`to_beat`, `leader_total`) holds for None; and the dice before a roll."""
UNBOUNDED = int(np.iinfo(np.int64).max)
"""The high bound of a count the rules do not bound (playoff rounds go on counting)."""
DECISION_FIELDS = ("phase", "die_1", "die_2", "roll", "one_die", "score")
"""The fields after the box, before the context: phase (0 dice to roll, 1 move to shut), the dice
lowest first (0 not rolled: before the roll, and die_2 of one die), their total, whether the rules
let one die be rolled with this box (0/1), and the score the box would score now."""
CONTEXT_FIELDS = ("players", *ALL_FEATURES)
"""The context's fields: the players at the table, then every feature of `strategies.keys.FEATURES`
(None as -1, True/False as 1/0)."""
Observation = npt.NDArray[np.int64]
ActionMask = npt.NDArray[np.bool_]


@dataclasses.dataclass(frozen=True)
class Encoding:
    """How decisions under one rule set are encoded: `fields` names the observation's entries, `low`
    and `high` bound them, `moves` lists the moves by action index; `one_die` and `two_dice` are the
    actions that roll one die and two."""

    rules: Rules
    fields: tuple[str, ...]
    low: Observation
    high: Observation
    moves: tuple[Mask, ...]
    actions: int
    one_die: int
    two_dice: int
    _index: dict[Mask, int] = dataclasses.field(repr=False, compare=False)

    def observe(self, open_mask: Mask, dice: Sequence[int] | None, context: TurnContext | None = None) -> Observation:
        """The observation of a decision: the box, the dice rolled (None: the question is how many
        dice to roll) and the turn's context (None: a solo game's first turn)."""
        rules = self.rules
        thrown = sorted(dice) if dice is not None else []
        decision = (
            0 if dice is None else 1,
            thrown[0] if thrown else 0,
            thrown[1] if len(thrown) > 1 else 0,
            sum(thrown),
            int(1 in dice_options(rules, open_mask)),
            score(rules, open_mask),
        )
        seen = _context_numbers(SOLO_CONTEXT if context is None else context)
        return np.array(_box_bits(rules.tiles)[open_mask] + decision + seen, dtype=np.int64)

    def action_mask(self, open_mask: Mask, dice: Sequence[int] | None) -> ActionMask:
        """The legal actions: before a roll, the numbers of dice the rules allow; after it, the legal moves."""
        mask = np.zeros(self.actions, dtype=np.bool_)
        if dice is None:
            for count in dice_options(self.rules, open_mask):
                mask[self.one_die if count == 1 else self.two_dice] = True
        else:
            for move in legal_moves(self.rules, open_mask, tuple(sorted(dice))):
                mask[self._index[move]] = True
        return mask

    def action_of_move(self, move: Mask) -> int:
        """The action that shuts this move (a mask of tiles)."""
        return self._index[move]

    def action_of_dice(self, count: int) -> int:
        """The action that rolls this many dice (1 or 2)."""
        return {1: self.one_die, 2: self.two_dice}[count]

    def move_of(self, action: int) -> Mask | None:
        """The move (a mask) an action shuts; None for an action that rolls dice."""
        return self.moves[action] if 0 <= action < len(self.moves) else None

    def dice_of(self, action: int) -> int | None:
        """The number of dice an action rolls; None for an action that shuts a move."""
        return {self.one_die: 1, self.two_dice: 2}.get(action)

    def describe(self, observation: Observation) -> dict[str, int]:
        """An observation by field name (what docs/rl.md's table lists)."""
        return dict(zip(self.fields, (int(value) for value in observation), strict=True))


def _number(value: Any) -> int:
    """A feature's value as a whole number: None as -1, a bool as 0 or 1."""
    return NONE if value is None else int(value)


@functools.lru_cache(maxsize=4096)
def _context_numbers(context: TurnContext) -> tuple[int, ...]:
    """The context's fields of an observation (asked at every question of a turn: kept for the turns in play)."""
    return (len(context.scores), *(_number(value) for value in key_of(context, ALL_FEATURES)))


@functools.cache
def _box_bits(tiles: int) -> tuple[tuple[int, ...], ...]:
    """Each box's fields of an observation (1 for each open tile), by mask."""
    return tuple(tuple(mask >> bit & 1 for bit in range(tiles)) for mask in range(1 << tiles))


@functools.cache
def encoding(rules: Rules, players: int | None = None) -> Encoding:
    """The encoding of decisions under these rules at a table of `players` (None: of any size),
    made once for each: the table bounds only the fields that count players."""
    tiles, full = rules.tiles, rules.full_box
    moves = tuple(move for move in range(1, full + 1) if tile_sum(move) <= HIGHEST_ROLL)
    worst = score(rules, full)
    most_rounds = rules.rounds if rules.drop_out is None else MAX_ROUNDS
    most_total = worst * most_rounds if rules.drop_out is None else rules.drop_out + worst
    # A table of one is bounded as one of two: no field's bounds are equal (Gymnasium's checker warns of those).
    players_high = UNBOUNDED if players is None else max(players, 2)
    bounds = {
        "phase": (0, 1),
        "die_1": (0, 6),
        "die_2": (0, 6),
        "roll": (0, HIGHEST_ROLL),
        "one_die": (0, 1),
        "score": (0, worst),
        "players": (1, players_high),
        "seat": (0, players_high - 1),
        "round": (0, UNBOUNDED),
        "playoff": (0, 1),
        "total": (0, most_total),
        "to_beat": (NONE, worst),
        "to_beat_count": (0, players_high - 1),
        "to_come": (0, players_high - 1),
        "leader_total": (NONE, most_total),
    }
    fields = (*(f"tile_{tile}" for tile in range(1, tiles + 1)), *DECISION_FIELDS, *CONTEXT_FIELDS)
    low = np.array([0] * tiles + [bounds[name][0] for name in fields[tiles:]], dtype=np.int64)
    high = np.array([1] * tiles + [bounds[name][1] for name in fields[tiles:]], dtype=np.int64)
    low.flags.writeable = high.flags.writeable = False
    index = {move: action for action, move in enumerate(moves)}
    count = len(moves)
    return Encoding(rules, fields, low, high, moves, count + 2, count, count + 1, index)
