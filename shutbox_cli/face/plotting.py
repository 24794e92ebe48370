"""Draw a report's figures (`tournaments.report_figures`) to a PNG, SVG or PDF file, by its suffix,
with matplotlib (`pip install ".[plot]"` in shutbox's checkout): on a figure of its own with the Agg canvas, never
pyplot, so no window or display is ever touched.

Colours are Okabe and Ito's colour-blind-safe palette; the head-to-head map is ColorBrewer's
purple-orange (PuOr), diverging at an even score and safe for colour-blind readers too.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .errors import fail
from .plot_style import EVEN, HEAT_MAP, OKABE_ITO, UNPLAYED, percent_ticks

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from tournaments.parts import (
        Distribution,
        DuelChances,
        Figures,
        HeadToHeadGrid,
        MatchScore,
        SeatRates,
        SprtPath,
        WinRates,
    )

SUFFIXES = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
"""The file kinds a plot is written as, by the file's suffix."""
INSTALL = (
    'plots need matplotlib, which shutbox installs with its plot extra: pip install ".[plot]" in shutbox\'s checkout.'
)
SETTINGS: dict[Any, Any] = {"svg.hashsalt": "shutbox", "text.parse_math": False}
"""An SVG's ids from its content, not drawn at random; a name's `$` drawn as it is, not as TeX."""
WIDTH = 8.0
"""Inches; every panel is as wide."""
DPI = 120

PlotOption = Annotated[
    Path | None,
    typer.Option(
        "--plot",
        metavar="FILE",
        show_default=False,
        help="Also draw the results to FILE.png, .svg or .pdf (shutbox plot; needs "
        'pip install ".[plot]" in shutbox\'s checkout).',
    ),
]
"""The `--plot` option of the commands that write reports."""


def check_plot(path: Path) -> None:
    """Before long work: fail (exit 2) if `path` has no suffix a plot is written as or no folder to
    be written in, or matplotlib is missing."""
    if path.suffix.lower() not in SUFFIXES:
        fail(f"cannot tell what to draw {str(path)!r} as: name it .png, .svg or .pdf.")
    if not path.absolute().parent.is_dir():
        fail(f"cannot write the plot {str(path)!r}: its folder does not exist.")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        fail(INSTALL)


def plot_result(result: Any, path: Path) -> None:
    """`--plot FILE`: draw a command's result, as its report holds it, and say where."""
    from tournaments.parts import result_table

    plot_table(result_table(result), path)


def plot_table(table: Mapping[str, Any], path: Path) -> None:
    """`--plot FILE`: draw a report's table, and say where."""
    from tournaments import ConfigError
    from tournaments.parts import report_figures

    try:
        figures = report_figures(table)
    except ConfigError as error:  # a report this shutbox cannot draw: said, not raised
        fail(str(error))
    save(figures, path)


def save(figures: Figures, path: Path) -> None:
    """Draw the figures to `path` (its kind by its suffix), whole or not at all, and say where."""
    import matplotlib

    check_plot(path)
    with matplotlib.rc_context(SETTINGS):
        write_figure(draw(figures), path)


def write_figure(figure: Figure, path: Path) -> None:
    """Write a drawn figure to `path` (its kind by its suffix), whole or not at all, and say where
    (under `SETTINGS`)."""
    from strategies.runner import printable
    from tournaments.parts import reason, write_atomically

    data = io.BytesIO()
    figure.savefig(data, format=SUFFIXES[path.suffix.lower()], dpi=DPI, metadata=_metadata(path))
    try:
        write_atomically(path, data.getvalue())
    except OSError as error:
        fail(f"cannot write the plot {str(path)!r}: {reason(error)}.")
    typer.echo(f"Plot written to {printable(str(path))}.", err=True)


def _metadata(path: Path) -> dict[str, Any]:
    """No creation date in an SVG or PDF, so the same report draws the same file."""
    return {".svg": {"Date": None}, ".pdf": {"CreationDate": None}}.get(path.suffix.lower(), {})


def draw(figures: Figures) -> Figure:
    """One figure: the report's panels stacked, under a title that says the rules and the seed
    (made under `SETTINGS`)."""
    import matplotlib

    with matplotlib.rc_context(SETTINGS):
        return _draw(figures)


