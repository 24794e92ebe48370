"""`play_knockout` as a notebook calls it: one line of repr, a report that plays the same knockout
again, an SPRT that stops each played tie, and a mistake one sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournaments import ConfigError, InProcess, Options, Sprt, play_knockout
from tournaments.parts import is_knockout_report

FIELD = ["optimal", "r1=random", "tips", "r2=random", "greedy-high"]


@pytest.mark.slow
def test_a_knockout_replays_from_its_report_with_its_test(tmp_path: Path) -> None:
    report = tmp_path / "cup.toml"
    options = Options(strategies=FIELD, games=2000, seed=5)
    cup = play_knockout(options, sprt=Sprt(0, 5, model="normalized"), backend=InProcess(), report=report)
    assert repr(cup) == f"<Knockout of 5 strategies, seed 5; {cup.winner} won; {cup.games:,} games played>"
    played = [tie for ties in cup.rounds for tie in ties if tie.match is not None]
    assert played and all(tie.match.sprt == Sprt(0, 5, model="normalized") for tie in played if tie.match)
    assert any(tie.games < 2000 for tie in played)  # a test that decided stopped its tie
    assert is_knockout_report(report)
    again = play_knockout(report, backend=InProcess(), report=tmp_path / "again.toml")
    assert again.sprt == cup.sprt and again.rounds == cup.rounds
    assert (tmp_path / "again.toml").read_bytes() == report.read_bytes()


def test_a_field_a_knockout_cannot_take_is_one_sentence() -> None:
    with pytest.raises(ConfigError, match="a knockout's ties are played at a table of two, not "):
        play_knockout(Options(strategies=["optimal", "tips", "random"], table=3))
    with pytest.raises(ConfigError, match="is order, ratings or exact, not 'best'"):
        play_knockout(Options(strategies=["optimal", "tips"], seed=1), seeding="best", backend=InProcess())
