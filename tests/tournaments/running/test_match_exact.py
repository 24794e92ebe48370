"""Where both strategies of a match can be computed exactly, and quickly, the match gives NEW's
exact score beside the simulated one (in its summary, its table and its report); where one cannot,
or the computation would not be quick, it gives none."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from shutbox_cli.game import Rules
from tournaments import Options, duel_exactly, play_match, seat_strategy

from helpers.command import shutbox

READER = '''from strategies import Move, Strategy, View


class Reader(Strategy):
    """Reads the game's context, so it cannot be computed exactly."""

    reads_context = True

    def choose_move(self, view: View) -> Move:
        return max(view.legal_moves, key=lambda move: move[::-1])
'''


def exact_score(new: str, old: str) -> float:
    duel = duel_exactly(seat_strategy(new, Rules()), seat_strategy(old, Rules()))
    return float(duel.seats[-1].wins)


def test_two_exact_strategies_have_the_exact_score_beside_the_simulated_one() -> None:
    summary = play_match(Options(strategies=["optimal", "max-shut"], games=200, seed=1))
    assert summary.match is not None
    assert summary.match.exact == exact_score("optimal", "max-shut")


def test_the_match_table_and_report_give_the_exact_score(tmp_path: Path) -> None:
    done = shutbox("match", "optimal", "max-shut", "-n", "200", "--seed", "1", "-o", str(tmp_path / "m.toml"))
    assert done.returncode == 0, done.stderr
    exact = exact_score("optimal", "max-shut")
    assert f"Computed exactly: optimal scores {100 * exact:.3f}% per game against max-shut's" in done.stdout
    match = tomllib.loads((tmp_path / "m.toml").read_text())["match"]
    assert match["exact_score"] == pytest.approx(exact, abs=1e-12)


@pytest.mark.slow
def test_a_strategy_that_reads_the_context_has_no_exact_score(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "reader.py").write_text(READER)
    monkeypatch.chdir(tmp_path)
    summary = play_match(
        Options(strategies=["reader.py:Reader", "optimal"], games=200, seed=1), report=tmp_path / "m.toml"
    )
    assert summary.match is not None and summary.match.exact is None
    assert "exact_score" not in tomllib.loads((tmp_path / "m.toml").read_text())["match"]


def test_a_computation_estimated_long_is_left_out() -> None:
    """Over 100 rounds to a total the duel is estimated at 24 seconds: the match gives no exact score."""
    summary = play_match(Options(strategies=["optimal", "max-shut"], games=20, seed=1, rules={"rounds": 100}))
    assert summary.match is not None and summary.match.exact is None
