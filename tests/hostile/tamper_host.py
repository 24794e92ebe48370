"""Writes a reply of its own on its host's socket (the socket is the host's last argument), as a
strategy that wants the referee to believe something else would, in JSON or as a batch's answers
sent as numbers; anywhere else it just plays."""

from __future__ import annotations

import os
import struct
import sys

from strategies import Move, Strategy, View

FORGED = b'{"turns": [[511]]}'
FORGED_ANSWERS = b"\x00" + struct.pack("<I", 1) + bytes([1]) + struct.pack("<H", 511)
"""One turn's answers, the move 511 (the whole box), as the host sends a batch played in full."""


class TamperHost(Strategy):
    """Forges its host's reply at its first decision, then plays the first legal move."""

    name = "tamper-host"
    reads_context = True
    forgery = FORGED

    def choose_move(self, view: View) -> Move:
        hosted = "tournaments.referee.host" in sys.modules
        kind = type(self)
        if hosted and sys.argv[-1].isdigit() and not getattr(kind, "forged", False):
            kind.forged = True  # type: ignore[attr-defined]
            os.write(int(sys.argv[-1]), struct.pack("!i", len(self.forgery)) + self.forgery)
        return view.legal_moves[0]


class TamperAnswers(TamperHost):
    """Forges its host's reply as a batch's answers at its first decision, then plays the first legal move."""

    name = "tamper-answers"
    forgery = FORGED_ANSWERS
