"""What lockstep saves, measured (not tested): a user's context-reading strategy against optimal,
its games played game by game, in this process and in its host (--isolate), each way in one run:
the games one after another (the loop kept here: a hosted strategy asked one round trip per
turn) and in lockstep (one round trip per step of the unit's games). Best of --repeats, the ways
alternating so that load changes hit them alike; the hosts start before the clock does.

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
from tournaments.playing.tally import Tally, count_game
from tournaments.playing.units import UnitPlayer, UnitResult
from tournaments.referee.isolation import Host

READER = '''
from strategies import Strategy


class Reader(Strategy):
    """Takes the lowest tiles once a score is posted this round, else the highest."""

    name = "reader"
    reads_context = True

    def choose_move(self, view):
        return view.legal_moves[0 if view.context.score_to_beat is not None else -1]
'''


def one_by_one(player: UnitPlayer, unit: WorkUnit) -> UnitResult:
    """A game-by-game unit as it was played before lockstep: each game to its end, then the next."""
    player._fresh.clear()
    (index,) = unit.matchups
    matchup = player.plan.matchups[index]
    seats = [player._seat(strategy) for strategy in matchup.players]
    tallies = [Tally() for _ in seats]
    slots = list(player.plan.games(unit))
    for slot in slots:
        count_game(player.play_game(matchup, slot, seats), tallies, player.unit)
    return UnitResult({index: tallies}, len(slots), unit.number)


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
        players = {}
        for isolate in (False, True):
            options = Options(
                strategies=[f"{reader}:Reader", "optimal"], games=arguments.games, seed=1, isolate=isolate
            )
            players[isolate] = UnitPlayer(make_plan(load_config(None, options)))
        ways: dict[str, tuple[UnitPlayer, Callable[[UnitPlayer, WorkUnit], UnitResult]]] = {
            "in this process, one game after another": (players[False], one_by_one),
            "in this process, lockstep": (players[False], UnitPlayer.play),
            "--isolate, one game after another (a round trip a turn)": (players[True], one_by_one),
            "--isolate, lockstep (a round trip a step)": (players[True], UnitPlayer.play),
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
    before, after = best[list(ways)[2]], best[list(ways)[3]]
    print(f"--isolate: lockstep is {before / after:.1f}x as fast as a round trip a turn;")
    print(f"  --isolate with lockstep takes {after / best[list(ways)[1]]:.1f}x the time in this process")


if __name__ == "__main__":
    main()
