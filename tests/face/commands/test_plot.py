"""`shutbox plot REPORT` and `--plot FILE`: every kind of report drawn headless from a report the
real command made, the file read back (its format, not blank), and the drawing's data read back
from the figure's artists equal to the report's figures."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest

from tournaments.parts import (
    Distribution,
    DuelChances,
    Figures,
    HeadToHeadGrid,
    MatchScore,
    SeatRates,
    SprtPath,
    TuneCurve,
    TuneGrid,
    TuneRanking,
    WinRates,
    read_figures,
    report_figures,
)

from helpers.command import environment, real_shutbox, shutbox
from helpers.paths import DATA

NO_MATPLOTLIB = "matplotlib is the plot extra (pip install '.[plot]'); without it only the refusal is tested"
INSTALL = (
    'shutbox: error: plots need matplotlib, which shutbox installs with its plot extra: pip install ".[plot]" '
    "in shutbox's checkout.\n"
)
RUNS = {
    # A name of TeX's: drawn as it is, not parsed as mathematics (which failed).
    "tournament": (
        "tournament",
        "-s",
        "optimal",
        "-s",
        "$\\frac$=tips",
        "-s",
        "greedy-high",
        "-n",
        "40",
        "--seed",
        "7",
    ),
    "exact": ("tournament", "-s", "optimal", "-s", "tips", "-s", "greedy-high", "--exact"),
    "solo": ("tournament", "--table", "1", "-s", "optimal", "-s", "tips", "-s", "random", "-n", "20", "--seed", "1"),
    "analysis": ("analyze", "optimal"),
    "simulated-analysis": ("analyze", "random", "--turns", "500", "--seed", "3"),
    "duel": ("analyze", "optimal", "--against", "greedy-high"),
    "match": ("match", "tips", "greedy-high", "-n", "40", "--seed", "5", "-j", "1"),
    "sprt": ("match", "optimal", "fewest-tiles", "-n", "20000", "--seed", "5", "-j", "1", "--sprt", "elo0=0 elo1=2"),
    "tune": ("tune", "below", "-p", "threshold=1..6", "-s", "optimal"),
    "simulated-tune": (
        "tune",
        "target",
        "-p",
        "margin=0..3",
        "-s",
        "tips",
        "--drop-out",
        "45",
        "--method",
        "grid",
        "-n",
        "200",
        "--confirm-games",
        "400",
        "--seed",
        "1",
    ),
    "tune-two": ("tune", f"{DATA / 'knobs.py'}:Knobs", "-p", "margin=2..4", "-p", "lean=-1..0", "--tiles", "4"),
    "tune-three": (
        "tune",
        f"{DATA / 'knobs.py'}:Knobs(lean=0)",
        "-p",
        "margin=3..4",
        "-p",
        "lean=0..0",
        "-p",
        "keep=0..1",
        "--tiles",
        "4",
    ),
}
"""A small real run of each kind of report; `--plot` draws those of tournament, analyze, match and tune."""
SUFFIX = {
    "tournament": ".png",
    "solo": ".png",
    "exact": ".svg",
    "analysis": ".pdf",
    "simulated-analysis": ".png",
    "duel": ".png",
    "match": ".png",
    "tune": ".png",
    "tune-three": ".svg",
}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    """Each kind's report and drawing, as the real commands make them: `--plot` where a command has
    it, else `shutbox plot REPORT` (its drawing beside it, by the report's name)."""
    pytest.importorskip("matplotlib", reason=NO_MATPLOTLIB)
    folder = tmp_path_factory.mktemp("plots")
    found = {}
    for kind, args in RUNS.items():
        report = folder / (f"{kind}.json" if kind in ("simulated-analysis", "simulated-tune") else f"{kind}.toml")
        if kind in SUFFIX:
            drawing = folder / f"{kind}{SUFFIX[kind]}"
            done = real_shutbox(*args, "-o", str(report), "--plot", str(drawing), "--format", "table")
        else:
            done = real_shutbox(*args, "-q", "-o", str(report))
            assert done.returncode in (0, 3, 4), done.stderr  # an SPRT's verdict is its status
            drawing = report.with_suffix(".png")
            done = real_shutbox("plot", str(report))
        assert done.returncode == 0, done.stderr
        assert f"Plot written to {drawing}." in done.stderr
        found[kind] = report, drawing
    return found


def report(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text()) if path.suffix == ".json" else tomllib.loads(path.read_text())


def panels(figures: Figures, kind: type) -> list[Any]:
    return [panel for panel in figures.panels if isinstance(panel, kind)]


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(RUNS))
def test_each_drawing_is_a_whole_file_of_its_kind_and_not_blank(made: dict[str, tuple[Path, Path]], kind: str) -> None:
    from matplotlib import image

    _, drawing = made[kind]
    data = drawing.read_bytes()
    assert len(data) > 10_000
    if drawing.suffix == ".png":
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        pixels = image.imread(drawing)
        assert pixels.shape[0] > 300 and pixels.shape[1] > 600
        assert pixels.reshape(-1, pixels.shape[-1]).std(axis=0).max() > 0.05  # more than one colour
        assert (pixels[..., :3] < 0.9).mean() > 0.02  # and a fair share of it drawn
    elif drawing.suffix == ".svg":
        root = ElementTree.fromstring(data)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert len(root.findall(".//{http://www.w3.org/2000/svg}path")) > 50
    else:
        assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")


