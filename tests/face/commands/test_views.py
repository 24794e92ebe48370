"""The views of `analyze` and `compare` rendered in this process (a rich Console on a StringIO at
80 columns): what each prints for a result built by the library, with no command run."""

from __future__ import annotations

from shutbox_cli.face.commands.analyze import _show
from shutbox_cli.face.commands.compare import _show_table
from shutbox_cli.game import Rules
from tournaments import analyze, seat_strategy
from tournaments.ci.compare import Change, Comparison, StrategyChange

from helpers.render import rendered


def test_an_exact_analysis_shows_its_figures_and_every_score() -> None:
    lines = rendered(_show, analyze(seat_strategy("greedy-high", Rules(tiles=4))), "the highest tiles first")
    assert lines[:7] == [
        "greedy-high: the highest tiles first",
        "Rules for a turn: tiles = 4.",
        "Method: exact, from the strategy's answer for every box and roll.",
        "Expected score: 3.24537037",
        "Shuts the box: 20.370%",
        "Score distribution",
        "score   chance",
    ]
    assert lines[7] == "    0  20.370%  " + "█" * 20  # the likeliest score has the full bar
    assert [line[:14] for line in lines[8:]] == [
        "    1   9.259%",
        "    2   9.259%",
        "    3  14.352%",
        "    4  18.056%",
        "    5  13.889%",
        "    6   2.778%",
        "    7   3.704%",
        "    8   5.556%",
        "    9   2.778%",
    ]


def test_a_simulated_analysis_shows_its_seed_and_intervals() -> None:
    lines = rendered(_show, analyze(seat_strategy("random", Rules(tiles=4)), turns=200, seed=1), "any legal move")
    assert lines[2:7] == [
        "Method: simulation of 200 turns, seed 1 (given).",
        "Expected score: 3.7750 (95% CI 3.3732 to 4.1768)",
        "Shuts the box: 18.500% (95% CI 13.730% to 24.457%)",
        "Score distribution",
        "score   chance           95% CI",
    ]
    assert lines[7].startswith("    0  18.500%  13.730%-24.457%  ████")
    assert len(lines) == 7 + 11  # scores 0 to 10


def test_a_comparison_shows_a_row_per_figure_and_the_strategies_added_and_removed() -> None:
    figures = {
        "win_rate": Change("win_rate", 0.5, 0.6, 0.05, 0.15),
        "mean_score": Change("mean_score", 10.0, 10.5, -1.0, 2.0),
    }
    comparison = Comparison((StrategyChange("tips", 100, 100, figures),), ("new-one",), ("gone",), ())
    assert rendered(_show_table, comparison) == [
        "strategy  figure      old → new  change  95% CI          significant",
        "tips      win_rate    0.5 → 0.6    +0.1  +0.05 to +0.15  rise",
        "tips      mean_score  10 → 10.5    +0.5  -1 to +2        no",
        "added: new-one",
        "removed: gone",
    ]
