"""What tamper detection costs, measured (not tested): the bulk units of a field with a user's
strategy (examples/cautious.py and the default field, 20,000 games a matchup) played with the
check after each unit and without it, side by side in one process, best of --repeats; and one
check on its own.

Run: python benchmarks/tamper.py [--repeats R]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from timing import best_seconds

from tournaments import Options, load_config
from tournaments.field.entries import DEFAULT_FIELD
from tournaments.playing.plan import make_plan
from tournaments.playing.units import UnitPlayer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    repeats = parser.parse_args().repeats
    cautious = Path(__file__).resolve().parent.parent / "examples" / "cautious.py"
    specs = [f"{cautious}:Cautious", *DEFAULT_FIELD]
    plan = make_plan(load_config(None, Options(strategies=specs, games=20_000, seed=1)))
    units = [unit for unit in plan.units() if unit.bulk]
    player = UnitPlayer(plan)
    checked = player.fingerprint
    for unit in units[:2]:  # the exact strategies' tables are built once, not timed
        player.play(unit)

    def play_all() -> None:
        for unit in units:
            player.play(unit)

    def timed(fingerprint: object) -> float:
        player.fingerprint = fingerprint  # type: ignore[assignment]
        return best_seconds(play_all, repeats) / len(units)

    with_check, without = [], []
    for _ in range(3):  # interleaved, so a busy moment weighs on both alike
        with_check.append(timed(checked))
        without.append(timed(None))
    player.fingerprint = checked
    check = best_seconds(lambda: player.check(units[0]), 200)
    games = units[0].deals * plan.table * len(units[0].matchups)
    print(f"{len(units)} bulk units of {games:,} games, {len(specs)} strategies, one a user's")
    print(f"per bulk unit: {min(with_check) * 1e3:.1f} ms checked, {min(without) * 1e3:.1f} ms unchecked")
    print(f"one check: {check * 1e3:.3f} ms ({check / min(without):.2%} of a unit)")


if __name__ == "__main__":
    main()