@pytest.mark.slow
def test_a_tournament_shows_the_reports_win_rates_intervals_and_head_to_head(
    made: dict[str, tuple[Path, Path]],
) -> None:
    from shutbox_cli.face.plotting import draw

    path, _ = made["tournament"]
    table, figures = report(path), read_figures(path)
    ranking = table["ranking"]
    (rates,) = panels(figures, WinRates)
    assert rates.names == tuple(entry["name"] for entry in ranking)
    assert rates.intervals == tuple(tuple(entry["win_rate_ci95"]) for entry in ranking)
    assert figures.seed == 7 and figures.rules.tiles == 9
    axes = draw(figures).axes
    named = dict(zip(axes[0].get_yticks(), (label.get_text() for label in axes[0].get_yticklabels()), strict=True))
    points = {named[y]: x for x, y in axes[0].containers[0].lines[0].get_xydata()}
    assert points == {entry["name"]: entry["win_rate"] for entry in ranking}
    spans = [segment[:, 0].tolist() for segment in axes[0].containers[0].lines[2][0].get_segments()]
    assert spans == [entry["win_rate_ci95"] for entry in ranking]
    assert axes[0].get_xlabel().startswith("win rate")
    grid = axes[1].images[0].get_array()
    names = rates.names
    for pair in table["head_to_head"]:
        assert grid[names.index(pair["strategy"]), names.index(pair["opponent"])] == pair["win_rate"]
    title = draw(figures).get_suptitle()
    assert "Tournament: 3 strategies" in title and "Rules: standard; seed 7, 120 games" in title


@pytest.mark.slow
def test_a_solo_tournament_shows_its_mean_scores_and_no_head_to_head(made: dict[str, tuple[Path, Path]]) -> None:
    from shutbox_cli.face.plotting import draw

    path, _ = made["solo"]
    table, figures = report(path), read_figures(path)
    (scores,) = figures.panels
    assert isinstance(scores, WinRates) and (scores.key, scores.even) == ("mean_score", None)
    assert scores.intervals == tuple(tuple(entry["mean_score_ci95"]) for entry in table["ranking"])
    (axes,) = draw(figures).axes
    points = axes.containers[0].lines[0].get_xydata()
    assert [x for x, _ in points] == [entry["mean_score"] for entry in table["ranking"]]
    assert axes.get_xlabel().startswith("mean score") and figures.subject == "3 strategies, solo"


