"""What recording a run in the history costs (docs/history.md), measured (not tested), side by
side in one run: a default tournament (`shutbox tournament --seed 1 -q`, a process of its own each
time) with the history off and with it on (an SQLite file in a temporary folder, growing run by
run as a user's does), taken in turn; then the recording alone, in this process: a default
tournament's report written into the history (one transaction), and the report table the hook
makes. Each figure is the median of --repeats; the load average is printed before and after.

Run: python benchmarks/history.py [--repeats R]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path


def load() -> str:
    return ", ".join(f"{figure:.2f}" for figure in os.getloadavg())


def tournament(history: str) -> float:
    """Seconds on the clock of one default tournament, recorded where `history` says."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "shutbox_cli", "tournament", "--seed", "1", "-q", "--history", history],
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    repeats = parser.parse_args().repeats
    print(f"load average before: {load()} ({os.cpu_count()} cores)")
    with tempfile.TemporaryDirectory() as folder:
        place = str(Path(folder) / "history.sqlite3")
        off, on = [], []
        for _ in range(repeats):
            off.append(tournament("off"))
            on.append(tournament(place))
        first, second = statistics.median(off), statistics.median(on)
        print(f"default tournament, history off: {first:.3f} s; on: {second:.3f} s; on/off {second / first:.3f}")

        from tournaments import Options, open_history, report_table, run

        summary = run(None, Options(seed=1))
        history = open_history(place)
        assert history is not None
        tables, records = [], []
        for _ in range(repeats):
            start = time.perf_counter()
            report = report_table(summary)
            tables.append(time.perf_counter() - start)
            start = time.perf_counter()
            history.record(report, "shutbox tournament --seed 1 -q", datetime.now(UTC), 1.0)
            records.append(time.perf_counter() - start)
        made, kept = statistics.median(tables), statistics.median(records)
        print(f"the hook alone: the report table {made * 1000:.1f} ms, recorded {kept * 1000:.1f} ms; ")
        print(f"  {(made + kept) / first:.2%} of the tournament with the history off")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
