"""What making `target`'s tables costs, measured (not tested): the policies to win it asks for in an
exact tournament against `optimal` (2 rounds, or drop-out at 45), each solved and walked to its score
distribution by the solver's plain loop and by its pass a layer of boxes at a time, side by side on
the same utilities, with the machine's load; then the exact tournament itself, timed whole.

Run: python benchmarks/target_tables.py [--format rounds|drop-out] [--sample 300]
"""

from __future__ import annotations

import argparse
import os
import random
import time

from shutbox_cli.game import Rules, distribution, solver
from tournaments import Options, load_config, run

FORMATS = {"rounds": {"rounds": 2}, "drop-out": {"drop_out": 45}}


def asked(rules: dict[str, int]) -> tuple[float, list[tuple[float, ...]]]:
    """The seconds an exact tournament of target and optimal takes, and the utilities target asked for."""
    found: list[tuple[float, ...]] = []
    plain = solver.solve_win

    def recorded(turn_rules: Rules, name: str, utility: tuple[float, ...]) -> solver.Solution:
        found.append(utility)
        return plain(turn_rules, name, utility)

    solver.solve_win = recorded  # type: ignore[assignment]
    try:
        start = time.perf_counter()
        run(load_config(None, Options(strategies=("target", "optimal"), method="exact", rules=rules)))
        return time.perf_counter() - start, found
    finally:
        solver.solve_win = plain


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", choices=FORMATS, default="drop-out")
    parser.add_argument("--sample", type=int, default=300, help="utilities timed each way")
    args = parser.parse_args()
    seconds, utilities = asked(FORMATS[args.format])
    print(f"load {os.getloadavg()[0]:.2f}; exact tournament ({args.format}): {seconds:.2f} s, {len(utilities)} tables")
    rules = Rules().turn_rules
    sample = random.Random(1).sample(utilities, min(args.sample, len(utilities)))
    scores = tuple(float(solver.score(rules, mask)) for mask in range(rules.full_box + 1))
    start = time.perf_counter()
    for utility in sample:
        found = solver._solve(rules, "win", utility, minimize=False, tiebreak=scores)
        distribution(rules, found.best_move, found.best_dice)
    plain = (time.perf_counter() - start) / len(sample)
    solver._solve_win.cache_clear()
    start = time.perf_counter()
    for utility in sample:
        solver.solution_distribution(solver._solve_win(rules, "win", utility))
    layered = (time.perf_counter() - start) / len(sample)
    print(f"a table, solved and walked: plain loop {1000 * plain:.2f} ms, by layers {1000 * layered:.2f} ms, "
          f"ratio {plain / layered:.1f}; load {os.getloadavg()[0]:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
