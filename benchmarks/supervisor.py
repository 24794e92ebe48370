"""What a host's supervisor adds to a host's start, measured (not tested): a small file strategy
launched and made ready (loaded, its reply read) --launches times each way, the two ways taking
turns in one run: through the supervisor, as `Host` starts a host, and started directly, as
hosts were started before the supervisor (that command is kept here only). The direct host
sets no memory limit and starts no guard, so the ratio is an upper bound on what the
supervisor adds.

Run: python benchmarks/supervisor.py [--launches N]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Callable, Sequence

from host_start import launch_and_ready, taking_turns

from tournaments.referee import supervisor


def direct(command: Sequence[str], memory_limit_mib: int, pass_fds: Sequence[int] = ()) -> subprocess.Popen[bytes]:
    """A host started as before the supervisor: its own command, no process between."""
    return subprocess.Popen(command, pass_fds=tuple(pass_fds), stdin=subprocess.DEVNULL, process_group=0)


def started_by(start: Callable[..., subprocess.Popen[bytes]]) -> Callable[[str], float]:
    """One launch and ready with hosts started by `start`."""

    def timed(spec: str) -> float:
        kept = supervisor.start
        supervisor.start = start
        try:
            return launch_and_ready(spec)
        finally:
            supervisor.start = kept

    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=20)
    arguments = parser.parse_args()
    taking_turns({"direct": started_by(direct), "supervised": started_by(supervisor.start)}, arguments.launches)


if __name__ == "__main__":
    sys.exit(main())
