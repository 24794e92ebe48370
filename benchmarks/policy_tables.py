"""What a trained policy costs to tabulate beside the same table written as a plain strategy,
measured (not tested).

Tabulates (asks every box and roll once, as an exact strategy's table is built) the test data's
policy three ways, side by side, interleaved, best of --repeats: as a plain strategy
(`highest_move.py:HighestMove`), as a policy function (`highest_move.py:act`, through the encoding)
and as an ONNX model (`highest_move.onnx`, through onnxruntime); and the guide's trained agent
(`examples/rl/ppo.onnx`, a 64x64 network). Prints each one's seconds a table and its ratio to the
plain strategy's, with the load. Needs onnxruntime (the rl extra).

Run: python benchmarks/policy_tables.py [--repeats R]
"""

from __future__ import annotations

import argparse
import os
import time

from shutbox_cli.game import Rules
from strategies.player import StrategyPlayer
from strategies.runner import load_strategy

DATA = "tests/data/policies"
SPECS = {
    "plain strategy": f"{DATA}/highest_move.py:HighestMove",
    "policy function": f"{DATA}/highest_move.py:act",
    "ONNX model": f"{DATA}/highest_move.onnx",
    "trained agent (ONNX)": "examples/rl/ppo.onnx",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    arguments = parser.parse_args()
    rules = Rules()
    loaded = {label: load_strategy(spec) for label, spec in SPECS.items()}
    best = dict.fromkeys(SPECS, float("inf"))
    print(f"load before: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
    for _ in range(arguments.repeats):
        for label, strategy in loaded.items():
            started = time.perf_counter()
            player = StrategyPlayer(strategy.make(), rules)
            player.policy  # noqa: B018  # the table, built here
            best[label] = min(best[label], time.perf_counter() - started)
    plain = best["plain strategy"]
    for label, seconds in best.items():
        print(f"{label:<22} {seconds * 1000:9.1f} ms a table  {seconds / plain:6.1f}x the plain strategy's")
    print(f"load after:  {' '.join(f'{value:.2f}' for value in os.getloadavg())}")


if __name__ == "__main__":
    main()
