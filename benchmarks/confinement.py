"""What confining a host by the operating system adds to its start, measured (not tested): a small
file strategy launched and made ready (loaded, its reply read) --launches times each way, the two
ways taking turns in one run: confined, as every host is (docs/trust.md), and with the host's
confinement skipped (its program patched here, and only here), with the machine's load printed.

Run: python benchmarks/confinement.py [--launches N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from shutbox_cli.game import Rules
from tournaments.referee import isolation
from tournaments.referee.confinement import state

STRATEGY = """
from strategies import Strategy


class Small(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]
"""
RULES = Rules()
UNCONFINED = isolation.HOST_CODE.replace(
    "from tournaments.referee.host import main; main()",
    "import tournaments.referee.host as host; host.confine_host = lambda *given: None; host.main()",
)


def launch_and_ready(spec: str, code: str) -> float:
    """Seconds from launching a host running `code` to its strategy loaded; the host is then stopped."""
    kept, isolation.HOST_CODE = isolation.HOST_CODE, code
    try:
        start = time.perf_counter()
        host = isolation.Host.launch(spec, {}, None, RULES, timeout=60, memory_limit_mib=1024).ready()
        seconds = time.perf_counter() - start
    finally:
        isolation.HOST_CODE = kept
    host.stop()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=20)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "small.py"
        path.write_text(STRATEGY)
        spec = f"{path}:Small"
        launch_and_ready(spec, isolation.HOST_CODE)  # the file system's caches warmed for both ways
        ways: dict[str, list[float]] = {"unconfined": [], "confined": []}
        for _ in range(arguments.launches):
            ways["unconfined"].append(launch_and_ready(spec, UNCONFINED))
            ways["confined"].append(launch_and_ready(spec, isolation.HOST_CODE))
    medians = {way: statistics.median(seconds) for way, seconds in ways.items()}
    print(f"{arguments.launches} launches + ready of a small file strategy, each way, taking turns")
    print(f"(confinement here: {state()}; load average {' '.join(map(str, os.getloadavg()))}):")
    for way, seconds in ways.items():
        print(f"  {way:<10}  median {medians[way] * 1000:6.1f} ms   best {min(seconds) * 1000:6.1f} ms")
    added = medians["confined"] - medians["unconfined"]
    print(f"  confinement adds {added * 1000:.1f} ms a host: {medians['confined'] / medians['unconfined']:.2f}x")


if __name__ == "__main__":
    sys.exit(main())
