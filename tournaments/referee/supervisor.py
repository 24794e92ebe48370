"""A host's supervisor: a small process between the referee and a strategy's host that never runs
a user's code, so that whatever the strategy starts ends with it.

`start` runs it (`python -P -S -c CODE FOLDER REFEREE LIMIT FDS COMMAND...`, this file imported by
itself: the standard library only, fast to start). It starts COMMAND (the host) with a memory
limit that neither the host nor anything it starts can raise, set before the host's code runs,
and reaps every process. Once the host ends, or the referee asks it to stop (SIGTERM, `stop`), or
the referee dies, it kills every process the host started however it detached (`setsid`,
`setpgid`, a double fork: on Linux it is their child subreaper, so they become its children), and
exits as the host did: with its status, or killed by its signal.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:  # the supervisor imports only what it runs: it starts for every host
    import subprocess
    import threading
    from collections.abc import Sequence
    from types import FrameType
    from typing import NoReturn

CODE = "import sys; sys.path.insert(0, sys.argv[1]); from supervisor import main; main()"
"""The supervisor's program: its arguments are this file's folder, the referee's pid, the host's
memory limit in MiB (0: none), the file descriptors the host is given (comma-separated) and the
host's command."""
FOLDER = os.path.dirname(os.path.abspath(__file__))
LINUX = sys.platform.startswith("linux")
PARENT_GONE = 70
"""The supervisor's status when the referee is gone before the host starts (nobody reads it)."""
CANNOT_START = 127
"""The host's status when its command cannot be run."""
OVER_MEMORY = 88
"""The supervisor's status when the host and the processes it started used more than the memory
limit together (each process alone cannot: the limit is on each one's address space)."""
WATCH_SECONDS = 0.5
"""How often the supervisor looks whether the referee is still there (on Linux the kernel also
tells it at once) and, on Linux, how much memory the host and all it started use together."""
PASSED_SECONDS = 2.0
"""How long the supervisor waits, once every process of the host's is gone, for what they wrote to
be passed on (a process that escaped it may hold its pipe: it is not waited for longer)."""
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
"""The signals that ask the supervisor to stop the host (and all it started) and exit."""
PARENT_DIED = signal.SIGUSR1
"""The signal the Linux kernel sends the supervisor when the thread that started it ends: it then
stops only if the referee itself is gone."""
_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_SET_CHILD_SUBREAPER = 36
_MiB = 1 << 20


def start(command: Sequence[str], memory_limit_mib: int, pass_fds: Sequence[int] = ()) -> subprocess.Popen[bytes]:
    """Start `command` under a supervisor of its own, `pass_fds` open in it, its stdin empty and its
    stdout and stderr this process's stderr (never the results stream); the supervisor leads a
    process group of its own, away from the terminal's Ctrl-C (the referee decides what it stops).
    Raises OSError if it cannot start."""
    import subprocess

    fds = ",".join(str(fd) for fd in pass_fds)
    arguments = [FOLDER, str(os.getpid()), str(memory_limit_mib), fds, *command]
    return subprocess.Popen(
        [sys.executable, "-P", "-S", "-c", CODE, *arguments],
        pass_fds=tuple(pass_fds),
        stdin=subprocess.DEVNULL,
        stdout=2,
        process_group=0,
    )


def stop(process: subprocess.Popen[bytes], timeout: float) -> None:
    """Have the supervisor kill the host and all it started, and wait for it; if it is not gone
    within `timeout` seconds (stopped, or killed: a strategy may signal it), kill its process group."""
    import subprocess

    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    process.send_signal(signal.SIGCONT)  # in case a strategy stopped it
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(process.pid, group=True)
        try:  # noqa: SIM105 - no contextlib here: the supervisor imports this module as it starts
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass


class _Signals:
    """The signals the supervisor has been sent, noted by handlers that only wake its loop."""

    def __init__(self) -> None:
        self.stopping = False
        wake, self.woken = os.pipe()
        self.wake = wake
        for fd in (wake, self.woken):
            os.set_blocking(fd, False)
        signal.set_wakeup_fd(self.woken)
        for number in (*STOP_SIGNALS, signal.SIGCHLD, PARENT_DIED):
            signal.signal(number, self._note)

    def _note(self, number: int, frame: FrameType | None) -> None:
        if number in STOP_SIGNALS:
            self.stopping = True

    def wait(self) -> None:
        """Sleep until a signal comes, or WATCH_SECONDS pass."""
        select.select([self.wake], [], [], WATCH_SECONDS)
        try:  # noqa: SIM105 - no contextlib: it would cost every supervisor's start
            os.read(self.wake, 4096)
        except BlockingIOError:
            pass


def main() -> NoReturn:
    referee, limit, fds = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    supervise(sys.argv[5:], referee, limit, [int(fd) for fd in fds.split(",") if fd])


