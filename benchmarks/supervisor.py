"""What a host's supervisor adds to a host's start, measured (not tested): a small file strategy
launched and made ready (loaded, its reply read) --launches times each way, the two ways taking
turns in one run: through the supervisor, as `Host` starts a host, and started directly, as
hosts were started before the supervisor (that command is kept here only). The direct host
sets no memory limit and starts no guard, so the ratio is an upper bound on what the
supervisor adds.

Run: python benchmarks/supervisor.py [--launches N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from shutbox_cli.game import Rules
from tournaments.referee import isolation, supervisor

STRATEGY = """
from strategies import Strategy


class Small(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]
"""
RULES = Rules()
MEMORY_LIMIT_MIB = 1024


def direct(command: Sequence[str], memory_limit_mib: int, pass_fds: Sequence[int] = ()) -> subprocess.Popen[bytes]:
    """A host started as before the supervisor: its own command, no process between."""
    return subprocess.Popen(command, pass_fds=tuple(pass_fds), stdin=subprocess.DEVNULL, process_group=0)


def launch_and_ready(spec: str) -> float:
    """Seconds from launching a host to its strategy loaded; the host is then stopped."""
    start = time.perf_counter()
    host = isolation.Host.launch(spec, {}, None, RULES, timeout=60, memory_limit_mib=MEMORY_LIMIT_MIB).ready()
    seconds = time.perf_counter() - start
    host.stop()
    return seconds


def timed(start: Callable[..., subprocess.Popen[bytes]], spec: str) -> float:
    """One launch and ready with hosts started by `start`."""
    kept = supervisor.start
    supervisor.start = start
    try:
        return launch_and_ready(spec)
    finally:
        supervisor.start = kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=20)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "small.py"
        path.write_text(STRATEGY)
        spec = f"{path}:Small"
        launch_and_ready(spec)  # the file system's caches warmed for both ways
        ways: dict[str, list[float]] = {"direct": [], "supervised": []}
        for _ in range(arguments.launches):
            ways["direct"].append(timed(direct, spec))
            ways["supervised"].append(timed(supervisor.start, spec))
    medians = {way: statistics.median(seconds) for way, seconds in ways.items()}
    print(f"{arguments.launches} launches + ready of a small file strategy, each way, taking turns:")
    for way, seconds in ways.items():
        print(f"  {way:<10}  median {medians[way] * 1000:6.1f} ms   best {min(seconds) * 1000:6.1f} ms")
    added = medians["supervised"] - medians["direct"]
    print(f"  the supervisor adds {added * 1000:.1f} ms a host: {medians['supervised'] / medians['direct']:.2f}x")


if __name__ == "__main__":
    sys.exit(main())