@pytest.mark.slow
def test_an_exact_tournament_shows_its_win_rates_without_intervals_and_by_seat(
    made: dict[str, tuple[Path, Path]],
) -> None:
    from shutbox_cli.face.plotting import draw

    path, _ = made["exact"]
    table, figures = report(path), read_figures(path)
    (rates,) = panels(figures, WinRates)
    (seats,) = panels(figures, SeatRates)
    assert rates.intervals is None and figures.seed is None
    assert rates.rates == tuple(entry["win_rate"] for entry in table["ranking"])
    by_seat = {(row["strategy"], row["seat"]): row["win_rate"] for row in table["seat"]}
    assert seats.seats == (1, 2)
    assert seats.rates == tuple(tuple(by_seat[name, seat] for seat in (1, 2)) for name in seats.names)
    assert (panels(figures, HeadToHeadGrid)[0].ahead, panels(figures, HeadToHeadGrid)[0].even) == (False, 0.5)
    figure = draw(figures)
    heights = [bar.get_height() for bar in figure.axes[2].patches]
    assert heights == [by_seat[name, seat] for seat in (1, 2) for name in seats.names]
    assert "computed exactly" in figure.get_suptitle()


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["analysis", "simulated-analysis", "duel"])
def test_a_distribution_is_drawn_bar_for_bar_from_the_report(made: dict[str, tuple[Path, Path]], kind: str) -> None:
    from matplotlib.container import ErrorbarContainer

    from shutbox_cli.face.plotting import draw

    path, _ = made[kind]
    table, figures = report(path), read_figures(path)
    (shown,) = panels(figures, Distribution)
    chances = table["distribution"] if kind != "duel" else table["average"]["margins"]
    assert dict(zip(shown.values, shown.chances, strict=True)) == {int(value): p for value, p in chances.items()}
    axes = draw(figures).axes[-1]
    assert [(round(bar.get_x() + bar.get_width() / 2), bar.get_height()) for bar in axes.patches] == sorted(
        (int(value), p) for value, p in chances.items()
    )
    assert axes.get_ylabel() == "chance" and axes.get_xlabel() == shown.label
    if kind == "simulated-analysis":  # each chance's interval: from its count of the turns
        assert "seed 3, 500 turns" in draw(figures).get_suptitle()
        assert shown.intervals is not None
        for chance, (low, high) in zip(shown.chances, shown.intervals, strict=True):
            assert low < chance < high
        (errors,) = [found for found in axes.containers if isinstance(found, ErrorbarContainer)]
        drawn = errors.lines[2][0].get_segments()
        assert [tuple(segment[:, 1]) for segment in drawn] == list(shown.intervals)
    else:
        assert shown.intervals is None
    if kind == "duel":
        assert shown.label == "margin: optimal's final total minus greedy-high's, both seats' average"
        (chances,) = panels(figures, DuelChances)
        rows = [*table["seat"], table["average"]]
        assert chances.seats == (1, 2, None)
        assert chances.wins == tuple(row["win_rate"] for row in rows)
        assert chances.losses == tuple(row["opponent_win_rate"] for row in rows)
        assert chances.ties == tuple(row["tie_rate"] for row in rows)
        bars = draw(figures).axes[0].patches
        assert [bar.get_width() for bar in bars] == pytest.approx([*chances.wins, *chances.losses], abs=1e-12)


@pytest.mark.slow
def test_a_match_shows_its_score_with_both_intervals_and_its_llr_path_between_the_bounds(
    made: dict[str, tuple[Path, Path]],
) -> None:
    from shutbox_cli.face.plotting import draw

    plain, sprt = read_figures(made["match"][0]), read_figures(made["sprt"][0])
    table = report(made["sprt"][0])
    match = table["match"]
    (score,) = panels(sprt, MatchScore)
    assert (score.score, score.paired, score.unpaired) == (
        match["score"],
        tuple(match["score_ci95"]),
        tuple(match["score_ci95_unpaired"]),
    )
    (test,) = panels(sprt, SprtPath)
    path = match["sprt"]["path"]
    assert len(path["games"]) > 1  # a path, not one look
    assert (test.games, test.llrs) == (tuple(path["games"]), tuple(path["llr"]))
    assert (test.end, test.bounds, test.verdict) == (
        (table["totals"]["games"], match["sprt"]["llr"]),
        tuple(match["sprt"]["bounds"]),
        match["sprt"]["verdict"],
    )
    assert panels(plain, SprtPath) == [] and plain.kind == sprt.kind == "match"
    axes = draw(sprt).axes
    points = [bars.lines[0].get_xydata().tolist() for bars in axes[0].containers]
    assert points == [[[match["score"], 1]], [[match["score"], 0]]]
    spans = [bars.lines[2][0].get_segments()[0][:, 0].tolist() for bars in axes[0].containers]
    assert spans == [match["score_ci95"], match["score_ci95_unpaired"]]
    line, low, high, end = axes[1].lines
    assert line.get_xydata().tolist() == [[0, 0], *map(list, zip(path["games"], path["llr"], strict=True))]
    assert [low.get_ydata()[0], high.get_ydata()[0]] == match["sprt"]["bounds"][::-1]
    assert end.get_xydata().tolist() == [[table["totals"]["games"], match["sprt"]["llr"]]]
    assert "H1 accepted at +2.94 or above" in [text.get_text() for text in axes[1].texts]
    assert line.get_drawstyle() == "steps-post"  # the LLR held from one look to the next
    assert axes[1].get_title(loc="left") == "SPRT of optimal against fewest-tiles\nelo0=0 elo1=2 alpha=0.05 beta=0.05"
    assert "Rules: standard; seed 5" in draw(sprt).get_suptitle()


