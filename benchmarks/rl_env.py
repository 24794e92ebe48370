"""What the reinforcement learning environments cost beside shutbox's own play, measured (not tested).

Plays the same games of one seed three ways, side by side, interleaved, best of --repeats: optimal
through the Gymnasium environment (its table's answers read from each observation), optimal through
the PettingZoo table at two seats, and shutbox's own play of the same turns (`play_turn`, the
general engine). Prints each one's turns a second and its ratio to shutbox's own, with the load.
Needs the rl extra.

Run: python benchmarks/rl_env.py [--games N] [--repeats R]
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

from shutbox_cli.game import Rules, play_turn, turn_rolls
from strategies.encoding import Encoding
from strategies.table import PolicyTable
from tournaments import seat_strategy
from tournaments.rl.env import ShutTheBoxEnv
from tournaments.rl.multi import ShutTheBoxAEC

SEED = 1


def table_policy(coded: Encoding, table: PolicyTable) -> Callable[[Any, Any], int]:
    """A table's answer to each question, read from the observation alone (as tests/helpers/rl_play.py)."""
    tiles = coded.rules.tiles

    def act(observation: Any, mask: Any) -> int:
        box = sum(1 << bit for bit in range(tiles) if observation[bit])
        phase, die_1, die_2 = observation[tiles : tiles + 3].tolist()
        if phase == 0:
            return coded.action_of_dice(table.dice_count(box))
        return coded.action_of_move(table.move(box, (die_1, die_2) if die_2 else (die_1,)))

    return act


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--repeats", type=int, default=3)
    arguments = parser.parse_args()
    games, rules = arguments.games, Rules()
    optimal = seat_strategy("optimal", rules)
    player = optimal.player()
    solo, table = ShutTheBoxEnv(rules), ShutTheBoxAEC(rules, players=2)
    policy = table_policy(solo.coded, optimal.table)

    def shutbox() -> int:
        for game in range(games):
            play_turn(rules, turn_rolls(SEED, game, 0, 0), player)
        return games

    def gymnasium() -> int:
        for game in range(games):
            observation, info = solo.reset(seed=SEED, options={"game": game})
            over = False
            while not over:
                observation, _, over, _, info = solo.step(policy(observation, info["action_mask"]))
        return games

    def pettingzoo() -> int:
        turns = 0
        for game in range(games // 2):
            table.reset(seed=SEED, options={"game": game})
            for _ in table.agent_iter():
                observed, _, over, truncated, info = table.last()
                turns += "score" in info
                table.step(None if over or truncated else policy(observed["observation"], observed["action_mask"]))
        return turns

    ways: dict[str, Callable[[], int]] = {"shutbox": shutbox, "gymnasium": gymnasium, "pettingzoo": pettingzoo}
    best = dict.fromkeys(ways, 0.0)
    print(f"load average before: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    for _ in range(arguments.repeats):
        for name, way in ways.items():
            start = time.perf_counter()
            turns = way()
            best[name] = max(best[name], turns / (time.perf_counter() - start))
    print(f"load average after: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    print(f"optimal, {games:,} games of seed {SEED}, standard rules, best of {arguments.repeats}:")
    for name, rate in best.items():
        print(f"  {name:<11} {rate:>10,.0f} turns/s   {rate / best['shutbox']:.2f} x shutbox's own play")


if __name__ == "__main__":
    main()
