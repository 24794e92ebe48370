"""The worker pool's pay and the cache of tables, measured (not tested), side by side in one run.

Tournaments through the real command, each at -j 1 and -j 2: a 3M-game exact field (optimal,
max-shut, greedy-high, 1,000,000 games a matchup) played by the compiled kernel (the `fast` extra,
where numba is installed) and by the numpy engine (`SHUTBOX_KERNEL=numpy`), a context-reading field
(a user's strategy that reads the game, asked in its host, and optimal; its games chosen so that
-j 1 takes about as long as the exact field's with numpy) and the default tournament; this
checkout with the cache of tables warm (filled by an earlier run) and cold (an empty folder), and
with --baseline PATH an earlier checkout (its own `.venv`) as it is. Each figure is the best wall
time of --repeats (the runs taken in turn, so a burst of load on a shared machine falls on all of
them alike), with the processor seconds of the command and every process it started; the ratios
are -j 1's wall time over -j 2's (speed) and -j 2's processor time over -j 1's (cost).

A run stays in process where it is estimated to take under a second or finds fewer than two cores
idle (other processes busy them), a field with a user's strategy as well: on a shared machine, -j 2 then
measures that choice. `--busy-as-idle` runs every command with `SHUTBOX_POOL=idle`, so that the
estimate alone chooses and -j 2 plays in a pool however busy the machine is: what an idle machine
would choose, with the other load still slowing it down (an earlier checkout, which knows no
`SHUTBOX_POOL`, still reads the load).

Run: python benchmarks/pool.py [--baseline PATH] [--repeats R] [--busy-as-idle] [--only CASE] [--warm-only]
    [--timeline] [--processor]
On an idle machine (the figures the target is about; the load average is printed before and after):
    python benchmarks/pool.py --repeats 5 --warm-only --only "3M-game exact field, kernel" \
        --only "3M-game exact field, numpy" --only "context-reading field"

What does not split over the workers bounds the speed-up: the command's start (the interpreter,
its imports, the options read and the field loaded, the plan), the pool's own start and end, the
report made and written, and, with the kernel, loading numba and the compiled code (this process
plays its first unit before it forks, so a worker starts with them). Measured in processor
seconds at -j 1 (cProfile and a timeline of each unit's start and end): about 0.5 s with numpy and
0.9 s with the kernel, against 1.4 s and 0.4 s of games for the 3M-game exact field. An idle
2-core machine then gives at most about (0.5 + 1.4) / (0.5 + 0.7) = 1.6 with numpy and 1.2 with
the kernel (the longer of the two processes' paths in processor time, taken from the timeline:
1.49 to 1.54 and 1.10); 1.7 needs about 4.7 times the serial part in games: about 2.4 processor
seconds (5M games of this field) with numpy, 4.2 (30M) with the kernel.

Where the time goes, from a timeline of each process's units (their start and end, and when each
process's unit player was ready: `--timeline`, -j 2 a pool whatever the load), at a load of 2 to 3
(so the -j 2 figures are stretched):
- the exact field with numpy: the first unit starts 0.25 s into the command; at -j 1 the 184 units
  take 1.36 s and the command ends 0.06 s after the last. At -j 2 the worker is ready 0.03 s after
  the main process, each plays about half the units (94 and 90), the two last units end within
  0.02 s of each other, and the command ends 0.04-0.06 s later. A unit's result travels as one
  array of counts: pickled, unpickled and added in 0.06 ms (0.01 s for the run). At most
  (0.25 + 1.36 + 0.06) / (0.25 + 0.68 + 0.03 + 0.06) = 1.64 idle.
- with the kernel: the main process's first unit takes 0.42 s (loading numba and the compiled
  code, before it forks), the other 183 units 0.3 s: at most about 1.2.
- the context-reading field: the first unit starts 0.39 s in; at -j 1 the 150 units take 0.8 s
  (the main process about 0.96 processor seconds in all, the strategy's host about 0.6). At -j 2
  the main process plays with the host its field was probed in, and the worker starts a host of
  its own (a fresh interpreter: 0.15 processor seconds idle, 0.3-0.5 s on the clock at load 3), so
  it is ready 0.3-0.55 s after the main process and plays a third of the units (49-59 of 150); the
  two end together. At most about (0.39 + 0.8 + 0.05) / (0.39 + (0.8 + 0.15) / 2 + 0.05) = 1.36
  idle. Its workers now fork before the first unit (a field of a user's strategy with nothing in
  bulk), so their hosts start 0.04 s sooner. 1.7 needs the command's start and the worker's host
  start out of the way, or a field about four times larger.

Measured for issue 21, the stop before this one (best of 3, --warm-only, an older checkout as
baseline, which has no kernel; a 2-core machine that other work kept at a load of 5 to 7, so -j 2
never had both cores): with --busy-as-idle, -j 2 / -j 1 speed, exact field with the kernel
0.64-1.02 (-j 2's processor time over -j 1's 1.06-1.18), with numpy 0.71-0.99 (1.10-1.25;
baseline 0.66, 1.53), context field 1.01-1.12 (1.01-1.19; baseline 1.35, 1.11); without it, the
exact fields and the default tournament stay in process at -j 2 (1.00, 1.00, 0.96), and the
context field, a user's strategy (which then played in a pool at -j 2 whatever the load), 0.92
(processor time 1.17). The stop before that (load 3 to 8): exact field 1.25-1.53 (baseline
0.73-1.13), context field 0.82-1.14 (baseline 0.60-0.91).
Measured this stop, without --busy-as-idle, side by side with the checkout before it (best of 3,
--warm-only, load 2.5 to 3.3): context field 1.11 (processor time 0.90: it stays in process now;
before 0.86, 1.25), exact field with numpy 1.45 (1.15; before 1.26, 1.11), with the kernel 0.99
(1.07; before 1.12, 1.08). With --busy-as-idle at that load the noise outweighs the difference.
Again when the load fell (0.9 at the start, 2.1 at the end; the checkout before run from its
sources beside this one's environment, which makes its -j 1 slower too: compare ratios only):
context field 1.42 / 1.07 = 1.32 (processor time 1.15; before 1.04, 1.15), exact field with numpy
1.67 / 1.08 = 1.55 (1.05; before 1.40, 1.04), with the kernel 1.00 / 0.86 = 1.16 (1.05; before
1.04, 1.12).
At the end of the stop, everything merged (units of 2,000 games turn by turn), nothing else running
(load 1.0 to 1.2), best of 5, -j 1 / -j 2 wall seconds: exact field with the kernel 0.88 / 0.84 =
1.05 (processor time 1.20), with numpy 1.54 / 1.08 = 1.43 (1.16), context field 1.16 / 0.83 = 1.39
(1.09). The timeline says why numpy stays under 1.6: at -j 1 its 184 units took 1.68 s, at -j 2
the two processes' 93 and 91 units 1.07 and 1.01 s, a unit about 1.2 times as long with both cores
busy (two plain Python loops run at once took 0.87-1.02 of one alone's time on the same machine:
the engine's arrays, not the cores, share something), besides the 0.23-0.27 s before the first unit.
The pool's loop rewritten as rounds of a small state machine (`pool_feeding.Feeding`), against the
checkout before it (--baseline, --busy-as-idle --warm-only, best of 5, load 9.5 at the start, 7.9
at the end), -j 2 wall (processor) seconds: exact field with the kernel 2.48 (1.22), before 2.69
(1.32); with numpy 3.56 (1.81), before 3.94 (1.95); context field 2.52 (1.22), before 3.06 (1.53):
no slower, within the noise of that load.

Issue 38 (-j 2 against -j 1 at 30M games, target 1.7 at a load of about 1). Where the second core
idles, from a timeline and cProfile of -j 2 (main's checkout, its kernel): the worker is forked
once the main process has loaded numba and the compiled code and made the tables (its first unit),
0.6-0.7 processor seconds into the command (the command's start 0.3, tables 0.05, numpy 0.04,
numba 0.13, the compiled code read from numba's cache 0.18); it is ready 10 ms after the fork.
From then on it waited on its pipe: kept two units ahead, a worker whose two units (16,384 games,
about 1.7 ms each) ended while the main process played one of its own, or was kept off a core,
found nothing to play in 58% of its reads (load 6; 80% with the kernel that plays each turn once,
its units about 0.5 ms). Now each worker holds about 0.1 s of play (from how long the main
process's own units of that kind take; 2 to 64 units, and no more than its share of those left)
and every reply it sent is heard each round. `--processor` (medians of 3, load 3.5-4), 30M-game
exact field, -j 1 processor seconds against the idle 2-core estimate of -j 2 (before the fork + the
longer of the two processes after it + the report), and the worker's reads of its pipe:
    main's kernel, this pool:  3.86; 0.61 + 1.88 beside 1.88 + 0.11 = 2.63: 1.47x; empty 3 of 928, 0.06 s
    main's kernel, main's:     4.01; 0.69 + 2.11 beside 1.45 + 0.15 = 2.90: 1.38x; empty 388 of 731, 1.65 s
    s38-kernel, this pool:     1.61; 0.70 + 0.54 beside 0.55 + 0.14 = 1.40: 1.15x; empty 10 of 1000, 0.11 s
    s38-kernel, main's pool:   1.61; 0.69 + 0.66 beside 0.43 + 0.15 = 1.51: 1.07x; empty 427 of 645, 0.85 s
(an earlier version of the estimate left the worker's waits out: 1.52 this, 1.53 main's.)
What bounds the speed-up now is the serial part, not the pool: with main's kernel even a pool that
cost nothing would give (0.61 + 3.1 + 0.11) / (0.61 + 1.55 + 0.11) = 1.68; the games at -j 2 take
about 20% more processor time than at -j 1 (messages about 60 us a unit, 3.5% of one; the rest two
cores sharing caches and clock). With the kernel that plays each turn once, the games are 0.74 s
of 1.61 and the bound is 1.61 / (0.70 + 0.37 + 0.14) = 1.33. 1.7 at 30M games needs the 0.7 s
before the fork (the command's start, numba and the compiled code) out of the way (a kernel
compiled ahead of time, not loaded through numba), or about 4.7 times that serial part in games.
Wall clocks (--busy-as-idle --warm-only --repeats 5-7, this against a baseline, medians of the
pairs): the machine never fell below a load of 3 while measured, and -j 2 did not pay there in any
checkout (0.79-0.95), as the message of a busy machine says: main's kernel at load 5.7, this 0.87,
main 0.86; s38-kernel at load 3.7, this 0.84 (best -j 2 1.62 s), its own pool 0.90 (1.76 s).
The busy machine's choice checked at a load of 2.5-2.9: `shutbox tournament -s optimal -s max-shut
-s greedy-high --games 10000000 --seed 1 -j 2`, 5 times in turn with and without
SHUTBOX_POOL=always: without, it said the machine looked busy (0.0 or 1.0 of its 2 cores idle) and
played in one process every time, in 3.8-4.9 s; the pool took 4.1-5.7 s, longer in each pair.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

READER = (Path(__file__).parent / "reader.py").read_text()
"""The context-reading strategy a user might write (benchmarks/reader.py), written where a run finds it."""
EXACT_FIELD = ["-s", "optimal", "-s", "max-shut", "-s", "greedy-high", "--games", "1000000"]
CASES: dict[str, tuple[list[str], dict[str, str]]] = {
    "30M-game exact field, kernel": ([*EXACT_FIELD[:-1], "10000000"], {}),
    "3M-game exact field, kernel": (EXACT_FIELD, {}),
    "3M-game exact field, numpy": (EXACT_FIELD, {"SHUTBOX_KERNEL": "numpy"}),
    "context-reading field": (["-s", "reader.py:Reader", "-s", "optimal", "--games", "60000"], {}),
    "default tournament": ([], {}),
}
"""Each case's options and environment."""
TIMELINE = """
import os, sys, time
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the console script does first
import tournaments.playing.units as units
def note(*parts):
    with open(os.environ["POOL_TIMELINE"], "a") as log:
        log.write(" ".join(map(str, (os.getpid(), *parts))) + "\\n")
made, played = units.UnitPlayer.__init__, units.UnitPlayer.play
def make(self, *given, **named):
    made(self, *given, **named)
    note("ready", time.time())
def play(self, unit):
    start = time.time()
    result = played(self, unit)
    note("unit", start, time.time())
    return result
units.UnitPlayer.__init__, units.UnitPlayer.play = make, play
from shutbox_cli.entry import main
sys.argv[0] = "shutbox"
main()
"""
"""The command, each process noting when its unit player is ready and each unit's start and end."""
PROCESSOR = """
import os, sys, time
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the console script does first
import tournaments.backends.pool as pool
import tournaments.backends.worker_process as worker
def note(*parts):
    with open(os.environ["POOL_TIMELINE"], "a") as log:
        log.write(" ".join(map(str, parts)) + "\\n")
started, served, run, heard = pool.start_workers, worker._serve, pool._run_pool, worker.received
reads = [0, 0, 0.0]
def received(connection):
    reads[0] += 1
    reads[1] += not connection.poll()
    start = time.perf_counter()
    try:
        return heard(connection)
    finally:
        reads[2] += time.perf_counter() - start
def start_workers(*given):
    note("fork", time.process_time())
    started(*given)
def run_pool(*given):
    run(*given)
    note("played", time.process_time())
def serve(*given):
    try:
        served(*given)
    finally:
        note("worker", time.process_time())
        note("reads", *reads)
pool.start_workers, worker._serve, pool._run_pool, worker.received = start_workers, serve, run_pool, received
import atexit
atexit.register(lambda: note("main", time.process_time()))
from shutbox_cli.entry import main
sys.argv[0] = "shutbox"
main()
"""
"""The command at -j 2, noting the main process's processor time when it forks the worker, when the
pool has played every unit and at its end, and the worker's at its end, with its reads of its pipe:
how many, how many found it empty (the worker waited for a unit, or for the end), the seconds in them."""
Runs = dict[tuple[str, str, int], list[tuple[float, float, float]]]
"""Each (case, checkout, workers)'s runs in order: wall and processor seconds, and the load they met."""


