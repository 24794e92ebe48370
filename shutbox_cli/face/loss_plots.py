"""Draw where an explanation's loss lies (`shutbox plot` of an explanation report, `explain
--plot`): a bar for each open total and for each number of tiles left, the loss of the states whose
box it is (`plotting` draws the rest)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .plot_style import OKABE_ITO, percent_ticks

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from tournaments.parts import LossBars


def loss_bars(axes: Axes, panel: LossBars) -> None:
    """A bar for each group, its share of the whole loss above it where it has any."""
    colour = OKABE_ITO[3] if panel.by == "open total" else OKABE_ITO[0]
    bars = axes.bar(panel.groups, panel.losses, width=0.8, color=colour)
    whole = sum(panel.losses)
    shares = whole > 0 and len(panel.groups) <= 20  # more labels than that overlap
    if shares:
        axes.bar_label(bars, [_share(loss / whole) for loss in panel.losses], fontsize="small")
    if len(panel.groups) <= 20:
        axes.set_xticks(list(panel.groups))
    else:  # a tick for each would overlap: whole numbers, as many as fit
        from matplotlib.ticker import MaxNLocator

        axes.xaxis.set_major_locator(MaxNLocator(nbins=15, integer=True))
    axes.set_xlabel(f"{panel.by} of the box before the choice")
    if panel.unit == "points":
        axes.set_ylabel("points lost a turn")
    else:
        axes.set_ylabel("win chance lost")
        percent_ticks(axes.yaxis)
    said = "; above a bar, its share" if shares else ""
    axes.set_title(f"Where the loss lies, by {panel.by} (reach * cost{said})", loc="left")
    if not panel.groups:
        axes.text(0.5, 0.5, "no loss: it plays perfectly", transform=axes.transAxes, ha="center", va="center")


def _share(share: float) -> str:
    """A group's share of the loss above its bar: none for no loss, `<1%` for a sliver."""
    if share <= 0:
        return ""
    return f"{share:.0%}" if share >= 0.005 else "<1%"
