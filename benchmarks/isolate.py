"""What --isolate costs, measured (not tested): small tournaments with users' strategies through
the real command, with and without --isolate, at -j 1 and -j 2, best of --repeats.

1. examples/cautious.py (exact: tabulated once in its host) with the default field.
2. Three users' strategies that are asked turn by turn (one reads the game context, one is
   stochastic, one uses the global random generator) with optimal and random.

Run: python benchmarks/isolate.py [--repeats R] [--games N]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import best_seconds

ROOT = Path(__file__).resolve().parent.parent
ASKED = """
import random

from strategies import Strategy


class Reader(Strategy):
    name = "reader"
    reads_context = True

    def choose_move(self, view):
        if view.context.score_to_beat is not None and len(view.turn) > 1:
            return view.legal_moves[-1]
        return view.legal_moves[0]


class Dicey(Strategy):
    name = "dicey"
    stochastic = True

    def choose_move(self, view):
        return self.rng.choice(view.legal_moves)


class Secret(Strategy):
    name = "secret"

    def choose_move(self, view):
        return random.choice(view.legal_moves)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", type=int, default=2000)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asked = Path(folder) / "asked.py"
        asked.write_text(ASKED)
        fields = {
            "cautious + the default field": [
                f"{ROOT / 'examples' / 'cautious.py'}:Cautious",
                "greedy-high",
                "optimal",
                "max-shut",
                "tips",
                "random",
                "fewest-tiles",
            ],
            "reader, dicey, secret + optimal, random": [f"{asked}:{name}" for name in ("Reader", "Dicey", "Secret")]
            + ["optimal", "random"],
        }
        for title, specs in fields.items():
            for workers in ("1", "2"):
                command = [sys.executable, "-m", "shutbox_cli", "tournament", "-q", "--seed", "1", "-j", workers]
                command += ["-n", str(arguments.games)] + [part for spec in specs for part in ("-s", spec)]

                def run(extra: list[str], command: list[str] = command) -> None:
                    subprocess.run(command + extra, cwd=ROOT, check=True, capture_output=True)

                shared = best_seconds(lambda: run([]), arguments.repeats)
                isolated = best_seconds(lambda: run(["--isolate"]), arguments.repeats)
                print(
                    f"{title}, {arguments.games:,} games a matchup, -j {workers}: {shared:.2f} s, "
                    f"--isolate {isolated:.2f} s ({isolated / shared:.1f}x)"
                )


if __name__ == "__main__":
    main()
