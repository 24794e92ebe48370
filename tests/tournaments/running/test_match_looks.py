"""A match's SPRT looks after every block of 128 games, in the plan's order, and stops at the first
block where it decides: at the same game in one process, on the worker pool, with the compiled
kernel or numpy, and played turn by turn; the report counts the games up to there."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournaments import InProcess, Options, ProcessPool, Sprt, Summary, Verdict, play_match
from tournaments.running.runner import MATCH_LOOK_GAMES

CLOSE = Options(strategies=["optimal", "fewest-tiles"], games=1_000_000, seed=10)
"""Two close strategies whose pairs mostly split: the LLR jumps by several a unit of 2,048 games."""

READER = '''from strategies import Move, Strategy, View


class Reader(Strategy):
    """Shuts the highest tiles, and takes one die when it is behind and little is left."""

    reads_context = True

    def choose_move(self, view: View) -> Move:
        return max(view.legal_moves, key=lambda move: move[::-1])

    def choose_dice(self, view: View) -> int:
        return 1 if view.open_sum <= 6 else 2
'''


def looked(summary: Summary) -> list[int]:
    assert summary.match is not None
    return [games for games, _ in summary.match.path]


def crossed_once(summary: Summary) -> None:
    """The LLR stayed between its bounds at every look but the last, which crossed one."""
    match = summary.match
    assert match is not None and match.sprt is not None
    low, high = match.sprt.bounds
    assert all(low < llr < high for _, llr in match.path[:-1])
    assert match.path[-1] == (summary.games, match.llr) and not low < match.llr < high


@pytest.mark.slow
def test_the_test_looks_every_block_and_stops_at_the_first_that_decides() -> None:
    summary = play_match(CLOSE, Sprt(0, 5))
    assert summary.match is not None and summary.match.verdict is Verdict.H1
    assert looked(summary) == list(range(MATCH_LOOK_GAMES, summary.games + 1, MATCH_LOOK_GAMES))
    assert summary.games % 2048  # within a unit: looking after each unit played on to 16,384
    crossed_once(summary)
    assert summary.match.llr < 4  # it played on to an LLR of 9.28 when it looked after each unit


@pytest.mark.slow
def test_the_report_counts_the_games_up_to_the_stop() -> None:
    """A stopped match's figures are those of a match of as many games, untested."""
    tested = play_match(CLOSE, Sprt(0, 5))
    played = play_match(Options(strategies=["optimal", "fewest-tiles"], games=tested.games, seed=10))
    assert tested.tallies == played.tallies and tested.games == played.games
    assert tested.match is not None and played.match is not None
    assert tested.match.pairs == played.match.pairs and 2 * tested.match.pairs.pairs == tested.games


@pytest.mark.slow
@pytest.mark.parametrize("kernel", ["numpy", "numba"])
def test_the_stop_is_the_same_in_bulk_with_numpy_or_the_kernel_and_on_the_pool(
    kernel: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHUTBOX_KERNEL", kernel)
    alone = play_match(CLOSE, Sprt(0, 5), backend=InProcess())
    pooled = play_match(CLOSE, Sprt(0, 5), backend=ProcessPool(2))
    reference = play_match(CLOSE, Sprt(0, 5))  # the engine the plan's size picks
    assert alone.games == pooled.games == reference.games
    assert alone.match == pooled.match == reference.match and alone.tallies == pooled.tallies == reference.tallies


@pytest.mark.slow
def test_a_match_played_turn_by_turn_stops_at_the_same_game_in_one_process_and_on_the_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A strategy that reads the game's context plays turn by turn, in units of 1,920 games (whole blocks)."""
    (tmp_path / "reader.py").write_text(READER)
    monkeypatch.chdir(tmp_path)
    options = Options(strategies=["reader.py:Reader", "fewest-tiles"], games=100_000, seed=3)
    sprt = Sprt(-30, 30)
    alone = play_match(options, sprt, backend=InProcess())
    pooled = play_match(options, sprt, backend=ProcessPool(2))
    assert alone.match is not None and alone.match.verdict is not Verdict.UNDECIDED
    assert alone.games == pooled.games and alone.match == pooled.match and alone.tallies == pooled.tallies
    assert looked(alone) == list(range(MATCH_LOOK_GAMES, alone.games + 1, MATCH_LOOK_GAMES))
    crossed_once(alone)
