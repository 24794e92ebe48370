"""Context readers whose host goes wrong deep inside a large batch of turns (a game-by-game unit's
turns of one seat and round, asked in one round trip), loaded by path,
`tests/hostile/deep_in_a_batch.py:Name`:

- `ForgesLate` has its host change one answer of the batch's FORGED-th turn that asks one into the
  whole box (a move no throw makes), and says on stderr where that turn is played
  (`forged: round R, seat S, dice game G`);
- `DiesLate` ends its host in the middle of its first batch.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from strategies import Move, Strategy, View

FORGED = 700
"""The turn of the batch whose first answer is forged (or the first after it that asks one)."""


def _forging(turns: Any) -> Any:
    """The host's `turns`, the FORGED-th turn's first answer of the first large batch made the whole box."""

    def forged(host: Any, player: Any, asked: Any) -> Any:
        played = turns(host, player, asked)
        if getattr(forged, "done", False) or len(played.counts) <= FORGED or played.error is not None:
            return played
        turn = next(turn for turn in range(FORGED, len(played.counts)) if played.counts[turn])
        forged.done = True  # type: ignore[attr-defined]
        played.given[sum(played.counts[:turn])] = (1 << host.rules.tiles) - 1
        context = asked.contexts[turn]
        print(f"forged: round {context[2]}, seat {context[1]}, dice game {asked.games[turn]}", file=sys.stderr)
        return played

    return forged


class ForgesLate(Strategy):
    """Takes the lowest tiles once a score is posted this round, else the highest; its host forges
    one answer deep in its first large batch."""

    name = "forges-late"
    reads_context = True

    def choose_move(self, view: View) -> Move:
        host = sys.modules.get("tournaments.referee.host")
        kind = type(self)
        if host is not None and not getattr(kind, "forging", False):
            kind.forging = True  # type: ignore[attr-defined]
            host._Host.turns = _forging(host._Host.turns)  # type: ignore[attr-defined]
        return view.legal_moves[0 if view.context.score_to_beat is not None else -1]


class DiesLate(Strategy):
    """Takes the highest tiles; its host ends at its 1,500th decision, in the middle of a batch."""

    name = "dies-late"
    reads_context = True
    decisions = 0

    def choose_move(self, view: View) -> Move:
        kind = type(self)
        kind.decisions += 1
        if kind.decisions == 1500 and "tournaments.referee.host" in sys.modules:
            os._exit(3)
        return view.legal_moves[-1]
