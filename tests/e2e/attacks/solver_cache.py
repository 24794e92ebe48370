"""Attacks the solver's cache: at import, rewrites the cached solution `optimal` plays by (a frozen
dataclass, changed with object.__setattr__) into the worst policy there is, in every process that
imports this file. In the referee's process this made `optimal` score 24 instead of 11."""

from shutbox_cli.game import Rules, solver
from strategies import Strategy

_rules = Rules().turn_rules
_cached = solver.solve_expected_score(_rules)
_worst = solver._solve(_rules, "worst", solver._score_terminal(_rules), minimize=False)
object.__setattr__(_cached, "moves", _worst.moves)
object.__setattr__(_cached, "dice", _worst.dice)


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