@pytest.mark.slow
def test_a_match_report_without_a_path_is_drawn_to_its_end() -> None:
    """A report written before the path was kept: its end alone, and the axis says so."""
    pytest.importorskip("matplotlib", reason=NO_MATPLOTLIB)
    from shutbox_cli.face.plotting import draw

    table = tomllib.loads((DATA / "sprt_without_path.toml").read_text())
    (test,) = panels(report_figures(table), SprtPath)
    assert test.games == () and test.end == (2048, 3.698345)
    axes = draw(report_figures(table)).axes[1]
    assert axes.lines[-1].get_xydata().tolist() == [[2048, 3.698345]]
    assert "keeps only the end" in axes.get_xlabel()


def last_trials(table: dict[str, Any]) -> dict[tuple[Any, ...], dict[str, Any]]:
    """Each point's last trial (a halving's last round), by its values in the parameters' order."""
    names = [one["name"] for one in table["parameters"]]
    return {tuple(trial["values"][name] for name in names): trial for trial in table["trial"]}


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["tune", "simulated-tune"])
def test_a_tune_of_one_parameter_draws_each_trial_with_the_best_the_start_and_the_confirmation(
    made: dict[str, tuple[Path, Path]], kind: str
) -> None:
    from matplotlib.container import ErrorbarContainer

    from shutbox_cli.face.plotting import draw

    table = report(made[kind][0])
    figures = read_figures(made[kind][0])
    (curve,) = figures.panels
    assert isinstance(curve, TuneCurve)
    trials = sorted(last_trials(table).items())
    assert curve.values == tuple(point for (point,), _ in trials)
    assert curve.figures == tuple(trial["objective"] for _, trial in trials)
    (axes,) = draw(figures).axes
    drawn = [found for found in axes.containers if isinstance(found, ErrorbarContainer)]
    assert drawn[0].lines[0].get_xydata().tolist() == [
        [value, figure] for value, figure in zip(curve.values, curve.figures, strict=True)
    ]
    (name,) = [one["name"] for one in table["parameters"]]
    best = table["best"]
    starred = [line for line in axes.lines if line.get_marker() == "*"]
    assert [line.get_xydata().tolist() for line in starred] == [[[best["values"][name], best["objective"]]]]
    labels = axes.get_legend_handles_labels()[1]
    assert axes.get_xlabel() == name and axes.yaxis.get_label_text() == "win rate against the field"
    title = draw(figures).get_suptitle()
    if kind == "tune":  # exact: no intervals, the start's figure as a line
        assert curve.intervals is None and curve.confirmed is None and len(drawn) == 1
        assert f"start (the strategy's default threshold): {table['start_objective'] * 100:.2f}%" in labels
        assert "computed exactly" in title and "below against optimal" in title
    else:
        assert curve.intervals == tuple(tuple(trial["objective_ci95"]) for _, trial in trials)
        segments = drawn[0].lines[2][0].get_segments()
        assert [tuple(segment[:, 1]) for segment in segments] == list(curve.intervals)
        confirmation = table["confirmation"]
        assert drawn[1].lines[0].get_ydata().tolist() == [confirmation["best"]]
        assert drawn[1].lines[2][0].get_segments()[0][:, 1].tolist() == confirmation["best_ci95"]
        (band,) = [patch for patch in axes.patches if patch.get_label().startswith("the confirmation's start")]
        assert band.get_label().startswith(f"the confirmation's start: {confirmation['start'] * 100:.2f}%")
        assert f"confirmation (seed 2, 400 games): best {confirmation['best'] * 100:.2f}%" in labels
        assert "target against tips" in title and "seed 1" in title and "drop_out = 45" in title


