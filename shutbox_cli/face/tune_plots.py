"""Draw a tune's landscape (`shutbox plot` of a tune report, `tune --plot`): its figure over one
parameter, a heat map over two, its points ranked over more (`plotting` draws the rest)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .plot_style import OKABE_ITO, UNPLAYED, percent_ticks

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from tournaments.parts import Confirmed, TuneCurve, TuneGrid, TuneRanking

OBJECTIVE_WORDS = {
    "win-rate": "win rate against the field",
    "mean-score": "mean score (lower is better)",
    "shut-rate": "shut rate",
}


def _figure_text(objective: str, value: float) -> str:
    """A tune's figure: a mean score to 3 decimals, a rate in percent to 2 (its candidates are close)."""
    return f"{value:.3f}" if objective == "mean-score" else f"{value * 100:.2f}%"


def _objective_axis(axis: Any, objective: str) -> None:
    """Label an axis with the tune's objective, in percent for a rate."""
    axis.set_label_text(OBJECTIVE_WORDS.get(objective, objective))
    if objective != "mean-score":
        percent_ticks(axis)


def tune_curve(axes: Axes, panel: TuneCurve) -> None:
    """The figure at each value (with its 95% interval, simulated), the best starred, the start
    marked, and the confirmation's intervals beside them."""
    errors = None
    if panel.intervals is not None:
        errors = [
            [figure - low for figure, (low, _) in zip(panel.figures, panel.intervals, strict=True)],
            [high - figure for figure, (_, high) in zip(panel.figures, panel.intervals, strict=True)],
        ]
    how = "each value's figure, with its 95% interval" if errors else "each value's figure (exact)"
    axes.errorbar(
        panel.values, panel.figures, yerr=errors, fmt="o-", color=OKABE_ITO[0], ecolor="#999999", capsize=3, label=how
    )
    if panel.start_figure is not None:
        where = (
            f" (the strategy's default {panel.parameter})"
            if panel.start is None
            else f" ({panel.parameter}={panel.start:g})"
        )
        axes.axhline(
            panel.start_figure,
            color=OKABE_ITO[4],
            linestyle=":",
            linewidth=1.5,
            label=f"start{where}: {_figure_text(panel.objective, panel.start_figure)}",
        )
    if panel.best is not None and panel.best_figure is not None:
        axes.plot(
            [panel.best],
            [panel.best_figure],
            "*",
            markersize=16,
            color=OKABE_ITO[3],
            label=f"best: {panel.parameter}={panel.best:g}, {_figure_text(panel.objective, panel.best_figure)}",
            zorder=3,
        )
    if panel.start is not None and panel.start_figure is None:
        axes.axvline(panel.start, color=OKABE_ITO[4], linestyle=":", linewidth=1.5, label=f"start: {panel.start:g}")
    confirmed = panel.confirmed
    if confirmed is not None and panel.best is not None:
        _confirmation(axes, panel, confirmed, panel.best)
    axes.set_xlabel(panel.parameter)
    _objective_axis(axes.yaxis, panel.objective)
    if all(float(value).is_integer() for value in panel.values) and len(panel.values) <= 25:
        axes.set_xticks(list(panel.values))
    better = "highest" if panel.goal == "max" else "lowest"
    axes.set_title(
        f"{OBJECTIVE_WORDS.get(panel.objective, panel.objective).capitalize()} by {panel.parameter} ({better} is best)",
        loc="left",
    )
    axes.legend(loc="upper left", bbox_to_anchor=(0, -0.15), fontsize="small", frameon=False)


def _confirmation(axes: Axes, panel: TuneCurve, confirmed: Confirmed, best: float) -> None:
    """The confirmation on fresh dice: the best's figure with its interval beside the best value,
    the start's as a band (its value may be the strategy's default, which the report does not say)."""
    others = [abs(value - best) for value in panel.values if value != best]
    step = min(others, default=1)  # the nearest value's gap: the mark stays between the two
    words = f"confirmation (seed {confirmed.seed}, {confirmed.games:,} games)"
    if confirmed.best_interval is not None:
        low, high = confirmed.best_interval
        axes.errorbar(
            [best + step * 0.3],
            [confirmed.best],
            yerr=[[confirmed.best - low], [high - confirmed.best]],
            fmt="D",
            color=OKABE_ITO[1],
            capsize=4,
            label=f"{words}: best {_figure_text(panel.objective, confirmed.best)}",
        )
    difference = ""
    if confirmed.difference is not None and confirmed.difference_interval is not None:
        low, high = confirmed.difference_interval
        points = 100 if panel.objective != "mean-score" else 1
        unit = " points" if panel.objective != "mean-score" else ""
        difference = (
            f"; best minus start {confirmed.difference * points:+.2f}{unit} "
            f"({low * points:+.2f} to {high * points:+.2f})"
        )
    if confirmed.start_interval is not None:
        low, high = confirmed.start_interval
        axes.axhspan(
            low,
            high,
            color=OKABE_ITO[5],
            alpha=0.25,
            label=f"the confirmation's start: {_figure_text(panel.objective, confirmed.start)}, its 95% interval"
            f"{difference}",
        )


