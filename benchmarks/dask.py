"""Tournament speed on a Dask cluster against the process pool, measured (not tested).

Games per second for a field with one slow strategy, `random` (stochastic: played turn by
turn), beside two exact ones (optimal, greedy-high), side by side in one run:
  -j 1                      this process;
  -j 2                      the process pool, worker start-up included;
  cluster of 2              a local Dask cluster of 2 worker processes of 1 thread, started
                            before the clock, as an external cluster is;
  --scheduler local         a Dask cluster of this machine's cores, start-up and teardown included.
Then the cluster's overhead against -j 2, and whether every run gave the same report.

With --tls, instead: what the local cluster's TLS (credentials made for the run, so that no host
can use its scheduler) costs, with and without it side by side, in turns, each REPEATS times:
  start             a local cluster of this machine's cores started and closed;
  small run         --scheduler local on a small field (--games per matchup), start-up included.

Run: python benchmarks/dask.py [--games N]   (games per matchup; 400000 is about a minute at -j 2 on 2 cores)
     python benchmarks/dask.py --tls [--games 2000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import sys
import time
from pathlib import Path

FIELD = ("random", "optimal", "greedy-high")


def main() -> None:
    # This file is named dask.py: as a script, its folder comes first on sys.path, where it would
    # shadow the dask package that distributed imports.
    here = Path(__file__).resolve().parent
    sys.path[:] = [entry for entry in sys.path if Path(entry or os.curdir).resolve() != here]
    from distributed import LocalCluster

    from tournaments import DaskCluster, InProcess, Options, ProcessPool, load_config, report_table, run
    from tournaments.playing.plan import make_plan

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=None, help="games per matchup (default: 40000; 2000 with --tls)")
    parser.add_argument("--tls", action="store_true", help="the local cluster's TLS against none, side by side")
    parser.add_argument("--repeats", type=int, default=3, help="turns of each, with --tls (default: 3)")
    arguments = parser.parse_args()
    if arguments.tls:
        tls_cost(arguments.games or 2000, arguments.repeats)
        return
    games = arguments.games or 40_000
    config = dataclasses.replace(load_config(None, Options(strategies=FIELD, games=games)), seed=1)
    plan = make_plan(config)
    print(f"{plan.total_games:,} games: {', '.join(FIELD)} ({len(plan.matchups)} matchups, {plan.unit_count} units)")

    seconds: dict[str, float] = {}
    reports = []

    def measure(label: str, backend: object) -> None:
        start = time.perf_counter()
        summary = run(config, backend=backend)  # type: ignore[arg-type]
        seconds[label] = time.perf_counter() - start
        reports.append(report_table(summary))
        rate = plan.total_games / seconds[label]
        print(f"{label:<18} {seconds[label]:7.2f} s  {rate:9,.0f} games/s", flush=True)

    measure("-j 1", InProcess())
    measure("-j 2", ProcessPool(2))
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR
    ) as cluster:
        measure("cluster of 2", DaskCluster(cluster.scheduler_address))
    measure("--scheduler local", DaskCluster("local"))
    overhead = seconds["cluster of 2"] / seconds["-j 2"] - 1
    print(f"cluster of 2 against -j 2: {overhead:+.1%} time")
    print(f"same report every time: {'yes' if all(report == reports[0] for report in reports) else 'NO'}")


def tls_cost(games: int, repeats: int) -> None:
    """The local cluster with its TLS and without, started alone and playing a small run, in turns."""
    from dask.system import CPU_COUNT
    from distributed import LocalCluster

    from tournaments import DaskCluster, Options, load_config, run
    from tournaments.backends import dask_local

    with_tls = dask_local.local_security
    config = dataclasses.replace(load_config(None, Options(strategies=FIELD, games=games)), seed=1)
    print(f"{CPU_COUNT} workers, {games:,} games per matchup, load {os.getloadavg()[0]:.1f} at the start")
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(repeats):
        for label, security in (("TLS", with_tls), ("plain TCP", lambda: None)):
            dask_local.local_security = security  # type: ignore[assignment]
            start = time.perf_counter()
            with LocalCluster(
                host="127.0.0.1",
                threads_per_worker=1,
                dashboard_address="127.0.0.1:0",
                silence_logs=logging.CRITICAL,
                security=security(),
            ):
                pass
            times.setdefault(("start", label), []).append(time.perf_counter() - start)
            start = time.perf_counter()
            run(config, backend=DaskCluster("local"))
            times.setdefault(("small run", label), []).append(time.perf_counter() - start)
    dask_local.local_security = with_tls
    for what in ("start", "small run"):
        tls, plain = (min(times[(what, label)]) for label in ("TLS", "plain TCP"))
        print(f"{what:<10} TLS {tls:6.2f} s  plain TCP {plain:6.2f} s  ratio {tls / plain:.2f} (best of {repeats})")
    print(f"load {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
