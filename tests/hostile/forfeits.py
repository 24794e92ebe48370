"""Strategies that fail in some games and not others, on what they are shown alone: a run that
goes on after a failure (`on_failure`) forfeits the same work units whatever the number of
workers. Each fails at a full box whose dice sum to 12 when the score to beat is 1 (seed 5, 2,000
games a unit: in some units and not others); else it plays the first legal move. Loaded by path,
`tests/hostile/forfeits.py:Name`."""

from __future__ import annotations

import os
import time

from strategies import Move, Strategy, View

FULL = (1 << 9) - 1
"""The full box of nine tiles."""


class Rare(Strategy):
    """Plays the first legal move, but for `unlucky`, in a rare state."""

    name = "rare"
    reads_context = True

    def choose_move(self, view: View) -> Move:
        sixes = view.dice is not None and sum(view.dice) == 12
        if sixes and view.context.score_to_beat == 1 and view.open_mask == FULL:
            self.unlucky()
        return view.legal_moves[0]

    def unlucky(self) -> None:
        """Plays on."""


class RaisesRarely(Rare):
    name = "raises-rarely"

    def unlucky(self) -> None:
        raise ZeroDivisionError("a full box against a score of 1")


class HangsFirst(Strategy):
    """Hangs forever at its first decision of a unit (it reads no context, so it plays in bulk
    units): past any time limit, however busy the machine."""

    name = "hangs-first"

    def choose_move(self, view: View) -> Move:
        while True:
            time.sleep(0.05)


class ExitsRarely(Rare):
    """Ends its own process with status 0: its host is gone without a word."""

    name = "exits-rarely"

    def unlucky(self) -> None:
        os._exit(0)


class RaisesInBulk(Strategy):
    """Reads no context, so it plays in bulk units, which ask it every state it may meet (thousands
    of decisions): the first legal move, but it raises at its 1,000th decision of a unit (it starts
    afresh in each)."""

    name = "raises-in-bulk"

    def __init__(self) -> None:
        self.asked = 0

    def choose_move(self, view: View) -> Move:
        self.asked += 1
        if self.asked == 1000:
            raise ZeroDivisionError("its 1,000th decision")
        return view.legal_moves[0]


class ExitsInBulk(RaisesInBulk):
    """Ends its own process at its 1,000th decision of a unit: its host is gone mid-table."""

    name = "exits-in-bulk"

    def choose_move(self, view: View) -> Move:
        self.asked += 1
        if self.asked == 1000:
            os._exit(0)
        return view.legal_moves[0]


class PlaysFirst(Strategy):
    """Reads no context and never fails: the first legal move, a second user's strategy beside a
    failing one, which a failure must not be blamed on."""

    name = "plays-first"

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[0]
