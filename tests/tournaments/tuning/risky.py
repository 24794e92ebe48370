"""A user's strategy with a float knob to tune (tests of `shutbox tune`): `risk`, and two whole
numbers; it plays `below` at the threshold the risk gives (1 to 16)."""

from strategies.below import Below


class Risky(Below):
    name = "risky"

    def __init__(self, risk: float = 0.5, low: int = 1, high: int = 1) -> None:
        super().__init__(threshold=1 + round(float(risk) * 15))
        self.risk, self.low, self.high = risk, low, high
