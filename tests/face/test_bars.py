"""The terminal's bars where a distribution is shown: analyze's scores and a duel's margins, drawn by
the one renderer, each bar as long as its chance, within the terminal's width."""

from __future__ import annotations

import re

import pytest

from shutbox_cli.face.bars import BAR_WIDTH, bar_text

from helpers.command import shutbox

EIGHTHS = {"█": 8, "▉": 7, "▊": 6, "▋": 5, "▌": 4, "▍": 3, "▎": 2, "▏": 1}
ROW = re.compile(r"^ *(?P<value>[+-]?\d+) +(?P<chances>(?:\d+\.\d{3}% *)+?)(?:[\d.%-]+ +)?(?P<bar>[█▉▊▋▌▍▎▏]*) *$")


def eighths(bar: str) -> int:
    return sum(EIGHTHS[cell] for cell in bar)


@pytest.mark.parametrize(
    ("fraction", "drawn"), [(0, ""), (1, "█" * 20), (0.5, "█" * 10), (1 / 160, "▏"), (0.55, "███████████")]
)
def test_a_bar_is_its_fraction_of_the_width_in_eighths(fraction: float, drawn: str) -> None:
    assert bar_text(fraction) == drawn
    assert bar_text(0.5, 3) == "█▌" and bar_text(2) == "█" * BAR_WIDTH


def rows(text: str) -> list[tuple[int, list[float], int]]:
    """Each row of a distribution: its value, the chances shown, the bar's length in eighths."""
    found = []
    for line in text.splitlines():
        match = ROW.match(line)
        if match and "%" in line:
            chances = [float(chance) / 100 for chance in re.findall(r"(\d+\.\d{3})%", match["chances"])]
            found.append((int(match["value"]), chances, eighths(match["bar"])))
    return found


@pytest.mark.parametrize("columns", [60, 80])
def test_the_score_distribution_has_a_bar_per_score_as_long_as_its_chance(columns: int) -> None:
    done = shutbox("analyze", "greedy-high", columns=columns)
    assert done.returncode == 0, done.stderr
    assert max(len(line) for line in done.stdout.splitlines()) <= columns
    scores = rows(done.stdout)
    assert (
        scores[0][0] == 0
        and len(scores) > 30
        and [score for score, _, _ in scores] == sorted({s for s, _, _ in scores})
    )
    top = max(chances[0] for _, chances, _ in scores)
    for _, (chance,), length in scores:
        assert abs(length - chance / top * BAR_WIDTH * 8) <= 1 + 8 * 0.0005 / top * BAR_WIDTH  # the figure is rounded
    assert max(length for _, _, length in scores) == BAR_WIDTH * 8


def test_a_simulated_distribution_has_its_bars_beside_the_intervals_at_60_columns() -> None:
    done = shutbox("analyze", "random", "--turns", "2000", "--seed", "3", columns=60)
    assert done.returncode == 0, done.stderr
    assert max(len(line) for line in done.stdout.splitlines()) <= 60
    scores = rows(done.stdout)
    assert scores and max(length for _, _, length in scores) == BAR_WIDTH * 8


@pytest.mark.parametrize("columns", [32, 60])
def test_a_duels_margins_give_up_bar_width_before_their_figures(columns: int) -> None:
    done = shutbox("analyze", "optimal", "--against", "tips", "--seat", "1", "--tiles", "7", columns=columns)
    assert done.returncode == 0, done.stderr
    assert max(len(line) for line in done.stdout.splitlines()) <= columns
    margins = rows(done.stdout.partition("Margin:")[2])
    assert len(margins) > 20 and all(len(chances) == 1 for _, chances, _ in margins)
    longest = max(length for _, _, length in margins)
    assert longest == BAR_WIDTH * 8 if columns == 60 else 0 < longest < BAR_WIDTH * 8
    assert "…" not in done.stdout.partition("Margin:")[2]
