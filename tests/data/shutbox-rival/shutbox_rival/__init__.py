"""A strategy installed under names other strategies have."""

from strategies import Move, Strategy, View


class Rival(Strategy):
    """Shuts as few tiles as it can, the lowest set first."""

    description = "Shuts as few tiles as it can, the lowest set first."

    def choose_move(self, view: View) -> Move:
        return min(view.legal_moves, key=lambda move: (len(move), move))
