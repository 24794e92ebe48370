"""What typer's pinned pieces (shutbox_cli/face/typer_parts.py) save, measured (not tested): the
processor time of a command whose values shutbox converts itself, building typer's validators only
where it must, beside the same command with every validator typer's (`coercion.defer_checks` off),
each run as a fresh process, the two taking turns so that both meet the same load.

Run: python benchmarks/typer_parts.py [--runs N]

Measured for issue 35, 9 runs each on a 2-core machine at a load of 8-10 (CPU-s, with / without):
`--help` 0.086 / 0.088 (no value to convert), `tournament -s optimal -s tips -n 200 --seed 1`
0.431 / 0.496, `analyze optimal` 0.295 / 0.400.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys

COMMANDS = (
    ["--help"],
    ["tournament", "-s", "optimal", "-s", "tips", "-n", "200", "--seed", "1"],
    ["analyze", "optimal"],
)
CODE = (
    "import sys; import shutbox_cli.face.coercion as coercion; coercion.PINNED = {pinned}; "
    "sys.argv = ['shutbox', *{arguments!r}]; from shutbox_cli.face.cli import main; main()"
)


def cpu_seconds(arguments: list[str], pinned: bool) -> float:
    """User + system time of one run of the command and what it waited for."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    code = CODE.format(pinned=pinned, arguments=arguments)
    environment = {**os.environ, "COLUMNS": "80"}
    subprocess.run([sys.executable, "-c", code], stdout=subprocess.DEVNULL, env=environment, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    runs = parser.parse_args().runs
    print(f"load average at the start: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    for arguments in COMMANDS:
        for pinned in (True, False):  # a warm-up: bytecode written
            cpu_seconds(arguments, pinned)
        times: dict[bool, list[float]] = {True: [], False: []}
        for _ in range(runs):
            for pinned in (True, False):
                times[pinned].append(cpu_seconds(arguments, pinned))
        said = " ".join(arguments)
        print(f"{said:50} with {statistics.median(times[True]):.3f}  without {statistics.median(times[False]):.3f}")
    print(f"load average at the end: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
