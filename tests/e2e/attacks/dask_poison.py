"""Attacks the next run on a Dask cluster: a daemon thread started at import waits two seconds
(past this run's checks), then keeps rewriting the cached solution `optimal` plays by into the
worst policy, for as long as the process it was imported in lives: on a worker that outlives the
run, a later run's built-ins play badly."""

import threading
import time

from shutbox_cli.game import Rules, solver
from strategies import Strategy


def _poison():
    time.sleep(2)
    rules = Rules().turn_rules
    worst = solver._solve(rules, "worst", solver._score_terminal(rules), minimize=False)
    while True:
        cached = solver.solve_expected_score(rules)
        object.__setattr__(cached, "moves", worst.moves)
        object.__setattr__(cached, "dice", worst.dice)
        time.sleep(0.1)


threading.Thread(target=_poison, daemon=True).start()


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
