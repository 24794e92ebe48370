"""What a context-reading strategy asked turn by turn costs, measured (not tested): whole
`shutbox tournament -j 1` commands in this checkout and in a baseline checkout (an earlier
commit), side by side, alternating, as games per CPU-second (this process's children: the
command, its hosts and their supervisors), the best of several runs each.

- an unkeyed context-reading user strategy + optimal (asked in its host, a step's turns at once);
- a stochastic user strategy that reads nothing of the game + optimal (asked the same way, shown
  views that hold stand-ins for the turn and the context); and with `target` too, in games of three
  rounds (where `target` reads the game, its matchup is played turn by turn, not in bulk);
- `target` + optimal in games of three rounds (a built-in context reader, unkeyed there: in one
  round it is keyed and plays in bulk, which `benchmarks/keyed.py` measures).

"whole" counts the command's every CPU-second; "playing" takes off what the same command costs
for `--games 100` (start-up, hosts, tabulating optimal), so it is the rate of play itself. Both
checkouts run from cached bytecode, as an installed copy does (compiled by the first run into a
temporary folder, whatever the environment says about writing bytecode). The reports of both
checkouts are compared too, on what both report (they must agree when no strategy is stochastic).

Measured against the checkout issue 21 calls "today" (20,000 games, best of 5, two runs one
after the other on a shared 2-core machine at a load of 5 to 6; the figures of one run, the
other's in brackets):

| case | | now | today | now/today |
|---|---|---|---|---|
| context reader (user) + optimal | whole | 23,272 | 6,333 | 3.7x (3.3x) |
| | playing | 52,448 | 9,805 | 5.3x (4.9x) |
| `target` + optimal, 3 rounds | whole | 10,903 | 3,067 | 3.6x (4.0x) |
| | playing | 21,092 | 3,704 | 5.7x (7.3x) |

At such a load a run's processor time varies by a fifth from one run to the next, the baseline's
as much as this checkout's: a ratio is good to about a fifth too. The reader's "whole" is mostly
start-up: the command costs about 0.4 CPU-s before its first game (the referee's imports, its
options and field, tabulating optimal, a host started: about 0.1 of it the host's), and its
20,000 games about 0.3 CPU-s, the host about 60% of them (the strategy asked about 55,000 times,
a view built for each question). Its games played in units of 400 (`plan.UNIT_GAMES`), a round
trip to the host a seat of each round: the same run with units of 2,000 games measured
101,748 games per CPU-second of play (8.5x) and 26,654 whole (3.9x) at the same load.

Units now hold 2,000 games. At the end of the stop, nothing else running (load about 1):
20,000 games, best of 5: the reader whole 4.0x (32,861 / 8,218), playing 4.6x (69,544 / 15,101);
target whole 4.8x, playing 10.4x. 100,000 games (`--games 100000`), best of 3: the reader whole
5.3x (70,889 / 13,343), playing 6.0x (94,319 / 15,746); target whole 9.4x, playing 12.6x. The
cheap path's own branch (units of 400) against the merged code (2,000; the same play code),
100,000 games, best of 3: 80,757 and 99,689 games per CPU-second of play.

The context-free chancer, its views holding stand-ins for the turn and the context (and its host
sent no more of a turn's context than its seat and round), against the checkout before (whose
views held None and an empty turn), 20,000 games, best of 3: at a load of about 4.8, + optimal
whole 25,597 / 24,892 (1.03x), playing 44,655 / 42,768 (1.04x); a second run at about 3.6,
+ optimal playing 45,990 / 45,892 (1.00x), + optimal + target over 3 rounds playing 6,859 / 7,098
(0.97x), whole 5,545 / 5,614 (0.99x): no cost to see beside a run's own noise.

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
"""The strategies a user might write (benchmarks/reader.py), written where a run finds them."""
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
            "context-free chancer (user) + optimal": [f"{reader}:Chancer"],
            "the chancer + optimal + target, 3 rounds": [f"{reader}:Chancer", "-s", "target", "--rounds", "3"],
            "target + optimal, 3 rounds": ["target", "--rounds", "3"],
        }
        print(f"{options.games:,} games, -j 1, best of {options.repeats}; games per CPU-second")
        print(f"{'case':42} {'':8} {'now':>9} {'baseline':>9} {'now/baseline':>13}")
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
                print(f"{shown:42} {kind:8} {now:9,.0f} {before:9,.0f} {now / before:12.1f}x")
            print(f"{'':42} {'reports':8} {'agree' if same else 'DIFFER'}")


if __name__ == "__main__":
    main()
