"""A keyed strategy: it reads the score to beat, and nothing else of the game.

Declaring `key = ("to_beat",)` says its decisions depend only on the open tiles, the dice and
the lowest score posted this round by the others; `view.context.to_beat` is all of the game it
is shown. shutbox then asks it once per score to beat it meets and plays it from those tables,
as fast as a strategy that reads no context at all.

    shutbox tournament -s examples/chaser.py:Chaser -s optimal -s target
    shutbox check examples/chaser.py:Chaser
"""

from strategies import Move, Strategy, View


class Chaser(Strategy):
    """Keeps small tiles for later until a low score is posted, then races the high tiles down."""

    name = "chaser"
    description = "Shuts few tiles until a score of 10 or less is posted, then the highest tiles it can."
    key = ("to_beat",)

    def choose_move(self, view: View) -> Move:
        to_beat = view.context.to_beat
        if to_beat is None or to_beat > 10:
            return max(view.legal_moves, key=lambda move: (-len(move), move[::-1]))
        return max(view.legal_moves, key=lambda move: (move[-1], -len(move)))