def _draw(figures: Figures) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from tournaments.parts import (
        Distribution,
        DuelChances,
        HeadToHeadGrid,
        LossBars,
        MatchScore,
        SeatRates,
        SprtPath,
        TuneCurve,
        TuneGrid,
        TuneRanking,
        WinRates,
    )

    from .loss_plots import loss_bars
    from .tune_plots import tune_curve, tune_grid, tune_ranking

    drawers: dict[type, Callable[[Axes, Any], None]] = {
        WinRates: _win_rates,
        HeadToHeadGrid: _grid,
        SeatRates: _seats,
        Distribution: _distribution,
        MatchScore: _match,
        SprtPath: _sprt,
        DuelChances: _duel,
        TuneCurve: tune_curve,
        TuneGrid: tune_grid,
        TuneRanking: tune_ranking,
        LossBars: loss_bars,
    }
    heights = [_height(panel) for panel in figures.panels]
    figure = Figure(figsize=(WIDTH, sum(heights) + 1.2), layout="constrained")
    FigureCanvasAgg(figure)
    figure.suptitle("\n".join(_title(figures)), fontsize=11)
    for axes, panel in zip(
        figure.subplots(len(heights), 1, height_ratios=heights, squeeze=False)[:, 0], figures.panels, strict=True
    ):
        drawers[type(panel)](axes, panel)
    return figure


def _title(figures: Figures) -> list[str]:
    from .describe import TURN_OPTIONS, rules_in_short

    what = {
        "tournament": "Tournament",
        "match": "Match",
        "analysis": "Analysis",
        "duel": "One game",
        "tune": "Tune",
        "explanation": "Where it loses",
    }[figures.kind]
    from tournaments.parts import LossBars

    turns = figures.kind == "analysis" or any(  # an explanation of the expected score: a turn's rules
        isinstance(panel, LossBars) and panel.unit == "points" for panel in figures.panels
    )
    rules = rules_in_short(figures.rules, TURN_OPTIONS if turns else None)
    if figures.method == "exact":
        how = "computed exactly" + (f", {figures.size}" if figures.kind == "tune" else "")
    elif figures.method == "sampled":
        how = f"sampled ({figures.size}, seed {figures.seed})"
    else:
        how = f"seed {figures.seed}, {figures.size}"
    return [f"{what}: {figures.subject}", f"Rules: {rules}; {how}"]


def _height(panel: object) -> float:
    from tournaments.parts import DuelChances, HeadToHeadGrid, MatchScore, TuneGrid, TuneRanking, WinRates

    if isinstance(panel, DuelChances):
        return 0.9 + 0.4 * len(panel.seats)
    if isinstance(panel, WinRates):
        return 1.0 + 0.35 * len(panel.names)
    if isinstance(panel, HeadToHeadGrid):
        return 1.5 + 0.45 * len(panel.names)
    if isinstance(panel, MatchScore):
        return 2.2
    if isinstance(panel, TuneRanking):
        return 1.0 + 0.22 * len(panel.labels)
    if isinstance(panel, TuneGrid):
        return 2.0 + 0.4 * min(len(panel.rows), 12)
    return 3.2


def _percent(rate: float) -> str:
    return f"{rate * 100:.1f}%"


def _win_rates(axes: Axes, panel: WinRates) -> None:
    """A point for each strategy, best on top, with its 95% interval and its figure, on an axis
    around the figures and the even line (a solo tournament's: mean scores, no even line): bars
    from 0 would hide differences of a point or two."""
    places = list(range(len(panel.names)))[::-1]
    lows = list(panel.rates) if panel.intervals is None else [low for low, _ in panel.intervals]
    highs = list(panel.rates) if panel.intervals is None else [high for _, high in panel.intervals]
    errors = [
        [rate - low for rate, low in zip(panel.rates, lows, strict=True)],
        [high - rate for rate, high in zip(panel.rates, highs, strict=True)],
    ]
    axes.errorbar(panel.rates, places, xerr=errors, fmt="o", color=OKABE_ITO[0], ecolor="black", capsize=3)
    axes.set_yticks(places, panel.names)
    axes.set_ylim(-0.6, len(places) - 0.4)
    axes.grid(axis="x", color="#DDDDDD", linewidth=0.6)
    even = panel.even
    solo = even is None
    for place, rate, high in zip(places, panel.rates, highs, strict=True):
        shown = f"{rate:.3f}" if solo else _percent(rate)
        axes.annotate(shown, (high, place), xytext=(4, 0), textcoords="offset points", va="center")
    axes.set_xlim(*_around([*lows, *highs, *([] if even is None else [even])]))
    interval = "" if panel.intervals is None else ", with its 95% interval"
    exact = " (exact)" if panel.intervals is None else ""
    if even is None:
        axes.set_xlabel(f"mean score of a game (lower is better){interval}")
        axes.set_title(f"Mean score by strategy{exact}", loc="left")
        return
    axes.axvline(even, color=OKABE_ITO[3], linestyle="--", linewidth=1)
    axes.annotate(  # named above the bars, where no bar's figure can be
        f"even: {_percent(even)}",
        (even, 1),
        xycoords=("data", "axes fraction"),
        xytext=(0, 2),
        textcoords="offset points",
        ha="center",
        va="bottom",
        fontsize="small",
        color=OKABE_ITO[3],
    )
    percent_ticks(axes.xaxis)
    axes.set_xlabel(f"win rate (a shared win counts half){interval}")
    axes.set_title(f"Win rate by strategy{exact}", loc="left")


