"""What a process that runs strategies' code does first, so the run can always stop it: a
process group of its own (the run ends it and every process a strategy started in one
signal), death with the process that started it, and a memory limit."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time

from .seccomp import undumpable

MiB = 1 << 20
MAX_WORKERS_PER_CORE = 4
"""`--workers` may ask for at most this many processes per core: more only share the cores."""
MIN_MEMORY_LIMIT_MIB = 256
"""Below this a worker cannot even load numpy and the strategies."""
PARENT_GONE = 70
"""A worker's exit status when the process that started it is gone (nobody reads it)."""
_PR_SET_PDEATHSIG = 1
_WATCH_SECONDS = 0.5
"""How often a worker without PR_SET_PDEATHSIG looks whether its parent is still there."""


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


def host_memory_limit(configured: int | None, workers: int | None) -> int:
    """MiB a strategy's host may use: the run's limit per worker (`memory_limit`), else a default
    share of the machine's memory, as if there were two processes per worker."""
    if configured is not None:
        return configured
    return default_memory_limit_mib(2 * (workers or cores()))


def memory_limit_mib(configured: int | None, workers: int) -> int:
    """The memory limit of each of `workers` processes: the configured one (0: none), or the
    default share when none is configured."""
    return default_memory_limit_mib(workers) if configured is None else configured


def confine(memory_limit_mib: int | None, parent: int | None = None) -> None:
    """Make this process the leader of a group of its own, have it end when its parent
    (`parent`, the pid that started it, if known) does, limit its address space to
    `memory_limit_mib` MiB (None or 0: no limit), and let no process of the user's attach to it."""
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    undumpable()
    die_with_parent(parent)
    if memory_limit_mib:
        with contextlib.suppress(ImportError, ValueError, OSError):
            import resource

            limit = memory_limit_mib * MiB
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def die_with_parent(parent: int | None = None) -> None:
    """End this process when the process that started it ends: the kernel kills it on Linux;
    elsewhere a daemon thread looks every half second. If `parent` is already gone (it ended
    before the kernel was asked), end now."""
    if sys.platform.startswith("linux"):
        _on_parent_death(signal.SIGKILL)
        _guard_group()
    elif parent is not None:
        threading.Thread(target=_watch_parent, args=(parent,), name="shutbox-parent-watch", daemon=True).start()
    if parent is not None and os.getppid() != parent:
        os._exit(PARENT_GONE)


def _on_parent_death(signal_number: int) -> None:
    """Ask the Linux kernel to send this process `signal_number` when its parent ends."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal_number, 0, 0, 0)


def _guard_group() -> None:
    """Start a guard: a small child in this process's group, holding none of its files, that
    kills the whole group when this process ends, however it ends, so that processes a
    strategy started do not outlive it (the kernel kills only this process with its parent)."""
    leader = os.getpid()
    try:
        if os.fork() != 0:
            return
    except OSError:
        return
    try:
        os.closerange(3, os.sysconf("SC_OPEN_MAX"))
        for number in (signal.SIGINT, signal.SIGHUP):
            signal.signal(number, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, lambda number, frame: os.killpg(0, signal.SIGKILL))
        if hasattr(signal, "pthread_sigmask"):  # a worker forked while its run held the stop signals holds them too
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
        _on_parent_death(signal.SIGTERM)
        if os.getppid() != leader:
            os.killpg(0, signal.SIGKILL)
        while True:
            signal.pause()
    finally:
        os._exit(0)


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_WATCH_SECONDS)
    os._exit(PARENT_GONE)


def kill_group(pid: int) -> None:
    """Kill the process group led by `pid`: the worker and everything a strategy started."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