def load() -> float:
    """The load average of the last minute."""
    return os.getloadavg()[0]


def checkout(path: Path) -> tuple[str, dict[str, str]]:
    """The Python that runs an earlier checkout, and what it adds to the environment: the checkout's
    own `.venv`, else this one's with the checkout's sources first on the path (compare ratios only)."""
    own = path / ".venv/bin/python"
    return (str(own), {}) if own.exists() else (sys.executable, {"PYTHONPATH": str(path.resolve())})


def timed(python: str, cwd: Path, args: list[str], env: dict[str, str], as_idle: bool) -> tuple[float, float]:
    """Wall and processor seconds (of the command and all it started) of one tournament."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        command = [python, "-m", "shutbox_cli", "tournament", "--seed", "1", *args, "-o", f"{folder}/r.toml"]
        environment = {**env, "SHUTBOX_POOL": "idle"} if as_idle else env
        subprocess.run(command, cwd=cwd, env=environment, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def timeline(cwd: Path, args: list[str], env: dict[str, str]) -> str:
    """One tournament's timeline: for each process (the main one first), in seconds from the
    command's start, when its unit player was ready, its units, the time they took, and when its
    last unit ended; and when the command ended."""
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "timeline"
        command = [sys.executable, "-c", TIMELINE, "tournament", "--seed", "1", *args, "-o", f"{folder}/r.toml"]
        start = time.time()
        subprocess.run(command, cwd=cwd, env={**env, "POOL_TIMELINE": str(log)}, check=True, capture_output=True)
        end = time.time()
        processes: dict[str, list[list[float]]] = {}
        for line in log.read_text().splitlines():
            pid, what, *times = line.split()
            processes.setdefault(pid, []).append([float(when) - start for when in times] if what == "unit" else [])
            if what == "ready":
                processes[pid][-1] = [float(times[0]) - start]
    parts = []
    for notes in processes.values():
        ready, units = notes[0][0], [note for note in notes[1:] if len(note) == 2]
        busy = sum(last - first for first, last in units)
        parts.append(f"ready {ready:.2f}, {len(units)} units in {busy:.2f}, last ends {max(u[1] for u in units):.2f}")
    return "; ".join(parts) + f"; command ends {end - start:.2f}"


def processor(cwd: Path, args: list[str], env: dict[str, str], repeats: int) -> str:
    """What -j 2 would take on an idle 2-core machine, from processor seconds (which the load barely
    changes): the main process's before it forks the worker, then the longer of the two processes'
    times from the fork to the worker's end, then the main process's after (the report, the exit);
    against -j 1's processor time. Medians of `repeats` runs each, in turn."""
    ones, twos, parts = [], [], []
    for _ in range(repeats):
        ones.append(timed(sys.executable, cwd, [*args, "-j", "1"], env, False)[1])
        with tempfile.TemporaryDirectory() as folder:
            log = Path(folder) / "processor"
            command = [sys.executable, "-c", PROCESSOR, "tournament", "--seed", "1", *args, "-j", "2", "-q"]
            command += ["-o", f"{folder}/r.toml"]
            environment = {**env, "POOL_TIMELINE": str(log), "SHUTBOX_POOL": "always"}
            subprocess.run(command, cwd=cwd, env=environment, check=True, capture_output=True)
            noted = {line.split()[0]: line.split()[1:] for line in log.read_text().splitlines()}
        fork, played, end, worker = (float(noted[what][0]) for what in ("fork", "played", "main", "worker"))
        twos.append(fork + max(played - fork, worker) + end - played)
        parts.append((fork, played - fork, worker, end - played, *map(float, noted["reads"])))
    fork, pooled, worker, after, reads, empty, waited = (statistics.median(part[k] for part in parts) for k in range(7))
    one, two = statistics.median(ones), statistics.median(twos)
    return (
        f"-j 1 {one:.2f} CPU s; -j 2: before the fork {fork:.2f}, then the main process {pooled:.2f} beside the "
        f"worker's {worker:.2f}, then {after:.2f} (report, exit): idle estimate {two:.2f} s, {one / two:.2f}x; "
        f"the worker's pipe empty at {empty:.0f} of {reads:.0f} reads, {waited:.2f} s in them"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="an earlier checkout (its .venv, else its sources here)")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--busy-as-idle", action="store_true", help="take every core as idle (see above)")
    parser.add_argument("--only", choices=CASES, action="append", help="this case only (repeat for more)")
    parser.add_argument("--warm-only", action="store_true", help="this checkout with the cache of tables warm only")
    parser.add_argument("--timeline", action="store_true", help="each case's timeline at -j 1 and -j 2 (a pool) only")
    parser.add_argument("--processor", action="store_true", help="each case's idle estimate from processor time only")
    arguments = parser.parse_args()
    cases = {case: CASES[case] for case in arguments.only or CASES}
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores")
    print(f"load average at the start: {Path('/proc/loadavg').read_text().strip()}")
    warm = tempfile.mkdtemp(prefix="shutbox-tables-")
    folder = Path(tempfile.mkdtemp(prefix="shutbox-pool-"))
    (folder / "reader.py").write_text(READER)
    base = {**os.environ, "SHUTBOX_TABLE_CACHE": warm}
    checkouts = [("this, warm cache", sys.executable, False, {})]
    if not arguments.warm_only:
        checkouts.append(("this, cold cache", sys.executable, True, {}))
    if arguments.baseline is not None:
        python, extra = checkout(arguments.baseline)
        checkouts.append(("baseline", python, False, extra))
    for args, env in cases.values():  # fills the warm cache
        timed(sys.executable, folder, [*args, "-j", "1"], {**base, **env}, arguments.busy_as_idle)
    if arguments.processor:
        for case, (args, env) in cases.items():
            print(f"{case}: {processor(folder, args, {**base, **env}, arguments.repeats)}")
        print(f"load average at the end: {Path('/proc/loadavg').read_text().strip()}")
        return
    if arguments.timeline:
        for case, (args, env) in cases.items():
            for workers in (1, 2):
                found = timeline(folder, [*args, "-j", str(workers)], {**base, **env, "SHUTBOX_POOL": "always"})
                print(f"{case}, -j {workers}: {found}")
        print(f"load average at the end: {os.getloadavg()[0]:.1f}")
        return
    runs: Runs = {}
    for _ in range(arguments.repeats):
        for case, (args, env) in cases.items():
            for label, python, cold, extra in checkouts:
                for workers in (1, 2):
                    with tempfile.TemporaryDirectory() as empty:
                        environment = {**base, **env, **extra, "SHUTBOX_TABLE_CACHE": empty if cold else warm}
                        at = load()
                        found = timed(python, folder, [*args, "-j", str(workers)], environment, arguments.busy_as_idle)
                    runs.setdefault((case, label, workers), []).append((*found, at))
    print(f"load average at the end: {Path('/proc/loadavg').read_text().strip()}")
    report(cases, [label for label, *_ in checkouts], runs)


def report(cases: dict[str, object], labels: list[str], runs: Runs) -> None:
    """Each case's best wall (processor) seconds at -j 1 and -j 2, the speed-up of the best runs and
    the median of each repeat's pair (-j 1 then -j 2, back to back), and the load they met."""
    print("| case | code | -j 1 best wall (CPU) s | -j 2 best wall (CPU) s | best / best | median pair | CPU | load |")
    print("|---|---|---|---|---|---|---|---|")
    for case in cases:
        for label in labels:
            ones, twos = runs[(case, label, 1)], runs[(case, label, 2)]
            (one, one_cpu, _), (two, two_cpu, _) = min(ones), min(twos)
            pairs = statistics.median(first[0] / second[0] for first, second in zip(ones, twos, strict=True))
            loads = statistics.median(run[2] for run in ones + twos)
            print(
                f"| {case} | {label} | {one:.2f} ({one_cpu:.2f}) | {two:.2f} ({two_cpu:.2f}) | {one / two:.2f} "
                f"| {pairs:.2f} | {two_cpu / one_cpu:.2f} | {loads:.1f} |"
            )


if __name__ == "__main__":
    main()
