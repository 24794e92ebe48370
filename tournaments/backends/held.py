"""Signals held off while a run starts or stops its processes (a pool's workers, a local Dask
cluster), so that none is half started nor a clean-up cut short."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

HELD = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
"""Signals that stop a run (Ctrl-C, and those a caller may handle like it)."""


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold back the signals that stop a run for a while: they take effect when it ends, so a
    worker is never half started nor the clean-up cut short. They are blocked (a worker
    started meanwhile inherits that, until it is its own group), and, since another thread of
    this process may take one anyway, their handlers only note them until then."""
    arrived: list[int] = []
    handlers: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for number in HELD:
            if signal.getsignal(number) is not None:
                handlers[number] = signal.signal(number, lambda number, frame: arrived.append(number))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, HELD) if hasattr(signal, "pthread_sigmask") else None
    try:
        yield
    finally:
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for number, handler in handlers.items():
            signal.signal(number, handler)
        for number in dict.fromkeys(arrived):
            signal.raise_signal(number)


@contextlib.contextmanager
def ctrl_c_ignored() -> Iterator[None]:
    """Ignore SIGINT for a while (only the main thread can change signal handlers); the Dask
    backend's processes inherit it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