def supervise(command: list[str], referee: int, memory_limit_mib: int, pass_fds: list[int]) -> NoReturn:
    """Run the host to its end, or until the referee stops or is gone, then end all it started
    and exit as it did."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # inherited by the host: the referee decides what Ctrl-C stops
    signals = _Signals()
    if LINUX:
        _prctl(_PR_SET_CHILD_SUBREAPER, 1)
        _prctl(_PR_SET_PDEATHSIG, PARENT_DIED)
        _prctl(_PR_SET_DUMPABLE, 0)  # no process of the host's may attach to this one
    if os.getppid() != referee:  # gone before the kernel was asked to tell
        os._exit(PARENT_GONE)
    said, saying = os.pipe()
    host = _start_host(command, memory_limit_mib, saying)
    os.close(saying)
    passing = _pass_on(said)
    for fd in pass_fds:  # the host's alone: its end closes when the host's processes end
        os.close(fd)
    status: int | None = None
    weighed = 0.0
    while status is None and not signals.stopping and os.getppid() == referee:
        status = _reap(host)
        if status is None and memory_limit_mib and time.monotonic() - weighed >= WATCH_SECONDS:
            weighed = time.monotonic()
            if _memory_used() > memory_limit_mib * _MiB:
                _end_all(host, status)
                passing.join(PASSED_SECONDS)
                os._exit(OVER_MEMORY)
        if status is None:
            signals.wait()
    ended = _end_all(host, status)
    passing.join(PASSED_SECONDS)  # every process that wrote is gone: what they wrote is passed on
    _exit_as(ended)


def _pass_on(said: int) -> threading.Thread:
    """Pass what the host and its processes write on to this process's stderr (the referee's) in a
    thread of its own, every control character but newline and tab left out: a host holds no
    descriptor of the referee's terminal or output (it could type into the terminal, read from it,
    or hold a pipe whoever reads the run's output waits on), and writes no escape sequence there."""
    import codecs
    import threading
    import unicodedata

    def run() -> None:
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        while chunk := os.read(said, 65536):
            text = decoder.decode(chunk)
            kept = "".join(c for c in text if c in "\n\t" or unicodedata.category(c)[0] != "C")
            with contextlib.suppress(OSError):
                os.write(2, kept.encode())

    passing = threading.Thread(target=run, name="shutbox-host-output", daemon=True)
    passing.start()
    return passing


def _start_host(command: list[str], memory_limit_mib: int, output: int) -> int:
    """Fork the host: a process group of its own, killed by the kernel if this process dies, its
    memory limited, its output (stdout and stderr) into `output`, then its command run."""
    supervisor = os.getpid()
    try:
        pid = os.fork()
    except OSError as error:
        _say_cannot_start(error)
        os._exit(CANNOT_START)
    if pid:
        return pid
    try:
        signal.set_wakeup_fd(-1)
        for number in (*STOP_SIGNALS, signal.SIGCHLD, PARENT_DIED):
            signal.signal(number, signal.SIG_DFL)
        os.setpgid(0, 0)
        os.dup2(output, 1)
        os.dup2(output, 2)
        os.close(output)
        if LINUX:
            _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != supervisor:
            os._exit(PARENT_GONE)
        if memory_limit_mib:
            _limit_memory(memory_limit_mib * _MiB)
        os.execv(command[0], command)
    except Exception as error:  # said where the user reads it; the referee says the status
        _say_cannot_start(error)
    finally:
        os._exit(CANNOT_START)


def _say_cannot_start(error: Exception) -> None:
    os.write(2, f"shutbox: cannot start a strategy's host: {error}\n".encode())


def _limit_memory(limit: int) -> None:
    """Limit this process's address space, and its children's, to `limit` bytes: soft and hard
    alike, so that it cannot be raised (not above the hard limit it already has)."""
    import resource

    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _reap(host: int) -> int | None:
    """Reap every child that has ended (the host's orphans come here on Linux): the host's wait
    status once it has ended."""
    found = None
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return found
        if pid == 0:
            return found
        if pid == host:
            found = status


def _end_all(host: int, status: int | None) -> int:
    """Kill the host's process group and every descendant, over and over as the dying's children
    come to this process, reaping them, until none is left: the host's wait status."""
    _kill(host, group=True)
    while True:
        for pid in _descendants(os.getpid()):
            _kill(pid)
        try:
            pid, ended = os.waitpid(-1, 0)
        except ChildProcessError:  # none left; the host has been reaped here, or was before
            return signal.SIGKILL if status is None else status  # (a wait status: killed by SIGKILL)
        if pid == host:
            status = ended


def _descendants(pid: int) -> list[int]:
    """Every process below `pid`, from the kernel's lists of each thread's children (none where
    the system has no such lists: the group kill and the host's death are all there is)."""
    found: list[int] = []
    parents = [pid]
    while parents:
        parent = parents.pop()
        try:
            threads = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for thread in threads:
            try:
                with open(f"/proc/{parent}/task/{thread}/children") as listed:
                    children = listed.read().split()
            except OSError:
                continue
            found += map(int, children)
            parents += map(int, children)
    return found


def _memory_used() -> int:
    """The bytes this process's descendants use together: their shares of the memory they hold
    (Linux's proportional set size: a page shared by n of them counts 1/n to each; 0 elsewhere)."""
    used = 0
    for pid in _descendants(os.getpid()):
        try:
            with open(f"/proc/{pid}/smaps_rollup") as rollup:
                used += next(int(line.split()[1]) * 1024 for line in rollup if line.startswith("Pss:"))
        except (OSError, ValueError, StopIteration):
            continue
    return used


def _exit_as(status: int) -> NoReturn:
    """End this process as the host ended: killed by the same signal, or with the same status."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            import resource

            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file for the host's crash
            signal.signal(number, signal.SIG_DFL)
        except (ImportError, ValueError, OSError):  # SIGKILL's cannot be set: it needs none
            pass
        os.kill(os.getpid(), number)
        os._exit(128 + number)
    os._exit(os.waitstatus_to_exitcode(status))


def _kill(pid: int, group: bool = False) -> None:
    """Kill a process, or the process group it leads, if it is still there."""
    try:  # noqa: SIM105 - no contextlib: it would cost every supervisor's start
        (os.killpg if group else os.kill)(pid, signal.SIGKILL)
    except OSError:
        pass


def _prctl(option: int, value: int) -> None:
    """Ask the Linux kernel for `option` on this process (nothing if it cannot be asked)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)
    except (ImportError, OSError, AttributeError):
        pass
