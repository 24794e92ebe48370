"""Start-up time, measured (not tested): `shutbox --version`, `--help` and a command's `--help`,
each run many times as a fresh process (like hyperfine), beside `python -c pass` and a bare
`import typer` for scale. Also lists the heavy modules each one imports.

Run: python benchmarks/startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

SHUTBOX = str(Path(sys.executable).parent / "shutbox")
HEAVY = ("pydantic", "rich.markdown", "numpy", "tournaments", "strategies.loading", "multiprocess")
"""Modules whose import costs tens of milliseconds: which of them each command loads."""
COMMANDS: dict[str, list[str]] = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "python -c 'import typer'": [sys.executable, "-c", "import typer"],
    "shutbox --version": [SHUTBOX, "--version"],
    "shutbox --help": [SHUTBOX, "--help"],
    "shutbox tournament --help": [SHUTBOX, "tournament", "--help"],
    "shutbox rules": [SHUTBOX, "rules"],
}


def run_times(command: list[str], runs: int) -> list[float]:
    """Wall-clock seconds of `runs` runs, after one warm-up run."""
    env = {**os.environ, "COLUMNS": "80"}
    subprocess.run(command, stdout=subprocess.DEVNULL, env=env, check=True)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, env=env, check=True)
        times.append(time.perf_counter() - start)
    return times


def heavy_imports(command: list[str]) -> list[str]:
    """The HEAVY modules the command imports (from `python -X importtime`)."""
    if command[0] != SHUTBOX:
        return []
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "shutbox_cli", *command[1:]],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "80"},
        check=True,
    )
    loaded = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    return [module for module in HEAVY if module in loaded]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs of each command [20]")
    args = parser.parse_args()
    results = {name: run_times(command, args.runs) for name, command in COMMANDS.items()}
    base = statistics.median(results["python -c pass"])
    print(f"{args.runs} runs each, after a warm-up; seconds; ratio: median over python -c pass's")
    print(f"{'command':28} {'mean':>7} {'± sd':>7} {'median':>7} {'min':>7} {'ratio':>6}  heavy imports")
    for name, times in results.items():
        median = statistics.median(times)
        heavy = ", ".join(heavy_imports(COMMANDS[name])) or "-"
        print(
            f"{name:28} {statistics.mean(times):7.3f} {statistics.stdev(times):7.3f} {median:7.3f} "
            f"{min(times):7.3f} {median / base:6.1f}  {heavy}"
        )


if __name__ == "__main__":
    main()
