"""A strategy in a single file, to copy and change.

shutbox analyze examples/cautious.py:Cautious
shutbox analyze "examples/cautious.py:Cautious(margin=4)"
"""

from itertools import combinations

from strategies import Move, Strategy, View


class Cautious(Strategy):
    """Keeps its options open: after each shut, as many dice totals as possible should still be playable."""

    name = "cautious"
    description = "Leaves the most dice totals still playable; one die once the open tiles add up to margin or less."

    def __init__(self, margin: int = 6) -> None:
        if isinstance(margin, bool) or not isinstance(margin, int) or margin < 0:
            raise ValueError(f"margin must be a whole number, 0 or more, not {margin!r}")
        self.margin = margin

    def choose_move(self, view: View) -> Move:
        def playable(move: Move) -> int:
            left = [tile for tile in view.open_tiles if tile not in move]
            sums = {sum(tiles) for size in range(1, len(left) + 1) for tiles in combinations(left, size)}
            return len(sums & set(range(2, 13)))

        # The most playable totals; of equals, the move that shuts the higher tiles.
        return max(view.legal_moves, key=lambda move: (playable(move), move[::-1]))

    def choose_dice(self, view: View) -> int:
        return 1 if view.open_sum <= self.margin else 2