def tune_grid(axes: Axes, panel: TuneGrid) -> None:
    """A heat map over the two parameters' grid (grey: not tried), the best starred, the start circled."""
    import matplotlib
    import numpy as np

    figures = np.array([[np.nan if figure is None else figure for figure in row] for row in panel.figures])
    shades = matplotlib.colormaps["viridis" if panel.goal == "max" else "viridis_r"].with_extremes(bad=UNPLAYED)
    image = axes.imshow(figures, cmap=shades, aspect="auto", origin="lower")
    columns, rows = list(range(len(panel.columns))), list(range(len(panel.rows)))
    axes.set_xticks(columns, [f"{value:g}" for value in panel.columns])
    axes.set_yticks(rows, [f"{value:g}" for value in panel.rows])
    if len(panel.columns) > 15:
        axes.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(12, integer=True))
    if len(panel.columns) <= 12 and len(panel.rows) <= 12:
        middle = np.nanmean(figures) if np.isfinite(figures).any() else 0.0
        for row, cells in enumerate(panel.figures):
            for column, figure in enumerate(cells):
                if figure is not None:
                    dark = (figure < middle) == (panel.goal == "max")  # viridis is dark at its bad end
                    axes.text(
                        column,
                        row,
                        _figure_text(panel.objective, figure),
                        ha="center",
                        va="center",
                        fontsize="x-small",
                        color="white" if dark else "black",
                    )
    if panel.best is not None:
        column, row = panel.columns.index(panel.best[0]), panel.rows.index(panel.best[1])
        axes.add_patch(
            matplotlib.patches.Rectangle(
                (column - 0.5, row - 0.5),
                1,
                1,
                fill=False,
                edgecolor=OKABE_ITO[3],
                linewidth=3,
                label=f"best: {panel.parameters[0]}={panel.best[0]:g}, {panel.parameters[1]}={panel.best[1]:g}",
            )
        )
    start_column, start_row = panel.start
    if start_column in panel.columns and start_row in panel.rows:
        axes.plot(
            [panel.columns.index(start_column)],
            [panel.rows.index(start_row)],
            "o",
            markersize=16,
            markerfacecolor="none",
            markeredgecolor=OKABE_ITO[4],
            markeredgewidth=2,
            label="start",
        )
    axes.set_xlabel(panel.parameters[0])
    axes.set_ylabel(panel.parameters[1])
    untried = " (grey: not tried)" if np.isnan(figures).any() else ""
    axes.set_title(
        f"{OBJECTIVE_WORDS.get(panel.objective, panel.objective).capitalize()} over the grid{untried}", loc="left"
    )
    if axes.get_legend_handles_labels()[1]:
        axes.legend(loc="upper left", bbox_to_anchor=(0, -0.12), ncols=2, fontsize="small", frameon=False)
    bar = axes.figure.colorbar(image, ax=axes)
    _objective_axis(bar.ax.yaxis, panel.objective)


def tune_ranking(axes: Axes, panel: TuneRanking) -> None:
    """Horizontal bars of each point's figure, best on top, named by its values."""
    places = list(range(len(panel.labels)))[::-1]
    errors = None
    if panel.intervals is not None:
        errors = [
            [figure - low for figure, (low, _) in zip(panel.figures, panel.intervals, strict=True)],
            [high - figure for figure, (_, high) in zip(panel.figures, panel.intervals, strict=True)],
        ]
    axes.errorbar(panel.figures, places, xerr=errors, fmt="o", color=OKABE_ITO[0], ecolor="#999999", capsize=2)
    axes.plot([panel.figures[0]], [places[0]], "*", markersize=14, color=OKABE_ITO[3])
    axes.set_yticks(places, panel.labels, fontsize="small")
    for place, figure in zip(places, panel.figures, strict=True):
        axes.annotate(
            _figure_text(panel.objective, figure),
            (figure, place),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize="x-small",
        )
    low, high = min(panel.figures), max(panel.figures)
    spread = (high - low) or abs(high) * 0.01 or 0.01
    axes.set_xlim(max(0.0, low - spread * 0.6), high + spread * 0.6)
    _objective_axis(axes.xaxis, panel.objective)
    shown = (
        f"the best {len(panel.labels)} of {panel.points:,} points"
        if panel.points > len(panel.labels)
        else (f"all {panel.points:,} points")
    )
    axes.grid(axis="y", color="#DDDDDD", linewidth=0.6)
    axes.set_title(f"Each point's figure, best on top (starred): {shown}", loc="left")
