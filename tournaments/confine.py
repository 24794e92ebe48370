"""What a process that runs strategies' code does first, so the run can always stop it: a
process group of its own (the run ends it and every process a strategy started in one
signal), death with the process that started it, and a memory limit."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys

MiB = 1 << 20
MAX_WORKERS_PER_CORE = 4
"""`--workers` may ask for at most this many processes per core: more only share the cores."""
MIN_MEMORY_LIMIT_MIB = 256
"""Below this a worker cannot even load numpy and the strategies."""
_PR_SET_PDEATHSIG = 1


def cores() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def max_workers() -> int:
    """The most worker processes a run may start on this machine."""
    return MAX_WORKERS_PER_CORE * cores()


def default_memory_limit_mib(workers: int) -> int:
    """A memory limit per worker that keeps the machine usable: three quarters of its memory,
    shared by the workers (no limit is set where the size of memory is unknown: 0)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return 0
    return max(MIN_MEMORY_LIMIT_MIB, total * 3 // 4 // max(1, workers) // MiB)


def confine(memory_limit_mib: int | None) -> None:
    """Make this process the leader of a group of its own, have it killed when its parent dies
    (Linux), and limit its address space to `memory_limit_mib` MiB (None or 0: no limit)."""
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    die_with_parent()
    if memory_limit_mib:
        with contextlib.suppress(ImportError, ValueError, OSError):
            import resource

            limit = memory_limit_mib * MiB
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def die_with_parent() -> None:
    """Ask the kernel to kill this process when the process that started it ends (Linux only;
    elsewhere workers notice their closed pipe instead)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def kill_group(pid: int) -> None:
    """Kill the process group led by `pid`: the worker and everything a strategy started."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
