"""Writes a reply of its own on its host's socket (the socket is the host's last argument), as a
strategy that wants the referee to believe something else would, in JSON; or changes the answers
its host sends as numbers for a batch played in full; anywhere else it just plays."""

from __future__ import annotations

import os
import struct
import sys
from collections.abc import Callable

from strategies import Move, Strategy, View

FORGED = b'{"turns": [[511]]}'
HUGE = b'{"turns": [[1180591620717411303424]]}'
"""One turn's answer, a number past any a host may send (2**70)."""


class TamperHost(Strategy):
    """Forges its host's reply at its first decision, then plays the first legal move."""

    name = "tamper-host"
    reads_context = True
    forgery = FORGED

    def choose_move(self, view: View) -> Move:
        kind = type(self)
        if "tournaments.referee.host" in sys.modules and sys.argv[-1].isdigit() and not getattr(kind, "forged", False):
            kind.forged = True  # type: ignore[attr-defined]
            os.write(int(sys.argv[-1]), struct.pack("!i", len(self.forgery)) + self.forgery)
        return view.legal_moves[0]


class TamperHuge(TamperHost):
    """Forges a reply whose one answer is a number no answer can be."""

    name = "tamper-huge"
    forgery = HUGE


Encode = Callable[[list[int], list[int]], bytes]
"""The host's encoding of a batch's answers (`wire.answers_bytes`: each turn's count, every answer)."""


def _whole_box(encode: Encode) -> Encode:
    """The host's encoding of a batch's answers, its first answer made the whole box (511)."""

    def forged(counts: list[int], given: list[int]) -> bytes:
        return encode(counts, [511, *given[1:]] if counts and counts[0] else given)

    return forged


def _cut(encode: Encode) -> Encode:
    """The host's encoding of a batch's answers, cut in the middle of the turns' counts."""

    def forged(counts: list[int], given: list[int]) -> bytes:
        return encode(counts, given)[:6]  # the kind, the number of turns (as asked) and one count

    return forged


class TamperAnswers(Strategy):
    """Changes how its host encodes a batch played in full (`wire.answers_bytes`) at its first
    decision, so the batch's first answer is the whole box; then plays the first legal move."""

    name = "tamper-answers"
    reads_context = True
    change = staticmethod(_whole_box)

    def choose_move(self, view: View) -> Move:
        wire = sys.modules.get("tournaments.referee.wire")
        kind = type(self)
        if wire is not None and "tournaments.referee.host" in sys.modules and not getattr(kind, "forged", False):
            kind.forged = True  # type: ignore[attr-defined]
            wire.answers_bytes = self.change(wire.answers_bytes)  # type: ignore[attr-defined]
        return view.legal_moves[0]


class TamperCut(TamperAnswers):
    """Has its host send a batch's answers cut short."""

    name = "tamper-cut"
    change = staticmethod(_cut)
