"""The memory of all a command's processes, measured (not tested): whole `shutbox tournament` commands
in this checkout and in a baseline checkout (an earlier commit, its own `.venv`), side by side, taken
in turn, each command's peak of the summed proportional set size (Pss: a page shared by k processes
counts 1/k to each, so forked workers are not counted twice) of the command and every process it
started (workers, hosts and their supervisors), sampled every 10 ms from /proc (Linux only), the
largest of --repeats runs each (a process living under 10 ms may be missed: the figures are a floor).

The cases are issue 21's: the default tournament; a 3M-game exact field at -j 1 and -j 2; a
user's context-reading strategy (benchmarks/reader.py) and optimal at -j 1 and -j 2; `target` and
optimal in games of three rounds; -j 2 always a pool (`SHUTBOX_POOL=always`: a run this small or a
busy machine would otherwise stay in process; an older checkout ignores it). This checkout runs
twice: as installed (with the `fast` extra, the compiled kernel where a run is big enough to pay
for loading numba and LLVM, about 100 MiB) and with `SHUTBOX_KERNEL=numpy` (the engine of the core
install).

Run: python benchmarks/memory.py --baseline PATH [--repeats R] [--hundred-million]

`--hundred-million` measures issue 38's case alone: 100,000,002 games of the exact field (optimal,
max-shut, greedy-high) at -j 2 in a pool, this checkout and the baseline taken in turn, each run's
peak summed Pss and, beside it, its peak summed resident set size (Rss: a page a forked worker
shares with the process it was forked from counts in both, so the sum counts numba's pages, loaded
before the fork, once per process; Pss says what the processes take together), and its wall time,
with the load. A baseline without its own `.venv` runs from its sources in this environment.
Measured (repeats 2, load 3.2-4.3): main's checkout and this one both 157-166 MiB Pss, 293-294 MiB
Rss (the main process 152 Rss / 108 Pss, the worker 73 / 30, the worker's guard, a fork of it, 69 /
2), 21-26 s wall at that load; with s38-kernel 164 Pss, 300 Rss, 6.2 s (its own pool 6.7-6.8 s).
The forked worker shares numba with the main process: only Rss counts it twice.

Measured for issue 21 against the checkout it calls "today" (largest of 2 runs each, load about 1):

| case | this (MiB) | this, numpy (MiB) | baseline (MiB) | this / baseline | numpy / baseline |
|---|---|---|---|---|---|
| default tournament | 41 | 40 | 54 | 0.76 | 0.75 |
| 3M-game exact field, -j 1 | 142 | 41 | 54 | 2.65 | 0.76 |
| 3M-game exact field, -j 2 | 154 | 62 | 133 | 1.16 | 0.47 |
| reader + optimal, -j 1 | 55 | 54 | 104 | 0.53 | 0.52 |
| reader + optimal, -j 2 | 88 | 87 | 146 | 0.60 | 0.60 |
| target + optimal, 3 rounds | 58 | 58 | 153 | 0.38 | 0.38 |

The core install takes no more memory than "today" in any case; the `fast` extra's kernel adds
numba and LLVM (about 100 MiB) to a run big enough to load it, the price of its speed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
READER = (Path(__file__).parent / "reader.py").read_text()
"""The context-reading strategy a user might write, written where a run finds it."""
EXACT_FIELD = ["-s", "optimal", "-s", "max-shut", "-s", "greedy-high", "-n", "1000000"]
READER_FIELD = ["-s", "reader.py:Reader", "-s", "optimal", "-n", "20000"]
CASES = {
    "default tournament": ["--seed", "1"],
    "3M-game exact field, -j 1": [*EXACT_FIELD, "--seed", "1", "-j", "1"],
    "3M-game exact field, -j 2": [*EXACT_FIELD, "--seed", "1", "-j", "2"],
    "reader + optimal, -j 1": [*READER_FIELD, "--seed", "1", "-j", "1"],
    "reader + optimal, -j 2": [*READER_FIELD, "--seed", "1", "-j", "2"],
    "target + optimal, 3 rounds": ["-s", "target", "-s", "optimal", "--rounds", "3", "-n", "20000", "--seed", "1"],
}


def children() -> dict[int, list[int]]:
    """Each running process's children, by its process id."""
    found: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        found.setdefault(parent, []).append(int(entry.name))
    return found


