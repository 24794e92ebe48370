"""Signals that stop a command the way Ctrl-C does: SIGTERM and SIGHUP, like SIGINT, raise
`KeyboardInterrupt` in the main thread, once. Any later one is ignored, so that the clean stop
the first one started (workers killed and reaped, one message) is never cut short. The console
script takes them first thing, before the command line loads, so a stop at any moment is said
in one line and exits with the signal's status.

Kept light: the console script imports it before anything else."""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from types import FrameType

STOPPING = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals that stop a command cleanly, where the platform has them."""
RECEIVED: list[int] = []
"""The stop signals received, the first first (the first stops the command, the others are ignored)."""


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
    if RECEIVED and threading.current_thread() is threading.main_thread():
        for number in STOPPING:
            signal.signal(number, signal.SIG_IGN)


def received() -> int | None:
    """The signal that stopped the command, if one did."""
    return RECEIVED[0] if RECEIVED else None


def stopped_line() -> str:
    """What a command stopped by a signal says: that it was interrupted, and by which signal
    unless it was Ctrl-C (which the terminal shows as ^C, hence the line break first)."""
    number = received()
    if number in (None, signal.SIGINT):
        return "\nshutbox: interrupted."
    return f"shutbox: interrupted, by {signal.Signals(number).name}."


def stopped_status() -> int:
    """The exit status of a command stopped by a signal, as shells report one: 128 + its number
    (Ctrl-C, 130, when none was seen)."""
    return 128 + (received() or signal.SIGINT)


def say_stopped() -> int:
    """Say on stderr (if it is still there) that the command was stopped; its exit status."""
    with contextlib.suppress(OSError, ValueError):
        print(stopped_line(), file=sys.stderr, flush=True)
    return stopped_status()


def _stop(number: int, frame: FrameType | None) -> None:
    if RECEIVED:
        return
    RECEIVED.append(number)
    # Raised from C, not by a `raise` statement here: a KeyboardInterrupt that a statement raised
    # is the strategy's own (strategies.guard), one that lands wherever the program was is a stop.
    signal.default_int_handler(number, frame)
