"""nElo beside Elo where a match's figures are put briefly: the `--quiet` line of `shutbox match`
and the bracket table of a knockout's `shutbox summary` page."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from helpers.command import shutbox


def test_the_quiet_match_line_gives_the_nelo_with_its_interval(tmp_path: Path) -> None:
    report = tmp_path / "m.toml"
    done = shutbox("match", "tips", "random", "-n", "200", "--seed", "1", "-q", "-o", str(report))
    assert done.returncode == 0, done.stderr
    match = tomllib.loads(report.read_text())["match"]
    low, high = match["nelo_ci95"]
    said = f"nElo {match['nelo']:+.1f} (95% CI {low:+.1f} to {high:+.1f}); seed 1; 200 games"
    assert said in done.stdout and done.stdout.count("\n") == 1


@pytest.mark.slow
def test_the_knockout_summary_gives_each_played_ties_nelo(tmp_path: Path) -> None:
    cup = tmp_path / "cup.toml"
    field = ("-s", "optimal", "-s", "tips", "-s", "random", "-s", "greedy-high")
    shutbox("tournament", "--system", "knockout", *field, "-n", "200", "--seed", "3", "-o", str(cup), "-q")
    played = [tie for one in tomllib.loads(cup.read_text())["round"] for tie in one["tie"] if "nelo" in tie]
    page = shutbox("summary", str(cup)).stdout
    assert "| higher seed's score | Elo | nElo |" in page
    for tie in played:
        row = next(line for line in page.splitlines() if f") {tie['first']} | ({tie['second_seed']})" in line)
        assert row.endswith(f"| {tie['elo']:+.1f} | {tie['nelo']:+.1f} |"), row
    assert played
