"""A user's strategy with three whole-number knobs, for tunes of one, two and three parameters."""

from strategies import Move, Strategy, View


class Knobs(Strategy):
    """Shuts the tiles its knobs favour; one die once the open tiles add up to `margin` or less."""

    name = "knobs"
    description = "Leans to high tiles (lean > 0) or low ones, shuts tiles up to `keep` last; one die at `margin`."

    def __init__(self, margin: int = 6, lean: int = 1, keep: int = 0) -> None:
        for name, value in (("margin", margin), ("lean", lean), ("keep", keep)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name} must be a whole number, not {value!r}")
        self.margin, self.lean, self.keep = margin, lean, keep

    def choose_move(self, view: View) -> Move:
        def worth(move: Move) -> tuple[int, int, Move]:
            return (-sum(tile <= self.keep for tile in move), self.lean * max(move) - len(move), move)

        return max(view.legal_moves, key=worth)

    def choose_dice(self, view: View) -> int:
        return 1 if view.open_sum <= self.margin else 2
