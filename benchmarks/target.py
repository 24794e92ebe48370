"""How `target` does against `optimal`, and how long it takes, measured (not tested).

Seeded tournaments with duplicate deals in three formats (one round, three rounds, drop-out
at 45) at tables of 2 (target and optimal) and 3 (target, optimal and greedy-high, which
fills the third seat). For each, it prints the win rates of target and optimal, their
difference with a 95% interval from the spread over seeds, and the seconds each run took
(worker start-up included).

Run: python benchmarks/target.py [--games 20000] [--seeds 1 2 3 4] [--workers 2]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time

from tournaments import Options, load_config, run

FORMATS = {"one round": {}, "3 rounds": {"rounds": 3}, "drop-out 45": {"drop_out": 45}}
FIELDS = {2: ("optimal", "target"), 3: ("optimal", "target", "greedy-high")}


@dataclasses.dataclass
class Run:
    target: float
    optimal: float
    seconds: float


def play(rules: dict, table: int, games: int, seed: int, workers: int) -> Run:
    config = load_config(
        None, Options(strategies=FIELDS[table], games=games, table=table, seed=seed, workers=workers, rules=rules)
    )
    start = time.perf_counter()
    summary = run(config)
    seconds = time.perf_counter() - start
    rates = {standing.name: standing.win_rate for standing in summary.ranking}
    return Run(rates["target"], rates["optimal"], seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000, help="games per tournament")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    print(f"{args.games} games per run, seeds {' '.join(map(str, args.seeds))}, -j {args.workers}")
    print(f"{'format':<12} {'table':>5}  {'target':>7} {'optimal':>7}  {'difference (95%)':>18}  {'seconds':>13}")
    for label, rules in FORMATS.items():
        for table in FIELDS:
            runs = [play(rules, table, args.games, seed, args.workers) for seed in args.seeds]
            gaps = [100 * (run.target - run.optimal) for run in runs]
            spread = 1.96 * statistics.stdev(gaps) / len(gaps) ** 0.5 if len(gaps) > 1 else float("nan")
            seconds = [run.seconds for run in runs]
            print(
                f"{label:<12} {table:>5}  {100 * statistics.mean(run.target for run in runs):6.2f}% "
                f"{100 * statistics.mean(run.optimal for run in runs):6.2f}%  "
                f"{statistics.mean(gaps):+6.2f} ± {spread:4.2f} pts  {min(seconds):5.1f}–{max(seconds):5.1f} s"
            )


if __name__ == "__main__":
    main()
