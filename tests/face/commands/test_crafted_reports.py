"""Every command that reads a report (summary, compare, plot, replay and tournament from a report's
config, a tune's resume) reads it through one checked reader: a crafted report (a rate
out of range, an interval out of order or leaving out its figure, totals that disagree with its
matchups, a count that is no count, a tune's rate objective out of range, a name holding a terminal's
escape) is refused by each in one sentence naming the file and the field, exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.command import shutbox
from helpers.paths import DATA, GOLDEN

DEFAULT = GOLDEN / "expected" / "default.report.toml"
FIRST = 'name = "optimal"\nspec = "optimal"\ngames'
"""The first entry of the default report's ranking, by its name."""
TOURNAMENTS = [
    (("win_rate = 0.577\n", "win_rate = 1.7\n"), "ranking[0].win_rate is 1.7, not a rate from 0 to 1."),
    (("win_rate = 0.577\n", "win_rate = inf\n"), "ranking[0].win_rate is inf, not a finite number."),
    (("0.528078,\n    0.624457,", "0.9,\n    0.1,"), "ranking[0].win_rate_ci95 is [0.9, 0.1]: its low end lies above"),
    (("0.528078,\n    0.624457,", "0.1,\n    0.2,"), "ranking[0].win_rate_ci95 is [0.1, 0.2], which leaves out"),
    (("games = 6000\n", f"games = {10**18}\n"), "totals.games is 1,000,000,000,000,000,000, not its 15 matchups"),
    (("games = 2000\n", "games = -2000\n"), "ranking[0].games is -2000, not a count"),
    (("games = 2000\n", "games = 2000.5\n"), "ranking[0].games is 2000.5, not a count"),
    (("wins = 1154.0\n", "wins = -1154.0\n"), "ranking[0].wins is -1154.0, not a count"),
    ((FIRST, 'name = "a\\u001b]52;c;aGk=\\u0007"\nspec = "optimal"\ngames'), "ranking[0].name holds control"),
]
"""Crafted tournament reports: a change to the default report (old text, new), and what is said of it."""
TUNES = [
    (("objective = 0.5\n", "objective = 1e308\n"), "trial[1].objective is 1e+308, not a rate from 0 to 1."),
    (("objective = 0.5\n", "objective = -0.5\n"), "trial[1].objective is -0.5, not a rate from 0 to 1."),
]
"""Crafted tune reports: a change to a stopped tune's report, and what is said of it."""


def crafted(tmp_path: Path, source: Path, change: tuple[str, str]) -> Path:
    """`source` with `change` (old text, new) made once, as `crafted.toml` in `tmp_path`."""
    text = source.read_text()
    assert change[0] in text
    path = tmp_path / "crafted.toml"
    path.write_text(text.replace(*change, 1))
    return path


def refused(args: list[str], path: Path, said: str) -> None:
    """The command `args` refuses the crafted report at `path` in one sentence naming it and the field."""
    done = shutbox(*args)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr.startswith(f"shutbox: error: {str(path)!r} is not a report shutbox wrote: "), done.stderr
    assert said in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr


@pytest.mark.parametrize(("change", "said"), TOURNAMENTS)
@pytest.mark.parametrize("command", ["summary", "compare-new", "compare-old", "plot", "replay", "tournament"])
def test_a_crafted_tournament_report_is_refused_by_every_reader(
    tmp_path: Path, command: str, change: tuple[str, str], said: str
) -> None:
    path = crafted(tmp_path, DEFAULT, change)
    args = {
        "summary": ["summary", str(path)],
        "compare-new": ["compare", str(DEFAULT), str(path)],
        "compare-old": ["compare", str(path), str(DEFAULT)],
        "plot": ["plot", str(path), "-o", str(tmp_path / "crafted.png")],
        "replay": ["replay", str(path), "--game", "0", "--matchup", "optimal vs max-shut"],
        "tournament": ["tournament", str(path), "-q", "-o", str(tmp_path / "again.toml")],
    }[command]
    refused(args, path, said)
    assert not (tmp_path / "crafted.png").exists() and not (tmp_path / "again.toml").exists()


@pytest.mark.parametrize(("change", "said"), TUNES)
@pytest.mark.parametrize("command", ["summary", "plot", "tune"])
def test_a_crafted_tune_report_is_refused_by_every_reader(
    tmp_path: Path, command: str, change: tuple[str, str], said: str
) -> None:
    path = crafted(tmp_path, DATA / "tune_stopped.toml", change)
    args = {
        "summary": ["summary", str(path)],
        "plot": ["plot", str(path), "-o", str(tmp_path / "crafted.png")],
        "tune": ["tune", "--resume", str(path), "-q"],
    }[command]
    refused(args, path, said)
    assert not (tmp_path / "crafted.png").exists()


@pytest.mark.slow  # an exact tournament
def test_an_exact_report_of_expected_counts_is_read_by_every_reader(tmp_path: Path) -> None:
    """An exact head to head counts its games ahead, tied and behind in expected, fractional, games."""
    report = tmp_path / "exact.toml"
    assert shutbox("tournament", "--exact", "-s", "optimal", "-s", "tips", "-q", "-o", str(report)).returncode == 0
    assert "ahead = 0.99" in report.read_text()
    for args in (["summary", str(report)], ["compare", str(report), str(report)]):
        done = shutbox(*args)
        assert done.returncode == 0 and done.stdout, done.stderr
