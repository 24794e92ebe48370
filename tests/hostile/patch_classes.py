"""Patches, as its module loads, the classes of other strategies it can find in its process: the
built-in `tips`, and any other strategy class named `Cautious` (examples/cautious.py's, loaded
before it), so that they play the first legal move."""

from __future__ import annotations

import gc

from strategies import Move, Strategy, View
from strategies.builtin import Tips


def _first(self: Strategy, view: View) -> Move:
    return view.legal_moves[0]


Tips.choose_move = _first  # type: ignore[method-assign]
for found in gc.get_objects():
    if isinstance(found, type) and issubclass(found, Strategy) and found.__name__ == "Cautious":
        found.choose_move = _first  # type: ignore[method-assign]


class PatchClasses(Strategy):
    """Plays the first legal move, having changed how others play."""

    name = "patch-classes"

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[0]