@pytest.mark.slow
def test_a_tune_of_two_parameters_is_a_heat_map_of_its_trials_with_the_best_outlined(
    made: dict[str, tuple[Path, Path]],
) -> None:
    from shutbox_cli.face.plotting import draw

    table = report(made["tune-two"][0])
    figures = read_figures(made["tune-two"][0])
    (grid,) = figures.panels
    assert isinstance(grid, TuneGrid) and grid.parameters == ("margin", "lean")
    assert (grid.columns, grid.rows) == ((2, 3, 4), (-1, 0))
    axes = draw(figures).axes[0]
    shown = axes.images[0].get_array()
    for (margin, lean), trial in last_trials(table).items():
        assert shown[grid.rows.index(lean), grid.columns.index(margin)] == trial["objective"]
    (outline,) = [patch for patch in axes.patches if patch.get_label().startswith("best")]
    best = table["best"]["values"]
    assert outline.get_xy() == (grid.columns.index(best["margin"]) - 0.5, grid.rows.index(best["lean"]) - 0.5)
    assert (axes.get_xlabel(), axes.get_ylabel()) == ("margin", "lean")
    assert "Tune: knobs.py:Knobs alone" in draw(figures).get_suptitle()


@pytest.mark.slow
def test_an_untried_point_of_a_grid_is_grey() -> None:
    """A tune stopped before its end: the points it did not reach are masked (drawn grey)."""
    pytest.importorskip("matplotlib", reason=NO_MATPLOTLIB)
    from shutbox_cli.face.plot_style import UNPLAYED
    from shutbox_cli.face.plotting import draw

    table = tomllib.loads((DATA / "tune_stopped.toml").read_text())
    figures = report_figures(table)
    (grid,) = figures.panels
    assert isinstance(grid, TuneGrid) and grid.figures == ((0.25, 0.5), (0.75, None)) and grid.best is None
    axes = draw(figures).axes[0]
    image = axes.images[0]
    assert image.get_array().mask.tolist() == [[False, False], [False, True]]
    assert image.get_cmap().get_bad().tolist() == list(matplotlib_colour(UNPLAYED))
    assert "grey: not tried" in axes.get_title(loc="left")


def test_two_ranges_too_large_for_a_grid_are_ranked_not_drawn_as_one() -> None:
    """Optuna samples spaces larger than any grid: 9,000 by 9,000 values would be 81 million cells."""
    text = (DATA / "tune_stopped.toml").read_text().replace("high = 3", "high = 9000")
    text = text.replace("high = 1", "high = 9000")
    (panel,) = report_figures(tomllib.loads(text)).panels
    assert isinstance(panel, TuneRanking) and len(panel.labels) == 3


def test_a_plot_into_a_folder_that_does_not_exist_is_refused_before_any_game(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason=NO_MATPLOTLIB)
    report = tmp_path / "r.toml"
    done = shutbox("match", "optimal", "tips", "-n", "40", "-o", str(report), "--plot", str(tmp_path / "no" / "m.png"))
    assert (done.returncode, done.stdout) == (2, "")
    assert "its folder does not exist" in done.stderr and done.stderr.count("\n") == 1
    assert not report.exists()


def matplotlib_colour(name: str) -> tuple[float, ...]:
    from matplotlib.colors import to_rgba

    return to_rgba(name)


