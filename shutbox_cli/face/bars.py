"""Bars in the terminal, where a distribution is shown (analyze's scores, a duel's margins): each
chance a horizontal bar in eighths of a cell, the likeliest the longest. A bar gives up its width
before the figures beside it do: on a narrow terminal the bars are shorter, the numbers whole."""

from collections.abc import Iterator

from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.text import Text

BAR_WIDTH = 20
"""The cells of the longest bar, where the terminal has room."""
_EIGHTHS = " ▏▎▍▌▋▊▉"


def bar_text(fraction: float, width: int = BAR_WIDTH) -> str:
    """A bar of `fraction` of `width` cells, in eighths of a cell."""
    eighths = round(max(0.0, min(fraction, 1.0)) * width * 8)
    full, part = divmod(eighths, 8)
    return "█" * full + (_EIGHTHS[part] if part else "")


class Bar:
    """A bar as a table cell: up to BAR_WIDTH cells, fewer when the table is short of room."""

    def __init__(self, fraction: float) -> None:
        self.fraction = fraction

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, min(BAR_WIDTH, options.max_width))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        yield Text(bar_text(self.fraction, min(BAR_WIDTH, options.max_width)), no_wrap=True, end="")
