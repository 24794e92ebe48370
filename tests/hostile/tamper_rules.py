"""Sets the rules' scoring through `object.__setattr__` at its first decision: every game in the
process would then score by the count of open tiles."""

from __future__ import annotations

from strategies import Move, Strategy, View


class TamperRules(Strategy):
    """Plays the first legal move, having changed the rules everyone plays under."""

    name = "tamper-rules"

    def choose_move(self, view: View) -> Move:
        object.__setattr__(view.rules, "scoring", "count")
        return view.legal_moves[0]
