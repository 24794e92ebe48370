"""Patches `random.Random.random` as it is imported, so every generator of the process answers 0."""

from __future__ import annotations

import random

from strategies import Move, Strategy, View

random.Random.random = lambda self: 0.0  # type: ignore[method-assign]


class TamperRandom(Strategy):
    """Plays the first legal move, having changed everyone's random numbers."""

    name = "tamper-random"

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[0]
