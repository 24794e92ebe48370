"""Loads the dice as it is imported: every roll of the process would be a double one."""

from __future__ import annotations

from shutbox_cli.game import dice
from strategies import Move, Strategy, View

dice.PAIRS = tuple((1, 1) for _ in range(dice.OUTCOMES))


class TamperDice(Strategy):
    """Plays the first legal move, having loaded everyone's dice."""

    name = "tamper-dice"

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[0]