@pytest.mark.slow
def test_a_tune_of_three_parameters_ranks_its_points_best_first(made: dict[str, tuple[Path, Path]]) -> None:
    from shutbox_cli.face.plotting import draw

    table = report(made["tune-three"][0])
    figures = read_figures(made["tune-three"][0])
    (ranked,) = figures.panels
    assert isinstance(ranked, TuneRanking) and ranked.points == 4
    trials = sorted(table["trial"], key=lambda trial: trial["objective"])  # the mean score: lowest best
    assert ranked.figures == tuple(trial["objective"] for trial in trials)
    assert ranked.labels[0] == ", ".join(f"{name}={value}" for name, value in table["best"]["values"].items())
    axes = draw(figures).axes[0]
    assert axes.containers[0].lines[0].get_xdata().tolist() == list(ranked.figures)
    assert dict(zip(axes.get_yticks(), (label.get_text() for label in axes.get_yticklabels()), strict=True)) == dict(
        zip(range(len(ranked.labels) - 1, -1, -1), ranked.labels, strict=True)
    )


def test_a_drawing_needs_a_suffix_it_can_be_written_as(tmp_path: Path) -> None:
    done = shutbox("plot", str(tmp_path / "run.toml"), "-o", str(tmp_path / "run.jpg"))
    assert (done.returncode, done.stdout) == (2, "")
    assert (
        done.stderr
        == f"shutbox: error: cannot tell what to draw '{tmp_path / 'run.jpg'}' as: name it .png, .svg or .pdf.\n"
    )


def test_a_file_that_is_not_a_report_is_refused_in_one_sentence(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason=NO_MATPLOTLIB)
    config = tmp_path / "rules.toml"
    config.write_text('schema = 1\nkind = "rules"\n')
    done = shutbox("plot", str(config))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"shutbox: error: '{config}' is not a report shutbox can plot: a tournament, match, analysis, duel, tune or "
        "explanation report.\n"
    )
    assert not config.with_suffix(".png").exists()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('schema = 1\nkind = "tournament"\n', "is not a whole tournament report: figures are missing or malformed"),
        (
            'schema = 1\nkind = "analysis"\nstrategy = "x"\n[distribution]\n0 = "half"\n',
            "is not a report shutbox wrote: distribution holds a chance that is not a number from 0 to 1.",
        ),
        ("schema = 99\n", "has report schema 99; this shutbox reads schema 1 and earlier"),
        (
            (DATA / "tune_stopped.toml").read_text().replace("step = 1", "step = 0", 1),
            "is not a whole tune report: figures are missing or malformed",
        ),
        ("[ranking\n", "is not valid TOML"),
    ],
)
def test_a_broken_report_is_refused_in_one_sentence(tmp_path: Path, text: str, said: str) -> None:
    pytest.importorskip("matplotlib", reason=NO_MATPLOTLIB)
    broken = tmp_path / "broken.toml"
    broken.write_text(text)
    done = shutbox("plot", str(broken), "-o", str(tmp_path / "broken.svg"))
    assert (done.returncode, done.stdout) == (2, "")
    assert said in done.stderr and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == [broken]


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ("plot", "run.toml"),
        ("tournament", "-s", "tips", "-s", "random", "--plot", "r.svg"),
        ("match", "tips", "random", "--plot", "r.png"),
        ("tune", "below", "-p", "threshold=1..3", "--plot", "r.pdf"),
    ],
)
def test_without_the_plot_extra_a_plot_says_what_to_install(tmp_path: Path, args: tuple[str, ...]) -> None:
    """matplotlib blocked in the real command's process: one sentence, exit 2, before any game."""
    run = "import sys; sys.modules['matplotlib'] = None; from shutbox_cli.entry import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", run, *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env=environment(),
        timeout=120,
    )
    assert (done.returncode, done.stdout, done.stderr) == (2, "", INSTALL)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_the_same_report_draws_the_same_file(made: dict[str, tuple[Path, Path]], tmp_path: Path, suffix: str) -> None:
    """No date, no random ids: a drawing kept beside its report changes only when the report does."""
    path, _ = made["exact"]
    drawn = []
    for name in ("first", "second"):
        done = shutbox("plot", str(path), "-o", str(tmp_path / f"{name}{suffix}"))
        assert done.returncode == 0, done.stderr
        drawn.append((tmp_path / f"{name}{suffix}").read_bytes())
    assert drawn[0] == drawn[1]
