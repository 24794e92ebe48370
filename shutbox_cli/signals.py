"""Signals that stop a command the way Ctrl-C does: SIGTERM and SIGHUP, like SIGINT, raise
`KeyboardInterrupt` in the main thread, once. Any later one is ignored, so that the clean stop
the first one started (workers killed and reaped, one message) is never cut short."""

from __future__ import annotations

import signal
import threading
from types import FrameType

STOPPING = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals that stop a command cleanly, where the platform has them."""
_received: list[int] = []


def stop_on_signals() -> None:
    """From now on the first of `STOPPING` to arrive raises KeyboardInterrupt; later ones are
    ignored. Call again to take the signals back from code that took them over (a strategy's
    module, imported in this process)."""
    if threading.current_thread() is not threading.main_thread():
        return
    for number in STOPPING:
        signal.signal(number, _stop)


def ignore_once_stopped() -> None:
    """Once a signal has stopped the command, ignore the others for good: Python gives its own
    handlers back to the system as it shuts down, and a late Ctrl-C would then kill it."""
    if _received and threading.current_thread() is threading.main_thread():
        for number in STOPPING:
            signal.signal(number, signal.SIG_IGN)


def received() -> int | None:
    """The signal that stopped the command, if one did."""
    return _received[0] if _received else None


def _stop(number: int, frame: FrameType | None) -> None:
    if _received:
        return
    _received.append(number)
    raise KeyboardInterrupt
