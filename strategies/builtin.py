"""The built-in rules of thumb: each looks only at the open tiles and the roll.

Each one ranks the legal moves by a key and takes the best. Unless it says otherwise,
a strategy rolls one die once the open tiles add up to 6 or less (the `Strategy` default).
"""

from __future__ import annotations

from shutbox_cli.game.rules import HIGH_TILE

from .base import Move, Strategy, View

LOW_TILES = (1, 2, 3)
"""The tiles the sources' tips say to keep standing."""


def _higher_first(move: Move) -> tuple[int, ...]:
    """A key that ranks moves by their highest tile, then the next, and so on."""
    return move[::-1]


class GreedyHigh(Strategy):
    """The computer player of one of the sources, as RULES.md describes it.

    It shuts the highest open tile that can be part of the roll with as few other tiles
    as possible; of moves that still tie it takes the one whose next tile is higher
    (12 from 6+5+1 rather than 6+4+2). It rolls one die as soon as the rules allow.
    """

    name = "greedy-high"
    description = "Shuts the highest tile it can with as few other tiles as possible; one die as soon as allowed."

    def choose_move(self, view: View) -> Move:
        return max(view.legal_moves, key=lambda move: (move[-1], -len(move), _higher_first(move)))

    def choose_dice(self, view: View) -> int:
        return min(view.dice_options)


class RandomMove(Strategy):
    """A baseline that knows nothing."""

    name = "random"
    description = "Shuts a legal set chosen at random; one die or two at random when it may choose."
    stochastic = True

    def choose_move(self, view: View) -> Move:
        return self.rng.choice(view.legal_moves)

    def choose_dice(self, view: View) -> int:
        return self.rng.choice(view.dice_options)


class FewestTiles(Strategy):
    """Shuts as few tiles as it can, so many small tiles stay for later rolls."""

    name = "fewest-tiles"
    description = "Shuts as few tiles as it can, the higher set on a tie; one die at an open total of 6 or less."

    def choose_move(self, view: View) -> Move:
        return max(view.legal_moves, key=lambda move: (-len(move), _higher_first(move)))


class MostTiles(Strategy):
    """Shuts as many tiles as it can, to clear the box fast."""

    name = "most-tiles"
    description = "Shuts as many tiles as it can, the higher set on a tie; one die at an open total of 6 or less."

    def choose_move(self, view: View) -> Move:
        return max(view.legal_moves, key=lambda move: (len(move), _higher_first(move)))


class LowestFirst(Strategy):
    """The opposite of greedy-high, a naive player's habit: keeps the high tiles for later."""

    name = "lowest-first"
    description = (
        "Shuts the set whose highest tile is lowest (2+3+4 before 1+2+6 before 9); "
        "one die at an open total of 6 or less."
    )

    def choose_move(self, view: View) -> Move:
        return min(view.legal_moves, key=_higher_first)


class Tips(Strategy):
    """The advice of one of the sources, in order of priority.

    1. Shut the high tiles (7 and up) early: the move that shuts the most of them.
    2. Prefer a single tile over a sprawling combination: then the fewest tiles.
    3. Keep 1, 2 and 3 standing: then the fewest of those.
    4. Then the move with the higher tiles.
    """

    name = "tips"
    description = (
        "The sources' tips: shut 7, 8, 9 early, prefer fewer tiles, keep 1, 2, 3 standing; "
        "one die at an open total of 6 or less."
    )

    def choose_move(self, view: View) -> Move:
        def rank(move: Move) -> tuple[int, int, int, tuple[int, ...]]:
            high = sum(tile >= HIGH_TILE for tile in move)
            low = sum(tile in LOW_TILES for tile in move)
            return high, -len(move), -low, _higher_first(move)

        return max(view.legal_moves, key=rank)
