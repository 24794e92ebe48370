"""Rewrites, as its module loads, the solver's cached solution for the default rules: `optimal`
would then play max-shut's moves in any process that loaded this module."""

from __future__ import annotations

from shutbox_cli.game import Rules, solve_expected_score, solve_shut
from strategies import Move, Strategy, View

object.__setattr__(solve_expected_score(Rules()), "moves", solve_shut(Rules()).moves)


class PatchSolver(Strategy):
    """Plays the first legal move, having changed how `optimal` plays."""

    name = "patch-solver"

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[0]
