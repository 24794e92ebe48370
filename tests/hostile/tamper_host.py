"""Writes a reply of its own on its host's socket (the socket is the host's last argument), as a
strategy that wants the referee to believe something else would; anywhere else it just plays."""

from __future__ import annotations

import os
import struct
import sys

from strategies import Move, Strategy, View

FORGED = b'{"turns": [[511]]}'


class TamperHost(Strategy):
    """Forges its host's reply at its first decision, then plays the first legal move."""

    name = "tamper-host"
    reads_context = True

    def choose_move(self, view: View) -> Move:
        hosted = "tournaments.referee.host" in sys.modules
        if hosted and sys.argv[-1].isdigit() and not getattr(TamperHost, "forged", False):
            TamperHost.forged = True  # type: ignore[attr-defined]
            os.write(int(sys.argv[-1]), struct.pack("!i", len(FORGED)) + FORGED)
        return view.legal_moves[0]
