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

from tournaments import (
    Distribution,
    DuelChances,
    Figures,
    HeadToHeadGrid,
    MatchScore,
    SeatRates,
    SprtEnd,
    WinRates,
    read_figures,
)

from helpers.command import environment, real_shutbox, shutbox

NO_MATPLOTLIB = "matplotlib is the plot extra (pip install 'shutbox[plot]'); without it only the refusal is tested"
INSTALL = (
    'shutbox: error: plots need matplotlib, which shutbox installs with its plot extra: pip install "shutbox[plot]".\n'
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
    "sprt": ("match", "tips", "greedy-high", "-n", "40", "--seed", "5", "-j", "1", "--sprt", "elo0=0 elo1=200"),
}
"""A small real run of each kind of report; `--plot` draws those of tournament and analyze."""
SUFFIX = {
    "tournament": ".png",
    "solo": ".png",
    "exact": ".svg",
    "analysis": ".pdf",
    "simulated-analysis": ".png",
    "duel": ".png",
}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    """Each kind's report and drawing, as the real commands make them: `--plot` where a command has
    it, else `shutbox plot REPORT` (its drawing beside it, by the report's name)."""
    pytest.importorskip("matplotlib", reason=NO_MATPLOTLIB)
    folder = tmp_path_factory.mktemp("plots")
    found = {}
    for kind, args in RUNS.items():
        report = folder / (f"{kind}.json" if kind == "simulated-analysis" else f"{kind}.toml")
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
    bars = {named[bar.get_y() + bar.get_height() / 2]: bar.get_width() for bar in axes[0].patches}
    assert bars == {entry["name"]: entry["win_rate"] for entry in ranking}
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
    assert [bar.get_width() for bar in axes.patches] == [entry["mean_score"] for entry in table["ranking"]]
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
def test_a_match_shows_its_score_with_both_intervals_and_says_the_sprt_keeps_no_path(
    made: dict[str, tuple[Path, Path]],
) -> None:
    from shutbox_cli.face.plotting import draw

    plain, sprt = read_figures(made["match"][0]), read_figures(made["sprt"][0])
    match = report(made["sprt"][0])["match"]
    (score,) = panels(sprt, MatchScore)
    assert (score.score, score.paired, score.unpaired) == (
        match["score"],
        tuple(match["score_ci95"]),
        tuple(match["score_ci95_unpaired"]),
    )
    (end,) = panels(sprt, SprtEnd)
    assert (end.llr, end.bounds, end.verdict) == (
        match["sprt"]["llr"],
        tuple(match["sprt"]["bounds"]),
        match["sprt"]["verdict"],
    )
    assert panels(plain, SprtEnd) == [] and plain.kind == sprt.kind == "match"
    axes = draw(sprt).axes
    points = [bars.lines[0].get_xydata().tolist() for bars in axes[0].containers]
    assert points == [[[match["score"], 1]], [[match["score"], 0]]]
    spans = [bars.lines[2][0].get_segments()[0][:, 0].tolist() for bars in axes[0].containers]
    assert spans == [match["score_ci95"], match["score_ci95_unpaired"]]
    assert "not its path" in axes[1].get_xlabel()


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
        f"shutbox: error: '{config}' is not a report shutbox can plot: a tournament, match, analysis or duel report.\n"
    )
    assert not config.with_suffix(".png").exists()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('schema = 1\nkind = "tournament"\n', "is not a whole tournament report: figures are missing or malformed"),
        (
            'schema = 1\nkind = "analysis"\nstrategy = "x"\n[distribution]\n0 = "half"\n',
            "is not a whole analysis report",
        ),
        ("schema = 99\n", "has report schema 99; this shutbox reads schema 1 and earlier"),
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
    "args", [("plot", "run.toml"), ("tournament", "-s", "tips", "-s", "random", "--plot", "r.svg")]
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
