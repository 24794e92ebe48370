"""Timing shared by the benchmarks: the best of several runs, the least disturbed by a busy machine."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_seconds(job: Callable[[], object], repeats: int) -> float:
    """The fastest of `repeats` timed runs of `job`."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        job()
        best = min(best, time.perf_counter() - start)
    return best
