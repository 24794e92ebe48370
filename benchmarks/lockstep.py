"""What playing a unit's games side by side saves, measured (not tested): a user's context-reading
strategy (in its host) against optimal, its games played game by game, each way in one run: the
reference one game after another (`UnitPlayer.one_after_another`: one round trip per turn), the
reference side by side (`reference`, as `--general-engine` plays) and the array engine (`bulk`,
the strategy asked with its context: `asked`), both one round trip per step of the unit's games.
Best of --repeats, the ways alternating so that load changes hit them alike; the hosts start before the clock does.

Run: python benchmarks/lockstep.py [--repeats R] [--games N]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tournaments import Options, load_config
from tournaments.playing.plan import WorkUnit, make_plan
from tournaments.playing.units import UnitPlayer, UnitResult
from tournaments.referee.isolation import Host

READER = (Path(__file__).parent / "reader.py").read_text()
"""The context-reading strategy a user might write (benchmarks/reader.py), written where a run finds it."""


def every_unit(player: UnitPlayer, play: Callable[[UnitPlayer, WorkUnit], UnitResult]) -> list[UnitResult]:
    return [play(player, unit) for unit in player.plan.units()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", type=int, default=2000)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        reader = Path(folder) / "reader.py"
        reader.write_text(READER)
        config = load_config(None, Options(strategies=[f"{reader}:Reader", "optimal"], games=arguments.games, seed=1))
        players = {bulk: UnitPlayer(make_plan(config, bulk=bulk)) for bulk in (False, True)}
        ways: dict[str, tuple[UnitPlayer, Callable[[UnitPlayer, WorkUnit], UnitResult]]] = {
            "one game after another (a round trip a turn)": (players[True], UnitPlayer.one_after_another),
            "the reference side by side (a round trip a step)": (players[False], UnitPlayer.play),
            "the array engine (a round trip a step)": (players[True], UnitPlayer.play),
        }
        results = {title: every_unit(player, play) for title, (player, play) in ways.items()}
        assert all(found == results[next(iter(results))] for found in results.values()), "the ways disagree"
        best = dict.fromkeys(ways, float("inf"))
        for _ in range(arguments.repeats):
            for title, (player, play) in ways.items():
                start = time.perf_counter()
                every_unit(player, play)
                best[title] = min(best[title], time.perf_counter() - start)
        for player in players.values():
            for loaded in player.loaded:
                if isinstance(loaded, Host):
                    loaded.stop()
    games = players[False].plan.total_games
    print(f"reader vs optimal, {games:,} games played game by game (best of {arguments.repeats})")
    for title, seconds in best.items():
        print(f"  {title:58} {seconds:7.3f} s  {games / seconds:9,.0f} games/s")
    alone, side_by_side, arrays = best.values()
    print(
        f"side by side is {alone / side_by_side:.1f}x as fast as a round trip a turn, "
        f"the array engine {alone / arrays:.1f}x"
    )


if __name__ == "__main__":
    main()
