"""A host's start measured two ways taking turns, shared by the benchmarks of what the supervisor
(supervisor.py) and the confinement (confinement.py) add: a small file strategy launched and made
ready (loaded, its reply read), then stopped."""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from shutbox_cli.game import Rules
from tournaments.referee import isolation

STRATEGY = """
from strategies import Strategy


class Small(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]
"""
RULES = Rules()
MEMORY_LIMIT_MIB = 1024


def launch_and_ready(spec: str) -> float:
    """Seconds from launching a host to its strategy loaded; the host is then stopped."""
    start = time.perf_counter()
    host = isolation.Host.launch(spec, {}, None, RULES, timeout=60, memory_limit_mib=MEMORY_LIMIT_MIB).ready()
    seconds = time.perf_counter() - start
    host.stop()
    return seconds


def taking_turns(ways: Mapping[str, Callable[[str], float]], launches: int, where: str = "") -> None:
    """Time each way (a launch and ready of the small strategy's spec) `launches` times, the ways
    taking turns, and print each one's median and best and what the last adds to the first."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "small.py"
        path.write_text(STRATEGY)
        spec = f"{path}:Small"
        launch_and_ready(spec)  # the file system's caches warmed for every way
        found: dict[str, list[float]] = {way: [] for way in ways}
        for _ in range(launches):
            for way, timed in ways.items():
                found[way].append(timed(spec))
    medians = {way: statistics.median(seconds) for way, seconds in found.items()}
    print(f"{launches} launches + ready of a small file strategy, each way, taking turns{where}:")
    for way, seconds in found.items():
        print(f"  {way:<10}  median {medians[way] * 1000:6.1f} ms   best {min(seconds) * 1000:6.1f} ms")
    first, *_, last = medians
    added = medians[last] - medians[first]
    print(f"  {last} adds {added * 1000:.1f} ms a host: {medians[last] / medians[first]:.2f}x")
