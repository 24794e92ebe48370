"""greedy-high written again under another name (Copy), and the same but for one state (OneOff):
two user strategies the fingerprint and diff tests compare with the built-in."""

from strategies import Strategy


class Copy(Strategy):
    """greedy-high, written again under another name."""

    name = "copy"

    def choose_move(self, view):
        return max(view.legal_moves, key=lambda move: (move[-1], -len(move), move[::-1]))

    def choose_dice(self, view):
        return min(view.dice_options)


class OneOff(Copy):
    """greedy-high but for one state: from the full box, 5 and 6 shut 5 + 6 (greedy-high: 2 + 9 on 9 tiles)."""

    name = "one-off"

    def choose_move(self, view):
        if view.open_mask == view.rules.full_box and view.dice == (5, 6):
            return (5, 6)
        return super().choose_move(view)