def _around(values: list[float]) -> tuple[float, float]:
    """An axis's limits around the values, with room on the right for a figure's label."""
    low, high = min(values), max(values)
    spread = (high - low) or abs(high) * 0.1 or 0.01
    return low - spread * 0.15, high + spread * 0.3


def _grid(axes: Axes, panel: HeadToHeadGrid) -> None:
    """The head-to-head map: the row's rate against the column, around the even rate; grey where they did not meet."""
    import numpy as np

    rates = np.array([[np.nan if rate is None else rate for rate in row] for row in panel.rates])
    even = panel.even
    spread = max(0.05, float(np.nanmax(np.abs(rates - even)))) if np.isfinite(rates).any() else 0.5
    import matplotlib

    shades = matplotlib.colormaps[HEAT_MAP].with_extremes(bad=UNPLAYED)
    image = axes.imshow(rates, cmap=shades, vmin=even - spread, vmax=even + spread, aspect="auto")
    ticks = list(range(len(panel.names)))
    axes.set_xticks(ticks, panel.names, rotation=30, ha="right")
    axes.set_yticks(ticks, panel.names)
    for row, cells in enumerate(panel.rates):
        for column, rate in enumerate(cells):
            if rate is not None:
                strong = abs(rate - even) > spread * 0.6
                axes.text(column, row, _percent(rate), ha="center", va="center", color="white" if strong else "black")
    word = "finished ahead" if panel.ahead else "win rate"
    axes.set_xlabel("against this opponent")
    axes.set_ylabel("strategy")
    how = "how often the row finished ahead of" if panel.ahead else "the row's win rate against"
    axes.set_title(f"Head to head: {how} the column (even: {_percent(even)})", loc="left")
    bar = axes.figure.colorbar(image, ax=axes, label=word)
    percent_ticks(bar.ax.yaxis)


def _seats(axes: Axes, panel: SeatRates) -> None:
    """Grouped bars: each strategy's exact win rate in each seat, its figure above it."""
    width = 0.8 / len(panel.seats)
    for index, seat in enumerate(panel.seats):
        places = [place + (index - (len(panel.seats) - 1) / 2) * width for place in range(len(panel.names))]
        label = f"seat {seat}" + (" (plays first)" if seat == 1 else "")
        bars = axes.bar(places, [rates[index] for rates in panel.rates], width, label=label, color=OKABE_ITO[index % 8])
        if len(panel.seats) < 4:  # four labels to a strategy overlap
            axes.bar_label(bars, [_percent(rates[index]) for rates in panel.rates], fontsize="small")
    axes.set_xticks(list(range(len(panel.names))), panel.names)
    axes.set_ylim(0, max(max(rates) for rates in panel.rates) * 1.3)
    percent_ticks(axes.yaxis)
    axes.set_ylabel("win rate (exact)")
    axes.set_title("Win rate by seat", loc="left")
    axes.legend(loc="upper right", ncols=len(panel.seats), fontsize="small")


def _distribution(axes: Axes, panel: Distribution) -> None:
    """A bar for each value (the zero margin's in another colour), and the mean where known."""
    colours = [EVEN if panel.what == "margin" and value == 0 else OKABE_ITO[0] for value in panel.values]
    errors = None
    if panel.intervals is not None:
        errors = [
            [chance - low for chance, (low, _) in zip(panel.chances, panel.intervals, strict=True)],
            [high - chance for chance, (_, high) in zip(panel.chances, panel.intervals, strict=True)],
        ]
    axes.bar(panel.values, panel.chances, width=0.85, color=colours, yerr=errors, ecolor="black", error_kw={"lw": 0.7})
    if panel.mean is not None:
        axes.axvline(panel.mean, color=OKABE_ITO[3], linestyle="--", linewidth=1, label=f"mean {panel.mean:.3f}")
        axes.legend(loc="upper right", fontsize="small")
    axes.set_ylabel("chance")
    percent_ticks(axes.yaxis)
    axes.set_xlabel(panel.label)
    interval = "" if panel.intervals is None else ", each chance with its 95% interval"
    equal = " (grey: 0, equal totals or a win at once)" if panel.what == "margin" else ""
    axes.set_title(f"{panel.what.capitalize()} distribution{interval}{equal}", loc="left")


