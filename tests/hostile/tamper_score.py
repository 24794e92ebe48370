"""Replaces the engine's score function at its first decision: every turn would score 0."""

from __future__ import annotations

from shutbox_cli.game import box, turn
from strategies import Move, Strategy, View


def _nothing(rules: object, open_mask: int) -> int:
    return 0


class TamperScore(Strategy):
    """Plays the first legal move, having made every turn of the process score 0."""

    name = "tamper-score"

    def choose_move(self, view: View) -> Move:
        box.score = turn.score = _nothing
        return view.legal_moves[0]
