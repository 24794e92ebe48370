"""What the referee costs, measured (not tested): whole `shutbox tournament` commands in this
checkout and in a baseline checkout (an earlier commit), side by side, alternating, the best of
several runs each, as ratios. Here a user's strategy always runs in a host process of its own; a
baseline from before that is also run with --isolate, where it had one.

- built-ins only, -j 1: plays in this process;
- a user's exact strategy with the default field, -j 1: tabulated once in its host;
- a user's context-reading strategy, -j 2: every turn asked of its host.

Run: python benchmarks/referee.py --baseline PATH [--repeats R] [--games N]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
READER = (Path(__file__).parent / "reader.py").read_text()
"""The context-reading strategy a user might write (benchmarks/reader.py), written where a run finds it."""


def seconds(folder: Path, arguments: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "shutbox_cli", "tournament", *arguments], cwd=folder, check=True, capture_output=True
    )
    return time.perf_counter() - start


def best_side_by_side(folders: list[Path], arguments: list[str], repeats: int) -> list[float]:
    """The best time of each folder, runs alternating so load changes hit both alike."""
    best = [float("inf")] * len(folders)
    for _ in range(repeats):
        for index, folder in enumerate(folders):
            best[index] = min(best[index], seconds(folder, arguments))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="a checkout of an earlier commit")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", type=int, default=2000)
    options = parser.parse_args()
    reader = Path("/tmp/shutbox_bench_reader.py")
    reader.write_text(READER)
    cautious = str(ROOT / "examples" / "cautious.py") + ":Cautious"
    common = ["--seed", "1", "-q", "-n", str(options.games)]
    cases = {
        "built-ins only, -j 1": [*common, "-j", "1"],
        "user exact strategy + default field, -j 1": [
            *common,
            "-j",
            "1",
            "-s",
            cautious,
            "-s",
            "optimal",
            "-s",
            "greedy-high",
            "-s",
            "tips",
            "-s",
            "random",
        ],
        "user context-reading strategy, -j 2": [
            *common,
            "-j",
            "2",
            "-s",
            f"{reader}:Reader",
            "-s",
            "optimal",
            "-s",
            "tips",
        ],
    }
    isolates = (
        "--isolate"
        in subprocess.run(
            [sys.executable, "-m", "shutbox_cli", "tournament", "--help"],
            cwd=options.baseline,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    print(
        f"{'case':48} {'now':>8} {'baseline':>9} {'now/baseline':>13}"
        + (f" {'--isolate':>10} {'now/it':>7}" * isolates)
    )
    for title, arguments in cases.items():
        now, before = best_side_by_side([ROOT, options.baseline], arguments, options.repeats)
        line = f"{title:48} {now:7.2f}s {before:8.2f}s {now / before:12.2f}x"
        if isolates and title != "built-ins only, -j 1":
            isolated = min(seconds(options.baseline, [*arguments, "--isolate"]) for _ in range(options.repeats))
            line += f" {isolated:9.2f}s {now / isolated:6.2f}x"
        print(line)


if __name__ == "__main__":
    main()