def _match(axes: Axes, panel: MatchScore) -> None:
    """NEW's score with its two intervals, against an even 50%."""
    rows = [
        (f"from {panel.pairs:,} pairs", panel.paired, OKABE_ITO[0]),
        ("games one by one", panel.unpaired, OKABE_ITO[1]),
    ]
    for place, (_, (low, high), colour) in zip((1, 0), rows, strict=True):
        axes.errorbar(
            panel.score, place, xerr=[[panel.score - low], [high - panel.score]], fmt="o", color=colour, capsize=4
        )
        axes.annotate(
            f"{_percent(low)} to {_percent(high)}",
            (panel.score, place),
            xytext=(0, 7),
            textcoords="offset points",
            ha="center",
        )
    axes.axvline(0.5, color="black", linewidth=0.8, linestyle="--")
    axes.set_yticks([1, 0], [label for label, _, _ in rows])
    axes.set_ylim(-0.6, 1.8)
    percent_ticks(axes.xaxis)
    axes.set_xlabel(
        f"{panel.strategy}'s score against {panel.baseline} (a shared game counts half; dashed: even)", wrap=True
    )
    axes.set_title(f"Match score {_percent(panel.score)}, with its 95% intervals", loc="left")


def _looks(count: int) -> str:
    """The SPRT's looks, counted in words for the legend."""
    return "its one look" if count == 1 else f"each of its {count:,} looks"


def _sprt(axes: Axes, panel: SprtPath) -> None:
    """The LLR against the games played, from 0 through each look to the end (marked), between its
    two bounds: H1 accepted at or above the upper, H0 at or below the lower. The LLR is known only
    at the looks: a point at each, held as a step until the next (a line between two looks would
    seem to cross a bound between them)."""
    low, high = panel.bounds
    games, llr = panel.end
    if panel.games:
        axes.step(
            [0, *panel.games],
            [0.0, *panel.llrs],
            where="post",
            marker="o",
            markersize=3 if len(panel.games) <= 200 else 0,
            color=OKABE_ITO[0],
            linewidth=1.2,
            label=f"LLR at {_looks(len(panel.games))} (from 0 before the first game)",
        )
    for bound, colour, name in ((high, OKABE_ITO[2], "H1"), (low, OKABE_ITO[3], "H0")):
        axes.axhline(bound, color=colour, linestyle="--", linewidth=1.2)
        axes.annotate(
            f"{name} accepted at {bound:+.2f}" + (" or above" if name == "H1" else " or below"),
            (0, bound),
            xycoords=("axes fraction", "data"),
            xytext=(4, -3 if name == "H1" else 3),  # between the bounds: never across the frame
            textcoords="offset points",
            va="top" if name == "H1" else "bottom",
            color=colour,
            fontsize="small",
        )
    said = "undecided (the games ran out)" if panel.verdict == "undecided" else f"{panel.verdict} accepted"
    axes.plot([games], [llr], "o", color="black", label=f"end: LLR {llr:.2f} after {games:,} games, {said}")
    axes.set_xlim(0, games * 1.03 if games else 1)
    axes.set_ylim(min(low, llr, *panel.llrs) - 0.6, max(high, llr, *panel.llrs) + 0.6)
    axes.xaxis.set_major_formatter(lambda value, _: f"{value:,.0f}")
    kept = "" if panel.games else " (this report keeps only the end, not the path)"
    axes.set_xlabel(f"games played{kept}")
    axes.set_ylabel("log-likelihood ratio")
    axes.set_title(
        f"SPRT of {panel.strategy} against {panel.baseline}\n"
        f"elo0={panel.elo0:g} elo1={panel.elo1:g} alpha={panel.alpha:g} beta={panel.beta:g}",
        loc="left",
        wrap=True,
    )
    axes.legend(loc="upper left", bbox_to_anchor=(0, -0.2), fontsize="small", frameon=False)  # below: off the path


def _duel(axes: Axes, panel: DuelChances) -> None:
    """A bar for each seat of A's: A's chance to win, then B's, and the chance the tie rule decided."""
    names = ["both seats (average)" if seat is None else f"seat {seat}" for seat in panel.seats]
    places = list(range(len(names)))[::-1]
    axes.barh(places, panel.wins, color=OKABE_ITO[0])
    axes.barh(places, panel.losses, left=panel.wins, color=OKABE_ITO[1])
    for place, win, loss, tie in zip(places, panel.wins, panel.losses, panel.ties, strict=True):
        axes.text(win / 2, place, f"{panel.strategy} {_percent(win)}", ha="center", va="center", color="white")
        axes.text(win + loss / 2, place, f"{panel.opponent} {_percent(loss)}", ha="center", va="center")
        axes.annotate(
            f"tie settled {_percent(tie)}", (1, place), xytext=(6, 0), textcoords="offset points", va="center"
        )
    axes.axvline(0.5, color="black", linewidth=0.8, linestyle="--")
    axes.set_yticks(places, [name.replace("seat 1", "seat 1 (first)") for name in names])
    axes.set_xlim(0, 1)
    percent_ticks(axes.xaxis)
    axes.set_xlabel("chance to win one game (a shared win counts half; dashed: even)")
    axes.set_title(f"Who wins one game, by {panel.strategy}'s seat", loc="left")