def tree(root: int) -> list[int]:
    """The process `root` and all its descendants now."""
    below = children()
    found, stack = [], [root]
    while stack:
        process = stack.pop()
        found.append(process)
        stack.extend(below.get(process, []))
    return found


def pss_kib(process: int, field: str = "Pss:") -> int:
    """A process's proportional set size in KiB (0 once it is gone); `field="Rss:"` its resident set size."""
    try:
        for line in Path(f"/proc/{process}/smaps_rollup").read_text().splitlines():
            if line.startswith(field):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def peaks_mib(python: str, environment: dict[str, str], folder: Path, arguments: list[str]) -> tuple[float, float]:
    """The peak summed Pss and the peak summed Rss of one command and its processes, in MiB."""
    command = [python, "-m", "shutbox_cli", "tournament", *arguments, "-q", "--report", str(folder / "r.toml")]
    pooled = {"SHUTBOX_POOL": "always"} if arguments[-2:] == ["-j", "2"] else {}
    process = subprocess.Popen(
        command, cwd=folder, env=environment | pooled, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    pss = rss = 0
    while process.poll() is None:
        members = tree(process.pid)
        pss = max(pss, sum(pss_kib(member) for member in members))
        rss = max(rss, sum(pss_kib(member, "Rss:") for member in members))
        time.sleep(0.01)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {process.stderr.read().decode() if process.stderr else ''}")
    return pss / 1024, rss / 1024


def peak_mib(python: str, kernel: str | None, folder: Path, arguments: list[str]) -> float:
    """The peak summed Pss of one command and its processes, in MiB (`kernel`: SHUTBOX_KERNEL's value)."""
    return peaks_mib(python, os.environ | ({"SHUTBOX_KERNEL": kernel} if kernel else {}), folder, arguments)[0]


def checkout(path: Path) -> tuple[str, dict[str, str]]:
    """The Python that runs an earlier checkout, and what it adds to the environment: the checkout's
    own `.venv`, else this one's with the checkout's sources first on the path."""
    own = path.resolve() / ".venv/bin/python"
    return (str(own), {}) if own.exists() else (sys.executable, {"PYTHONPATH": str(path.resolve())})


def hundred_million(baseline: Path, repeats: int) -> None:
    """Issue 38's case: 100M games of the exact field at -j 2, this checkout and the baseline in turn."""
    arguments = ["-s", "optimal", "-s", "max-shut", "-s", "greedy-high", "-n", "33333334", "--seed", "1", "-j", "2"]
    python, extra = checkout(baseline)
    runs = {"this": (sys.executable, dict(os.environ)), "baseline": (python, os.environ | extra)}
    print(f"load before: {Path('/proc/loadavg').read_text().strip()}")
    print("| 100M games, -j 2 | peak Pss sum (MiB) | peak Rss sum (MiB) | wall (s) | load |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(repeats):
            for name, (runner, environment) in runs.items():
                at, start = os.getloadavg()[0], time.perf_counter()
                pss, rss = peaks_mib(runner, environment, Path(scratch), arguments)
                print(f"| {name} | {pss:.0f} | {rss:.0f} | {time.perf_counter() - start:.1f} | {at:.1f} |")
    print(f"load after: {Path('/proc/loadavg').read_text().strip()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, required=True, help="an earlier checkout, with its own .venv")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--hundred-million", action="store_true", help="issue 38's 100M-game case alone")
    options = parser.parse_args()
    if options.hundred_million:
        hundred_million(options.baseline, options.repeats)
        return
    runs = {
        "this": (sys.executable, None),
        "this, numpy": (sys.executable, "numpy"),
        "baseline": (str(options.baseline.resolve() / ".venv/bin/python"), None),
    }
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    print("| case | this (MiB) | this, numpy (MiB) | baseline (MiB) | this / baseline | numpy / baseline |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        (folder / "reader.py").write_text(READER)
        for case, arguments in CASES.items():
            peaks = dict.fromkeys(runs, 0.0)
            for _ in range(options.repeats):
                for name, (python, kernel) in runs.items():
                    peaks[name] = max(peaks[name], peak_mib(python, kernel, folder, arguments))
            this, numpy, baseline = peaks["this"], peaks["this, numpy"], peaks["baseline"]
            ratios = f"{this / baseline:.2f} | {numpy / baseline:.2f}"
            print(f"| {case} | {this:.0f} | {numpy:.0f} | {baseline:.0f} | {ratios} |")


if __name__ == "__main__":
    main()
