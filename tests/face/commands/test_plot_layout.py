"""How a figure is laid out for its reader: win rates as points on an axis around them, an SPRT's
LLR held from look to look, and no title or label run off the figure, drawn from a real match's
report."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tournaments.parts import Figures, SprtPath, WinRates, read_figures, report_figures

from helpers.command import real_shutbox

pytestmark = pytest.mark.slow  # a real match, and drawings


@pytest.fixture(scope="module")
def sprt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report of a match with an SPRT of two looks or more."""
    pytest.importorskip("matplotlib", reason="matplotlib is the plot extra")
    report = tmp_path_factory.mktemp("layout") / "sprt.toml"
    done = real_shutbox(
        "match", "optimal", "fewest-tiles", "-n", "20000", "--seed", "5", "-j", "1", "--sprt", "elo0=0 elo1=2",
        "-q", "-o", str(report),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return report


def panels(figures: Figures, kind: type) -> list[Any]:
    return [one for one in figures.panels if isinstance(one, kind)]


def test_an_sprt_of_one_look_holds_zero_until_that_look(sprt: Path) -> None:
    """Drawn as a line from 0 to its one look, the LLR seemed to cross a bound half-way there."""
    from shutbox_cli.face.plotting import draw

    figures = read_figures(sprt)
    (test,) = panels(figures, SprtPath)
    once = dataclasses.replace(test, games=(2048,), llrs=(-4.0,), end=(2048, -4.0), verdict="H0")
    axes = draw(dataclasses.replace(figures, panels=(once,))).axes[0]
    assert axes.lines[0].get_path().vertices.tolist() == [[0, 0], [2048, 0], [2048, -4.0]]


def test_close_win_rates_are_points_on_an_axis_around_them(sprt: Path) -> None:
    """Bars from 0% hid differences of a point or two: points, on an axis around them and even."""
    from shutbox_cli.face.plotting import draw

    figures = read_figures(sprt)
    (rates,) = panels(figures, WinRates)
    close = dataclasses.replace(
        rates,
        names=("target", "optimal", "tips"),
        rates=(0.506, 0.501, 0.488),
        intervals=((0.502, 0.51), (0.497, 0.505), (0.484, 0.492)),
    )
    axes = draw(dataclasses.replace(figures, panels=(close,))).axes[0]
    low, high = axes.get_xlim()
    assert 0.47 < low < 0.484 and 0.51 < high < 0.53
    assert [x for x, _ in axes.containers[0].lines[0].get_xydata()] == [0.506, 0.501, 0.488]
    assert len(axes.patches) == 0  # no bars


def test_long_names_leave_every_word_of_a_match_figure_on_it(sprt: Path) -> None:
    """The SPRT's title (and the score's label) ran off the figure's right edge once the names were long."""
    from matplotlib.text import Text

    from shutbox_cli.face.plotting import draw

    long = "knobs(margin=3, lean=1, keep=2)"
    figures = report_figures(tomllib.loads(sprt.read_text().replace("fewest-tiles", long)))
    figure = draw(figures)
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    ticks = {id(label) for axes in figure.axes for label in [*axes.get_xticklabels(), *axes.get_yticklabels()]}
    shown = [  # every title, label, note and legend (a tick's label off the axis's view is never drawn)
        text
        for text in figure.findobj(Text)
        if text.get_visible() and text.get_text().strip() and id(text) not in ticks
    ]
    assert any(long in text.get_text() for text in shown)
    for text in shown:
        extent = text.get_window_extent(renderer)
        assert extent.x0 >= 0 and extent.x1 <= figure.bbox.x1 + 0.5, text.get_text()


@pytest.mark.parametrize(("llr", "verdict"), [(3.1, "H1"), (-3.1, "H0")])
def test_the_bounds_labels_lie_inside_the_axes_and_one_look_is_said_once(sprt: Path, llr: float, verdict: str) -> None:
    """With one look past a bound, 'H1 accepted at +2.94 or above' was struck by the frame's top edge
    ('H0 ... or below' by its bottom), and the legend said 'each of its 1 looks'."""
    from shutbox_cli.face.plotting import draw

    figures = read_figures(sprt)
    (test,) = panels(figures, SprtPath)
    once = dataclasses.replace(test, games=(640,), llrs=(llr,), end=(640, llr), verdict=verdict)
    figure = draw(dataclasses.replace(figures, panels=(once,)))
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    axes = figure.axes[0]
    frame = axes.get_window_extent(renderer)
    labels = [text for text in axes.texts if "accepted at" in text.get_text()]
    assert len(labels) == 2
    low, high = (axes.transData.transform((0, bound))[1] for bound in once.bounds)
    for text in labels:  # between the bounds, so inside the frame however close a bound lies to its edge
        extent = text.get_window_extent(renderer)
        assert frame.y0 <= low <= extent.y0 and extent.y1 <= high <= frame.y1, (text.get_text(), extent, low, high)
    said = [text.get_text() for text in axes.get_legend().get_texts()]
    assert said[0] == "LLR at its one look (from 0 before the first game)", said
