"""A user's strategy with one knob that, from threshold 2 on, waits while a file `hold` lies beside
it (a tune of it stops at its second candidate for as long as a test needs) and fails while a file
`fail` does."""

import pathlib
import time

from strategies import Move, Strategy, View


class Held(Strategy):
    """Shuts the highest tiles; one die once the open tiles add up to `threshold` or less."""

    name = "held"

    def __init__(self, threshold: int = 1) -> None:
        self.threshold = threshold

    def choose_move(self, view: View) -> Move:
        if self.threshold >= 2 and pathlib.Path(__file__).with_name("fail").exists():
            raise RuntimeError("told to fail")
        hold = pathlib.Path(__file__).with_name("hold")
        waited = 0
        while self.threshold >= 2 and hold.exists() and waited < 1200:
            time.sleep(0.05)
            waited += 1
        return max(view.legal_moves)

    def choose_dice(self, view: View) -> int:
        return 1 if view.open_sum <= self.threshold else 2
