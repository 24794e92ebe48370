"""Processor time of whole commands (issue 21's start-up targets), measured (not tested): the
default `shutbox tournament`, `shutbox strategies` and `shutbox analyze optimal`, each run as a
fresh process, this checkout's `shutbox` and another's (`--against`, say a checkout of the
previous release) taking turns, so that both meet the same load. CPU-s is user + system time of
the command and every process it waited for (`getrusage` of the children); the median of the runs.

Both run with their compiled bytecode kept in one temporary folder (PYTHONPYCACHEPREFIX), as an
installed package has it, whether or not the environment forbids writing it; `--no-bytecode` runs
them without (PYTHONDONTWRITEBYTECODE), compiling every module of the checkout on every run, as a
checkout never compiled does.

Run: python benchmarks/command_cpu.py [--against path/to/other/venv/bin/shutbox] [--runs N]

Measured for issue 21 against a checkout from before issue 20, 9 runs each, on a 2-core machine
under a load average of 3-5 (CPU-s, this / other): default tournament 0.598 / 0.855, strategies
0.172 / 0.270, analyze optimal 0.256 / 0.365; at a load of 3.5, 0.540 / 0.768, 0.160 / 0.247,
0.265 / 0.365; `--no-bytecode`, 5 runs: 0.710 / 0.985, 0.225 / 0.328, 0.360 / 0.441.
Issue 21's start-up work (lazy Dask, pool, exact and report modules; an exit without the
interpreter's tidying up) against the commit before it, 7 runs each at a load of 3-6: 0.378 /
0.495, 0.164 / 0.211, 0.331 / 0.448.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

SHUTBOX = str(Path(sys.executable).parent / "shutbox")
COMMANDS: dict[str, tuple[list[str], float | None]] = {
    "shutbox tournament": (["tournament"], 0.5),
    "shutbox strategies": (["strategies"], 0.25),
    "shutbox analyze optimal": (["analyze", "optimal"], None),
}
"""Each command's arguments and its target in CPU-s (None: no slower than the other checkout)."""


def cpu_seconds(command: list[str], env: dict[str, str]) -> float:
    """User + system seconds of one run of the command and of the processes it waited for."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", help="another checkout's shutbox console script, run in turn with this one")
    parser.add_argument("--runs", type=int, default=9, help="runs of each command by each shutbox [9]")
    parser.add_argument("--no-bytecode", action="store_true", help="write no compiled bytecode (see above)")
    args = parser.parse_args()
    scripts = {"this": SHUTBOX, **({"other": args.against} if args.against else {})}
    with tempfile.TemporaryDirectory() as cache:
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")
        }
        env.update({"PYTHONDONTWRITEBYTECODE": "1"} if args.no_bytecode else {"PYTHONPYCACHEPREFIX": cache})
        env["COLUMNS"] = "80"
        bytecode = "without compiled bytecode" if args.no_bytecode else "with compiled bytecode"
        print(f"median CPU-s of {args.runs} runs each, after a warm-up, {bytecode}; the shutboxes take turns")
        print(f"{'command':26} " + " ".join(f"{name:>7}" for name in scripts) + "   target")
        for name, (arguments, target) in COMMANDS.items():
            for script in scripts.values():
                cpu_seconds([script, *arguments], env)  # warm-up: writes the bytecode
            times: dict[str, list[float]] = {key: [] for key in scripts}
            for _ in range(args.runs):
                for key, script in scripts.items():
                    times[key].append(cpu_seconds([script, *arguments], env))
            medians = " ".join(f"{statistics.median(times[key]):7.3f}" for key in scripts)
            wanted = f"<= {target}" if target is not None else "<= other"
            print(f"{name:26} {medians}   {wanted}")


if __name__ == "__main__":
    main()
