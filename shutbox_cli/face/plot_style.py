"""How every plot looks (`plotting`, `tune_plots`): Okabe and Ito's colour-blind-safe palette, the
head-to-head map's colours, and rates ticked in percent."""

from __future__ import annotations

from typing import Any

OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
"""Blue, orange, green, vermillion, purple, sky blue, yellow, black."""
HEAT_MAP = "PuOr"
UNPLAYED = "#BBBBBB"
"""A head-to-head cell of two that did not meet (a strategy and itself, a gauntlet's own side)."""
EVEN = "#888888"
"""A margin of 0: equal totals (with instant wins, also a shut box that won at once in the first round)."""


def percent_ticks(axis: Any) -> None:
    """Tick labels in percent, for an axis of rates."""
    axis.set_major_formatter(lambda value, _: f"{value * 100:.4g}%")
