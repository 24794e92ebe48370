"""Policies that play the reinforcement learning environments from their observations alone (a
shutbox table's answers, or uniformly random legal actions), and a strategy's exact expected score
where shutbox has none (`random`: it averages over its choices)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from shutbox_cli.game import Rules, dice_options, legal_moves, score
from shutbox_cli.game.moves import THROWS, throw_probability
from strategies.encoding import Encoding
from strategies.table import PolicyTable

Policy = Callable[[np.ndarray[Any, Any], np.ndarray[Any, Any]], int]
"""An action for an observation and its action mask."""


def table_policy(coded: Encoding, table: PolicyTable) -> Policy:
    """A shutbox table's answer to each question, read from the observation alone."""
    tiles = coded.rules.tiles

    def act(observation: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> int:
        shown = coded.describe(observation)
        box = sum(1 << (tile - 1) for tile in range(1, tiles + 1) if shown[f"tile_{tile}"])
        if shown["phase"] == 0:
            return coded.action_of_dice(table.dice_count(box))
        dice = tuple(shown[name] for name in ("die_1", "die_2") if shown[name])
        return coded.action_of_move(table.move(box, dice))

    return act


def random_policy(seed: int) -> Policy:
    """A uniformly random legal action, drawn from a generator of this seed."""
    rng = np.random.default_rng(seed)
    return lambda observation, mask: int(rng.choice(np.flatnonzero(mask)))


def random_expected_score(rules: Rules) -> float:
    """The exact expected score of a turn played by uniformly random legal choices (of dice where
    the rules give one, of moves where a roll has several)."""

    @functools.cache
    def value(box: int) -> float:
        if box == 0:
            return 0.0
        options = dice_options(rules, box)
        total = 0.0
        for count in options:
            for throw in (throw for throw in THROWS if len(throw) == count):
                moves = legal_moves(rules, box, throw)
                after = sum(value(box & ~move) for move in moves) / len(moves) if moves else score(rules, box)
                total += throw_probability(throw) * after
        return total / len(options)

    return value(rules.full_box)
