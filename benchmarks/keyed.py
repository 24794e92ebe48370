"""Keyed strategies in bulk, measured (not tested): games per CPU-second of `target` + optimal and
of a user's keyed strategy + optimal (one-round games, -j 1, tables built in the run), here and in
another checkout (before keys: there they play game by game), side by side in one run.

Each figure is one fresh process's `tournaments.run`, its processor time and its children's (the
user strategy's host) counted; imports are not. The other checkout runs the same strategy file: it
reads the score to beat from the whole context where keys do not exist.

Run: python benchmarks/keyed.py --base PATH [--games 300000] [--base-games 20000]
(PATH: a checkout from before keys, e.g. `git archive BASE_COMMIT | tar -x -C PATH`; it runs on this
interpreter with PATH first on its import path, or on PATH/.venv's python where there is one).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KEYED = '''
from strategies import Strategy

KEYS = hasattr(Strategy, "key_under")


class Chaser(Strategy):
    """Shuts few tiles until a score of 10 or less is posted, then the highest tiles it can."""

    name = "chaser"
    key = ("to_beat",)
    reads_context = not KEYS  # before keys: it reads the whole context

    def choose_move(self, view):
        to_beat = view.context.to_beat if KEYS else view.context.score_to_beat
        if to_beat is None or to_beat > 10:
            return max(view.legal_moves, key=lambda move: (-len(move), move[::-1]))
        return max(view.legal_moves, key=lambda move: (move[-1], -len(move)))
'''

CASES = {"target + optimal": ("target", "optimal"), "keyed user strategy + optimal": ("{file}:Chaser", "optimal")}


def cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(case: str, games: int, file: str) -> None:
    """Print this checkout's games per CPU-second for one case (run in a process of its own)."""
    from tournaments import Options, load_config, run

    field = [spec.format(file=file) for spec in CASES[case]]
    config = load_config(None, Options(strategies=field, games=games, seed=1, workers=1))
    start, wall = cpu(), time.perf_counter()
    summary = run(config)
    used = cpu() - start
    played = sum(standing.games for standing in summary.ranking) // 2
    print(f"{played} {used:.3f} {time.perf_counter() - wall:.3f}")


def rate(python: str, root: Path, case: str, games: int, file: str) -> tuple[float, float]:
    done = subprocess.run(
        [python, str(Path(__file__).resolve()), "--measure", case, "--games", str(games), "--file", file],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        check=True,
    )
    played, used, _ = done.stdout.split()
    return int(played) / float(used), float(used)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300_000, help="games per run here")
    parser.add_argument("--base-games", type=int, default=20_000, help="games per run in the other checkout")
    parser.add_argument("--base", type=Path, help="a checkout from before keys (required)")
    parser.add_argument("--measure", choices=CASES, help=argparse.SUPPRESS)
    parser.add_argument("--file", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure(args.measure, args.games, args.file)
        return
    if args.base is None:
        parser.error("--base PATH is required: a checkout from before keys to measure against.")
    here = Path(__file__).resolve().parents[1]
    venv = args.base / ".venv" / "bin" / "python"
    base_python = str(venv) if venv.exists() else sys.executable
    with tempfile.TemporaryDirectory() as folder:
        file = str(Path(folder) / "chaser.py")
        Path(file).write_text(KEYED)
        print(f"{'case':<30} {'before':>14} {'keyed':>14} {'ratio':>7}   (games per CPU-second)")
        for case in CASES:
            before, _ = rate(base_python, args.base, case, args.base_games, file)
            now, _ = rate(sys.executable, here, case, args.games, file)
            print(f"{case:<30} {before:>14,.0f} {now:>14,.0f} {now / before:>6.1f}x")


if __name__ == "__main__":
    main()
