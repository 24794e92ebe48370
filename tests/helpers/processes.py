"""The process table, as the tests read it from /proc (Linux): the processes of a run found by an
environment marker every process it starts inherits, or by process group; waiting, with a generous
deadline, until none is left; and killing the leftovers, so that a failing test leaves nothing
running behind it.

A process that detaches (a new session, a new process group, a double fork) keeps its environment,
so the marker finds it wherever it went; a zombie has no environment left and is already dead, so
it is never counted. A process started with an environment of its own is found only if it left its
id in a folder a `Mark` watches (see `recorded`)."""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

MARKER = "SHUTBOX_TEST_MARKER"
"""The environment variable that marks the processes of one run."""
PROC = Path("/proc")
READABLE = (PROC / "self" / "environ").exists()
"""Whether this system has the process table these helpers read."""


def _fields(pid: str) -> list[str] | None:
    """A process's /proc stat from its state on (field 3 of proc(5) first), or None once it is gone."""
    try:
        return (PROC / pid / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _state(pid: str) -> tuple[str, int] | None:
    """A process's state letter and process group, or None once it is gone."""
    fields = _fields(pid)
    return None if fields is None else (fields[0], int(fields[2]))


def start_time(pid: str) -> str | None:
    """When a process started, in clock ticks since boot (with its id, it names one process for good)."""
    fields = _fields(pid)
    return None if fields is None else fields[19]


def recorded(folder: Path) -> list[int]:
    """The live processes (zombies aside) that left a file in a folder, named by their id and
    holding their start time (field 22 of /proc/PID/stat): a pid reused since is not theirs."""
    found = []
    for entry in folder.iterdir() if folder.is_dir() else ():
        state = _state(entry.name)
        if state is not None and state[0] != "Z" and start_time(entry.name) == entry.read_text():
            found.append(int(entry.name))
    return found


def _pids() -> list[str]:
    return [entry for entry in os.listdir(PROC) if entry.isdigit()]


def marked(mark: str) -> list[int]:
    """The live processes (zombies aside) but this one whose environment carries `MARKER=mark`."""
    needle = f"{MARKER}={mark}".encode()
    found = []
    for pid in _pids():
        if int(pid) == os.getpid():
            continue
        try:
            environ = (PROC / pid / "environ").read_bytes()
        except OSError:  # gone, or not ours to read
            continue
        state = _state(pid)
        if needle in environ.split(b"\0") and state is not None and state[0] != "Z":
            found.append(int(pid))
    return found


def group_of(pid: int) -> int | None:
    """A live process's group (None: gone, or a zombie)."""
    state = _state(str(pid))
    return None if state is None or state[0] == "Z" else state[1]


def group_members(group: int) -> list[int]:
    """The live processes (zombies aside) of a process group."""
    found = []
    for pid in _pids():
        state = _state(pid)
        if state is not None and state[0] != "Z" and state[1] == group:
            found.append(int(pid))
    return found


def wait_for(done: Callable[[], object], within: float = 60) -> bool:
    """Whether `done()` became true within some seconds, asked every 50 ms."""
    deadline = time.monotonic() + within
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def left(find: Callable[[], list[int]], within: float = 30) -> list[int]:
    """What `find` still finds once the dying have had some seconds to go: [] as soon as none is left."""
    wait_for(lambda: not find(), within)
    return find()


def kill_all(find: Callable[[], list[int]], within: float = 30) -> list[int]:
    """SIGKILL what `find` finds, again and again while a process forks more, until none is left or
    the seconds run out; what is still there then."""
    deadline = time.monotonic() + within
    while (found := find()) and time.monotonic() < deadline:
        for pid in found:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.05)
    return find()


class Mark:
    """A marker for one test's runs: `env` gives it to a command, `watch` adds a folder processes
    record their ids in, `left()` waits for its processes to end and lists those that did not,
    `kill()` ends them all."""

    def __init__(self) -> None:
        self.mark = uuid.uuid4().hex
        self.env = {MARKER: self.mark}
        self.folders: list[Path] = []

    def watch(self, folder: Path) -> None:
        self.folders.append(folder)

    def find(self) -> list[int]:
        return sorted({*marked(self.mark), *(pid for folder in self.folders for pid in recorded(folder))})

    def left(self, within: float = 30) -> list[int]:
        return left(self.find, within)

    def kill(self) -> list[int]:
        return kill_all(self.find)


@contextlib.contextmanager
def marking() -> Iterator[Mark]:
    """A fresh marker; whatever carries it is killed on the way out, however the test went."""
    mark = Mark()
    try:
        yield mark
    finally:
        mark.kill()
