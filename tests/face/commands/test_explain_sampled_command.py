"""`shutbox explain` of a strategy that is neither exact nor keyed: explained on sampled states
(--games, --seed), marked so in the table and the report; and `--plot` / `shutbox plot` of an
explanation, the drawing read back bar for bar from the report's rows."""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path
from typing import Any

import pytest

from shutbox_cli.face.commands import explain as command
from shutbox_cli.game import DICE_SCHEME
from tournaments.exact import sampled
from tournaments.parts import LossBars, read_figures

from helpers.command import real_shutbox, shutbox

READER = "tests/data/turn_reader.py:FirstRollHigh"
"""Reads the turn without a key: explained on sampled states."""


def read(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text())


def bars(path: Path) -> dict[str, LossBars]:
    return {panel.by: panel for panel in read_figures(path).panels if isinstance(panel, LossBars)}


def test_the_help_says_the_librarys_default_number_of_games() -> None:
    assert command.DEFAULT_GAMES == sampled.DEFAULT_GAMES


@pytest.mark.slow  # the real command, its host, and a drawing
def test_a_context_reader_is_explained_on_sampled_states_and_its_loss_drawn(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    report, drawing = tmp_path / "reader.toml", tmp_path / "reader.png"
    done = real_shutbox("explain", READER, "--games", "400", "--seed", "3", "-o", str(report), "--plot", str(drawing))
    assert done.returncode == 0, done.stderr
    assert "first-roll-high alone: its expected score over a turn, sampled (400 games, seed 3, given)." in (
        " ".join(done.stdout.split())
    )
    assert f"Plot written to {drawing}." in done.stderr
    table = read(report)
    assert (table["kind"], table["method"], table["games"], table["seed"]) == ("explanation", "sampled", 400, 3)
    assert table["measure"] == "expected-score"
    low, high = table["gap_ci95"]
    assert low <= table["gap"] <= high
    assert math.fsum(row["loss"] for row in table["rows"]) == pytest.approx(table["gap"], abs=1e-9)
    assert all(row["reach"] == row["met"] / 400 for row in table["rows"])
    assert drawing.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    again = tmp_path / "again.png"
    done = shutbox("plot", str(report), "-o", str(again))
    assert done.returncode == 0, done.stderr
    assert again.read_bytes() == drawing.read_bytes()  # the report holds all the drawing needs


@pytest.mark.slow  # a drawing
def test_an_exact_explanations_bars_add_up_to_its_gap_and_are_drawn_as_they_are(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from shutbox_cli.face.plotting import draw

    report = tmp_path / "greedy.json"
    done = shutbox("explain", "greedy-high", "--tiles", "6", "--format", "json", "-o", str(report))
    assert done.returncode == 0, done.stderr
    table = json.loads(report.read_text())
    found = bars(report)
    assert set(found) == {"open total", "tiles left"}
    for by, panel in found.items():
        assert math.fsum(panel.losses) == pytest.approx(table["gap"], abs=1e-9)
        assert panel.unit == "points"
        key = sum if by == "open total" else len
        for group, loss in zip(panel.groups, panel.losses, strict=True):
            rows = [row for row in table["rows"] if key(row["box"]) == group]
            assert loss == pytest.approx(math.fsum(row["reach"] * row["cost"] for row in rows), abs=1e-12)
    figure = draw(read_figures(report))
    assert "computed exactly" in figure.get_suptitle()
    for axes, panel in zip(figure.axes, found.values(), strict=True):
        assert [bar.get_height() for bar in axes.patches] == list(panel.losses)
        assert [round(bar.get_x() + bar.get_width() / 2) for bar in axes.patches] == list(panel.groups)


@pytest.mark.slow  # the situations of a seat among two rivals worked out exactly
def test_a_drawing_of_an_explanation_against_rivals_names_them(tmp_path: Path) -> None:
    report = tmp_path / "against.toml"
    done = shutbox("explain", "random", "-s", "optimal", "-s", "tips", "--seat", "2", "--tiles", "4", "-n", "30",
                   "--seed", "1", "-o", str(report))  # fmt: skip
    assert done.returncode == 0, done.stderr
    figures = read_figures(report)
    assert figures.subject == "random against optimal, tips" and figures.method == "sampled"
    assert {panel.unit for panel in figures.panels if isinstance(panel, LossBars)} == {"chance"}
    assert figures.size == "30 games" and figures.seed == 1


def test_a_sampled_report_says_how_it_was_sampled(tmp_path: Path) -> None:
    done = shutbox("explain", "random", "--tiles", "5", "-n", "50", "--seed", "9", "--format", "json")
    assert done.returncode == 0, done.stderr
    table = json.loads(done.stdout)  # pipeable: the document alone on stdout
    assert (table["method"], table["games"], table["seed"], table["dice"]) == ("sampled", 50, 9, DICE_SCHEME)
    assert table["value_ci95"][0] <= table["value"] <= table["value_ci95"][1]


def test_a_drawn_seed_is_said_so_it_can_be_repeated() -> None:
    done = shutbox("explain", "random", "--tiles", "4", "-n", "20", "--format", "json")
    seed = json.loads(done.stdout)["seed"]
    assert done.stderr.endswith(f"Seed {seed} was drawn; repeat with --seed {seed}.\n")


def test_an_exact_strategy_ignores_games_and_seed_and_says_so() -> None:
    done = shutbox("explain", "greedy-high", "--tiles", "4", "--seed", "3")
    assert done.returncode == 0, done.stderr
    assert "--games and --seed apply to sampled states; this strategy is explained exactly." in done.stderr
    assert "sampled" not in done.stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("random", "--against", "random"), "'random' is not an exact strategy (it is stochastic)"),
        (("random", "-n", "1"), "--games must be at least 2"),
        (("random", "--plot", "loss.txt"), "cannot tell what to draw 'loss.txt' as: name it .png, .svg or .pdf."),
    ],
)
def test_bad_input_is_one_sentence_and_status_2(args: tuple[str, ...], said: str) -> None:
    done = shutbox("explain", *args)
    assert done.returncode == 2 and done.stdout == ""
    assert said in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    "text",
    [
        'schema = 1\nkind = "explanation"\n',
        'schema = 1\nkind = "explanation"\nstrategy = "x"\nmeasure = "expected-score"\n[rules]\n'
        "[[rows]]\nbox = [0]\nreach = 0.5\ncost = 1.0\n",
    ],
)
def test_a_broken_explanation_is_refused_in_one_sentence(tmp_path: Path, text: str) -> None:
    pytest.importorskip("matplotlib")
    broken = tmp_path / "broken.toml"
    broken.write_text(text)
    done = shutbox("plot", str(broken))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"shutbox: error: '{broken}' is not a whole explanation report: figures are missing or malformed, "
        "so it cannot be plotted.\n"
    )
    assert not broken.with_suffix(".png").exists()


def test_a_strategy_that_draws_is_not_said_to_hang_on_more_than_the_box_alone() -> None:
    done = shutbox("explain", "random", "--tiles", "4", "-n", "20", "--seed", "1", columns=300)
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stdout.split())
    assert "Its choices hang on more than the box and the roll," not in said
    assert "Its choices draw at random or hang on more than the box and the roll" in said
