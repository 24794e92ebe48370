"""What a context-reading strategy asked turn by turn costs, measured (not tested): whole
`shutbox tournament -j 1` commands in this checkout and in a baseline checkout (an earlier
commit), side by side, alternating, as games per CPU-second (this process's children: the
command, its hosts and their supervisors), the best of several runs each.

- an unkeyed context-reading user strategy + optimal (asked in its host, a step's turns at once);
- `target` + optimal in games of three rounds (a built-in context reader, unkeyed there: in one
  round it is keyed and plays in bulk, which `benchmarks/keyed.py` measures).

"whole" counts the command's every CPU-second; "playing" takes off what the same command costs
for `--games 100` (start-up, hosts, tabulating optimal), so it is the rate of play itself. Both
checkouts run from cached bytecode, as an installed copy does (compiled by the first run into a
temporary folder, whatever the environment says about writing bytecode). The reports of both
checkouts are compared too, on what both report (they must agree when no strategy is stochastic).

Measured against the checkout issue 21 calls "today" (20,000 games, best of 5, a shared 2-core
machine under load; the reader's "playing" ratio was 5.5x, 4.5x and 4.6x in three runs, its
"whole" 3.1x, 3.0x and 3.0x):

| case | | now | today | now/today |
|---|---|---|---|---|
| context reader (user) + optimal | whole | 24,032 | 7,639 | 3.1x |
| | playing | 76,194 | 13,802 | 5.5x |
| `target` + optimal, 3 rounds | whole | 12,480 | 3,413 | 3.7x |
| | playing | 24,793 | 4,063 | 6.1x |

The reader's "whole" is mostly start-up now: the command costs about 0.55 CPU-s before its first
game (the referee's imports, its options and field, tabulating optimal, a host started), and its
20,000 games about 0.3 CPU-s (the host about half of it: the strategy asked about 55,000 times).

Run: python benchmarks/cheap_path.py --baseline PATH [--repeats R] [--games N]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
READER = (Path(__file__).parent / "reader.py").read_text()
"""The context-reading strategy a user might write (benchmarks/reader.py), written where a run finds it."""
SMALL = 100
"""The games of the run whose cost is taken off for "playing"."""


def cpu_seconds(folder: Path, arguments: list[str]) -> float:
    """The CPU-seconds of one command run in `folder` (its processes and theirs, once reaped)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-m", "shutbox_cli", "tournament", *arguments],
        cwd=folder,
        check=True,
        capture_output=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def best(folders: list[Path], arguments: list[str], repeats: int) -> list[float]:
    """The least CPU time of each folder, runs alternating so load changes hit both alike."""
    found = [float("inf")] * len(folders)
    for _ in range(repeats):
        for index, folder in enumerate(folders):
            found[index] = min(found[index], cpu_seconds(folder, arguments))
    return found


def shared(one: object, other: object) -> bool:
    """Whether two reports agree on everything both report (a newer one may report more)."""
    if isinstance(one, dict) and isinstance(other, dict):
        return all(shared(one[key], other[key]) for key in one.keys() & other.keys())
    if isinstance(one, list) and isinstance(other, list):
        return len(one) == len(other) and all(shared(a, b) for a, b in zip(one, other, strict=True))
    return one == other


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="a checkout of an earlier commit")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", type=int, default=20000)
    options = parser.parse_args()
    folders = [ROOT, options.baseline.resolve()]
    with tempfile.TemporaryDirectory() as temporary:
        # Every run keeps its compiled modules here (each checkout's apart: they are kept by path).
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ["PYTHONPYCACHEPREFIX"] = str(Path(temporary) / "bytecode")
        reader = Path(temporary) / "reader.py"
        reader.write_text(READER)
        cases = {
            "context reader (user) + optimal": [f"{reader}:Reader"],
            "target + optimal, 3 rounds": ["target", "--rounds", "3"],
        }
        print(f"{options.games:,} games, -j 1, best of {options.repeats}; games per CPU-second")
        print(f"{'case':34} {'':8} {'now':>9} {'baseline':>9} {'now/baseline':>13}")
        for title, case in cases.items():
            spec, *rules = case
            field = ["-s", spec, "-s", "optimal", *rules, "--seed", "1", "-j", "1", "-q"]
            reports = [Path(temporary) / f"{side}.toml" for side in ("now", "baseline")]
            for folder, report in zip(folders, reports, strict=True):
                cpu_seconds(folder, [*field, "-n", str(options.games), "--report", str(report)])
            same = shared(*(tomllib.loads(report.read_text()) for report in reports))
            whole = best(folders, [*field, "-n", str(options.games)], options.repeats)
            small = best(folders, [*field, "-n", str(SMALL)], options.repeats)
            rates = {
                "whole": [options.games / seconds for seconds in whole],
                "playing": [(options.games - SMALL) / max(w - s, 1e-9) for w, s in zip(whole, small, strict=True)],
            }
            for kind, (now, before) in rates.items():
                shown = title if kind == "whole" else ""
                print(f"{shown:34} {kind:8} {now:9,.0f} {before:9,.0f} {now / before:12.1f}x")
            print(f"{'':34} {'reports':8} {'agree' if same else 'DIFFER'}")


if __name__ == "__main__":
    main()
