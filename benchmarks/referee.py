"""What the referee costs, measured (not tested), in this checkout and in a baseline checkout (an
earlier commit), side by side, alternating, the best of several runs each, as ratios, with the load.

The reader's path (the default): games per CPU-second of whole `shutbox tournament -j 1` commands,
the referee's processor time and its hosts' (the command's children: each host and its
supervisor) apart, for

- a user's unkeyed context reader + optimal (`reader.py:Reader`, asked every decision in its host);
- the bulk field: greedy-high + optimal, both exact (played from their tables, no host).

"playing" takes off what the same command costs for 2,000 games (start-up, the host's, optimal's
table), so it is the rate of play itself; "referee s" is the referee's processor seconds of play
(the same taken off). "host only" is the games per CPU-second of the hosts alone: what the reader's
rate would be if the referee cost nothing (the host's own Python per decision is the floor).

Measured against the main before issue 38's reader work (1,000,000 games, least CPU of 3, on a
shared 2-core machine at a load of 4.9 to 6; the bulk field's play did not change: its "playing"
0.99x is the control, its "whole" 1.14x a start-up the baseline checkout pays apart from play):

| case | | now | before | now/before |
|---|---|---|---|---|
| reader + optimal | whole | 112,235 | 96,132 | 1.17x |
| | playing | 116,744 | 100,939 | 1.16x |
| | host only | 161,045 | 150,318 | |
| | referee CPU-s of play | 2.46 | 3.39 | 1.38x |
| bulk field (greedy-high + optimal) | whole | 1,262,279 | 1,109,627 | 1.14x |
| | playing | 2,063,403 | 2,090,788 | 0.99x |

The bulk field is 11.2x the reader's rate. The host is the limit: about 6.2 of the run's 8.9
CPU-s, some 2.5 microseconds of its own Python per decision (a view made, the strategy asked, the
answer noted: 2.9 decisions a turn), so even a referee that cost nothing would give about
160,000. The referee's 2.5 s of play are mostly each step's fixed cost, paid 1,000 times (a unit
of 2,000 games asks its host twice): units of 8,000 games (`plan.UNIT_GAMES`, the same report)
took the referee from 3.19 to 1.91 CPU-s in one measurement at a load of 8.

With --wall, whole commands timed by the clock instead (a user's strategy always runs in a host
process of its own; a baseline from before that is also run with --isolate, where it had one):

- built-ins only, -j 1: plays in this process;
- a user's exact strategy with the default field, -j 1: tabulated once in its host;
- a user's context-reading strategy, -j 2: every turn asked of its host.

Run: python benchmarks/referee.py --baseline PATH [--repeats R] [--games N] [--wall]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
READER = (Path(__file__).parent / "reader.py").read_text()
"""The context-reading strategy a user might write (benchmarks/reader.py), written where a run finds it."""


CPU_SPLIT = (
    "import atexit, resource, runpy, sys\n"
    "def said():\n"
    "    own, theirs = (resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))\n"
    "    print('cpu', own.ru_utime + own.ru_stime, theirs.ru_utime + theirs.ru_stime, file=sys.stderr)\n"
    "atexit.register(said)\n"
    "sys.argv = ['shutbox', *sys.argv[1:]]\n"
    "runpy.run_module('shutbox_cli', run_name='__main__')\n"
)
"""A command run so that it says, as it exits, the processor time of its own and of its children."""
SMALL = 2000
"""The games of the run whose cost is taken off for "playing"."""


class Split(NamedTuple):
    """A command's processor seconds: its own (the referee's) and its children's (the hosts')."""

    referee: float
    hosts: float

    @property
    def whole(self) -> float:
        return self.referee + self.hosts


def cpu_split(folder: Path, arguments: list[str]) -> Split:
    """The processor time of one `shutbox tournament` in `folder`, the referee's and the hosts' apart."""
    done = subprocess.run(
        [sys.executable, "-c", CPU_SPLIT, "tournament", *arguments],
        cwd=folder,
        check=True,
        capture_output=True,
        text=True,
    )
    line = next(line for line in done.stderr.splitlines() if line.startswith("cpu "))
    _, referee, hosts = line.split()
    return Split(float(referee), float(hosts))


def least_split(folders: list[Path], arguments: list[str], repeats: int) -> list[Split]:
    """The run of least processor time of each folder, runs alternating so load changes hit both alike."""
    best: list[Split | None] = [None] * len(folders)
    for _ in range(repeats):
        for index, folder in enumerate(folders):
            found = cpu_split(folder, arguments)
            kept = best[index]
            best[index] = found if kept is None or found.whole < kept.whole else kept
    return [split for split in best if split is not None]


def load() -> str:
    """The load average, as the system says it."""
    return Path("/proc/loadavg").read_text().strip() if Path("/proc/loadavg").exists() else "unknown"


def reader_path(folders: list[Path], reader: Path, games: int, repeats: int) -> None:
    """Games per CPU-second of the reader's path and of the bulk field, in each checkout: whole, and
    playing (less what the same command costs for SMALL games: start-up, hosts, optimal's table)."""
    cases = {
        "reader + optimal": ["-s", f"{reader}:Reader"],
        "bulk field (greedy-high + optimal)": ["-s", "greedy-high"],
    }
    print(f"{games:,} games, -j 1, least CPU of {repeats}; games per CPU-second; load before: {load()}")
    print(f"{'case':36} {'':10} {'now':>9} {'baseline':>9} {'now/base':>9}")
    rates: dict[str, float] = {}
    for title, strategy in cases.items():
        common = [*strategy, "-s", "optimal", "--seed", "1", "-j", "1", "-q", "-n"]
        now, before = least_split(folders, [*common, str(games)], repeats)
        small = least_split(folders, [*common, str(SMALL)], repeats)
        rates[title] = games / now.whole
        playing = [
            (games - SMALL) / (whole.whole - least.whole) for whole, least in zip((now, before), small, strict=True)
        ]
        print(
            f"{title:36} {'whole':10} {games / now.whole:9,.0f} {games / before.whole:9,.0f} "
            f"{before.whole / now.whole:8.2f}x"
        )
        print(f"{'':36} {'playing':10} {playing[0]:9,.0f} {playing[1]:9,.0f} {playing[0] / playing[1]:8.2f}x")
        if now.hosts > 0.5:
            print(f"{'':36} {'host only':10} {games / now.hosts:9,.0f} {games / before.hosts:9,.0f}")
            referee = [whole.referee - least.referee for whole, least in zip((now, before), small, strict=True)]
            print(f"{'':36} {'referee s':10} {referee[0]:9.2f} {referee[1]:9.2f} {referee[1] / referee[0]:8.2f}x")
    bulk = rates["bulk field (greedy-high + optimal)"]
    print(f"the bulk field is {bulk / rates['reader + optimal']:.1f}x the reader's rate; load after: {load()}")


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
    parser.add_argument("--games", type=int, default=None, help="default: 1,000,000 (with --wall 2,000)")
    parser.add_argument("--wall", action="store_true", help="whole commands timed by the clock instead")
    options = parser.parse_args()
    reader = Path("/tmp/shutbox_bench_reader.py")
    reader.write_text(READER)
    if not options.wall:
        reader_path([ROOT, options.baseline.resolve()], reader, options.games or 1_000_000, options.repeats)
        return
    options.games = options.games or 2000
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
