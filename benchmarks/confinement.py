"""What confining a host by the operating system adds to its start, measured (not tested): a small
file strategy launched and made ready (loaded, its reply read) --launches times each way, the two
ways taking turns in one run: confined, as every host is (docs/trust.md), and with the host's
confinement skipped (its program patched here, and only here), with the machine's load printed.

Run: python benchmarks/confinement.py [--launches N]
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

from host_start import launch_and_ready, taking_turns

from tournaments.referee import isolation
from tournaments.referee.confinement import state

UNCONFINED = isolation.HOST_CODE.replace(
    "from tournaments.referee.host import main; main()",
    "import tournaments.referee.host as host; host.confine_host = lambda *given: None; host.main()",
)


def running(code: str) -> Callable[[str], float]:
    """One launch and ready of a host running `code`."""

    def timed(spec: str) -> float:
        kept, isolation.HOST_CODE = isolation.HOST_CODE, code
        try:
            return launch_and_ready(spec)
        finally:
            isolation.HOST_CODE = kept

    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=20)
    arguments = parser.parse_args()
    where = f"\n(confinement here: {state()}; load average {' '.join(map(str, os.getloadavg()))})"
    ways = {"unconfined": running(UNCONFINED), "confined": running(isolation.HOST_CODE)}
    taking_turns(ways, arguments.launches, where)


if __name__ == "__main__":
    sys.exit(main())
