"""What a run on a Dask cluster waits for, in one queue: tasks that start and end units (told by
the workers), tasks done (told by the client's thread), and a stop signal (noted by a handler,
raised where it is safe)."""

from __future__ import annotations

import contextlib
import queue
import signal
import threading
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

_STOPS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals that stop a run, noted while it is on a cluster."""


class TaskNews(NamedTuple):
    """A task started a unit (`unit`), or ended (`unit` None), on `worker`. Its wire form is the
    plain dict a worker logs (Dask's events travel as msgpack), read back by `of`."""

    task: int
    unit: int | None
    worker: str

    def wire(self) -> dict[str, Any]:
        return self._asdict()

    @classmethod
    def of(cls, event: Mapping[str, Any]) -> TaskNews:
        return cls(event["task"], event["unit"], event["worker"])


class TaskDone(NamedTuple):
    """A task's future is done (told by the client's thread): the task by its first unit's number."""

    task: int


class _Interrupted(NamedTuple):
    """A stop signal (Ctrl-C, SIGTERM, SIGHUP)."""


_Event = TaskNews | TaskDone | _Interrupted


class Events:
    """What a run waits for: tasks that start and end (told by the workers), units done (told by
    the client's thread), and a stop signal (Ctrl-C, SIGTERM, SIGHUP). A stop is noted by a signal
    handler and raised by the run where it is safe, by the handler the signal had before (the
    caller's, which may note which signal it was), else as a KeyboardInterrupt: one in the middle
    of distributed's own code can leave its client hung."""

    def __init__(self) -> None:
        self.queue: queue.Queue[_Event] = queue.Queue()
        self.stop: tuple[int, Any] | None = None
        """The signal that stopped the run, and the handler it had before the run."""

    def put(self, event: _Event) -> None:
        self.queue.put(event)

    def get(self, timeout: float) -> _Event:
        """The next event; queue.Empty after `timeout` seconds without one; KeyboardInterrupt after a stop."""
        event = self.queue.get(timeout=timeout)
        self.check()
        return event

    def check(self) -> None:
        if self.stop is None:
            return
        number, previous = self.stop
        if callable(previous):
            previous(number, None)
        raise KeyboardInterrupt

    @contextlib.contextmanager
    def noting_stops(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        before: dict[int, Any] = {}

        def note(number: int, frame: Any) -> None:
            if self.stop is None:
                self.stop = (number, before.get(number))
                self.put(_Interrupted())

        for number in _STOPS:
            before[number] = signal.signal(number, note)
        try:
            yield
        finally:
            for number, handler in before.items():
                signal.signal(number, handler)
