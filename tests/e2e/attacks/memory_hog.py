"""Takes a gibibyte at import and holds it (written to, so really used), then leaves a file named
by its process id in the folder $SHUTBOX_TEST_HOARDED names: with --memory-limit 512, the
referee's process, which had no limit, grew to 2 GiB."""

import os
from pathlib import Path

from strategies import Strategy

HOARD = [b"x" * (1 << 24) for _ in range(64)]
if os.environ.get("SHUTBOX_TEST_HOARDED"):
    Path(os.environ["SHUTBOX_TEST_HOARDED"], str(os.getpid())).touch()


class Mine(Strategy):
    def choose_move(self, view):
        return view.legal_moves[0]


class Reader(Mine):
    reads_context = True
