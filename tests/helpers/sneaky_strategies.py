"""Strategies that break the contract their classes declare, or lean on the global random
generator, for the tests of `shutbox check`, `strategies.testing` and the engine's guard: each
is loaded by path, `tests/helpers/sneaky_strategies.py:Name`, as a writer's own file would be."""

from __future__ import annotations

import random

from strategies import Move, Strategy, View


class SneakyRandom(Strategy):
    """Picks at random with the module-level generator instead of declaring stochastic = True."""

    name = "sneaky-random"

    def choose_move(self, view: View) -> Move:
        return random.choice(view.legal_moves)

    def choose_dice(self, view: View) -> int:
        return random.choice(view.dice_options)


class SneakyContext(Strategy):
    """Plays for the lowest tiles once a score is posted, without declaring reads_context = True."""

    name = "sneaky-context"

    def choose_move(self, view: View) -> Move:
        if view.context.score_to_beat is not None:
            return view.legal_moves[-1]
        return view.legal_moves[0]


class SneakyTurn(Strategy):
    """Plays otherwise after the first roll of its turn, without declaring reads_context = True."""

    name = "sneaky-turn"

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[-1] if view.turn else view.legal_moves[0]


class HiddenState(Strategy):
    """Counts the questions it is asked and lets the count choose: a state kept between calls."""

    name = "hidden-state"

    def __init__(self) -> None:
        self.asked = 0

    def choose_move(self, view: View) -> Move:
        self.asked += 1
        return view.legal_moves[self.asked % len(view.legal_moves)]


class DeclaredRandom(Strategy):
    """Declares stochastic = True but draws from the module-level generator, not self.rng."""

    name = "declared-random"
    stochastic = True

    def choose_move(self, view: View) -> Move:
        return random.choice(view.legal_moves)


class ContextRandom(Strategy):
    """Declares reads_context = True and, once a score is posted, picks with the module-level generator."""

    name = "context-random"
    reads_context = True

    def choose_move(self, view: View) -> Move:
        if view.context.score_to_beat is None:
            return view.legal_moves[0]
        return random.choice(view.legal_moves)
