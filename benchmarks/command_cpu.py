"""Processor time of whole commands (issue 21's start-up targets), measured (not tested): the
default `shutbox tournament`, `shutbox strategies` and `shutbox analyze optimal`, each run as a
fresh process, this checkout's `shutbox` and another's (`--against`, say a checkout of the
previous release) taking turns, so that both meet the same load. CPU-s is user + system time of
the command and every process it waited for (`getrusage` of the children); the median of the runs.

Both run with their compiled bytecode kept in one temporary folder (PYTHONPYCACHEPREFIX), as an
installed package has it, whether or not the environment forbids writing it; `--no-bytecode` runs
them without (PYTHONDONTWRITEBYTECODE), compiling every module of the checkout on every run, as a
checkout never compiled does.

Run: python benchmarks/command_cpu.py [--against path/to/other/venv/bin/shutbox] [--runs N] [--long]

Measured for issue 21 against a checkout from before issue 20, 9 runs each, on a 2-core machine
under a load average of 3-5 (CPU-s, this / other): default tournament 0.598 / 0.855, strategies
0.172 / 0.270, analyze optimal 0.256 / 0.365; at a load of 3.5, 0.540 / 0.768, 0.160 / 0.247,
0.265 / 0.365; `--no-bytecode`, 5 runs: 0.710 / 0.985, 0.225 / 0.328, 0.360 / 0.441.
Issue 21's start-up work (lazy Dask, pool, exact and report modules; an exit without the
interpreter's tidying up) against the commit before it, 7 runs each at a load of 3-6: 0.378 /
0.495, 0.164 / 0.211, 0.331 / 0.448.
Its second pass (plain numbers, paths, choices and texts converted without typer's validation
library; a run builds its one command alone; a simulated run loads no exact or match modules)
against the commit before it, 7 runs each at a load of 2-3: default tournament 0.319 / 0.353,
strategies 0.135 / 0.146, analyze optimal 0.250 / 0.292, reader + optimal 0.692 / 0.802, its
2 games 0.380 / 0.483, the exact field's 100 games 0.236 / 0.330, match 0.219 / 0.312; the
3M-game exact field (`--long`, 5 runs) 2.10 / 2.39. Against the checkout from before issue 20:
0.314 / 0.850, 0.145 / 0.287, 0.270 / 0.385, 0.783 / 1.756, 0.459 / 1.251, 0.310 / 0.893 (it has
no `match`).
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
READER = f"{Path(__file__).parent / 'reader.py'}:Reader"
"""A user's context-reading strategy, from its file (`reader.py`)."""
EXACT_FIELD = ["-s", "optimal", "-s", "max-shut", "-s", "greedy-high", "--seed", "1"]
"""The pool's exact field (`pool.py`)."""
COMMANDS: dict[str, tuple[list[str], float | None]] = {
    "shutbox tournament": (["tournament"], 0.5),
    "shutbox strategies": (["strategies"], 0.25),
    "shutbox analyze optimal": (["analyze", "optimal"], None),
    "tournament, reader + optimal": (["tournament", "-s", READER, "-s", "optimal", "--seed", "1"], None),
    "  the same, 2 games": (["tournament", "-s", READER, "-s", "optimal", "--seed", "1", "-n", "2"], None),
    "tournament, exact field, 100": (["tournament", "-n", "100", *EXACT_FIELD], None),
    "match optimal greedy-high": (["match", "optimal", "greedy-high", "--seed", "1"], None),
}
"""Each command's arguments and its target in CPU-s (None: no slower than the other checkout). The
two of few games are the start-up of the reader's rate (`cheap_path.py`, 20,000 games) and of the
pool's speed-up (`pool.py`, 3,000,000 games): what a command spends before its first game."""
LONG: dict[str, tuple[list[str], float | None]] = {
    "tournament, exact field, 3M": (["tournament", "-n", "3000000", *EXACT_FIELD], None),
}
"""Commands of seconds, measured with `--long` only."""


def cpu_seconds(command: list[str], env: dict[str, str]) -> float | None:
    """User + system seconds of one run of the command and of the processes it waited for; None if
    it failed (a checkout without the command)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return None if done.returncode else (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median(times: list[float | None]) -> str:
    """The median CPU-s of the runs, or "-" if the command failed."""
    done = [time for time in times if time is not None]
    return f"{statistics.median(done):7.3f}" if len(done) == len(times) else f"{'-':>7}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", help="another checkout's shutbox console script, run in turn with this one")
    parser.add_argument("--runs", type=int, default=9, help="runs of each command by each shutbox [9]")
    parser.add_argument("--no-bytecode", action="store_true", help="write no compiled bytecode (see above)")
    parser.add_argument("--long", action="store_true", help="also the commands of seconds (LONG)")
    parser.add_argument("--only", help="only the commands whose name holds this text")
    args = parser.parse_args()
    commands = {**COMMANDS, **(LONG if args.long else {})}
    commands = {name: command for name, command in commands.items() if args.only is None or args.only in name}
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
        print(f"{'command':30} " + " ".join(f"{name:>7}" for name in scripts) + "   target")
        for name, (arguments, target) in commands.items():
            for script in scripts.values():
                cpu_seconds([script, *arguments], env)  # warm-up: writes the bytecode
            times: dict[str, list[float | None]] = {key: [] for key in scripts}
            for _ in range(args.runs):
                for key, script in scripts.items():
                    times[key].append(cpu_seconds([script, *arguments], env))
            medians = " ".join(median(times[key]) for key in scripts)
            wanted = f"<= {target}" if target is not None else "<= other"
            print(f"{name:30} {medians}   {wanted}", flush=True)


if __name__ == "__main__":
    main()
