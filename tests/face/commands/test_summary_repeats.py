"""Every repeat command `shutbox summary` prints runs, and makes the report it repeats: of a
tournament, a match, an exact tournament, a gauntlet and a tune, a user's strategy among them with
its parameters given in its spec."""

from __future__ import annotations

import shlex
import tomllib
from pathlib import Path
from typing import Any

import pytest

from helpers.command import shutbox

STRATEGY = '''from strategies import Move, Strategy, View


class C(Strategy):
    """Shuts the highest tiles; one die at `low` or less."""

    def __init__(self, low: int = 4) -> None:
        self.low = low

    def choose_move(self, view: View) -> Move:
        return max(view.legal_moves, key=lambda move: move[::-1])

    def choose_dice(self, view: View) -> int:
        return 1 if view.open_sum <= self.low else 2
'''

RUNS = {
    "tournament": ["tournament", "-s", "f.py:C(low=6)", "-s", "f.py:C", "-s", "optimal", "-n", "200", "--seed", "2"],
    "match": ["match", "f.py:C(low=6)", "f.py:C", "-n", "200", "--seed", "2"],
    "sprt": ["match", "f.py:C(low=6)", "optimal", "-n", "600", "--seed", "2", "--sprt", "elo0=0 elo1=50"],
    "exact": ["tournament", "-s", "f.py:C(low=6)", "-s", "optimal", "--exact"],
    "gauntlet": [
        *("tournament", "-s", "f.py:C(low=6)", "-s", "f.py:C", "-s", "optimal", "-s", "tips"),
        *("--gauntlet", "2", "-n", "200", "--seed", "2"),
    ],
    "tune": ["tune", "f.py:C(low=6)", "-p", "low=4..6", "-s", "optimal"],
}


def written(folder: Path, command: list[str], report: str) -> dict[str, Any]:
    """The report a command writes, run in `folder` (an SPRT's verdict is its exit status)."""
    done = shutbox(*command, "-o", report, "-q", cwd=folder)
    assert done.returncode in (0, 3, 4), done.stderr
    return tomllib.loads((folder / report).read_text())


@pytest.mark.slow
@pytest.mark.parametrize("run", sorted(RUNS))
def test_the_repeat_command_of_every_kind_of_report_runs_and_makes_the_same_report(tmp_path: Path, run: str) -> None:
    (tmp_path / "f.py").write_text(STRATEGY)
    held = written(tmp_path, RUNS[run], "first.toml")
    page = shutbox("summary", "first.toml", cwd=tmp_path)
    assert page.returncode == 0, page.stderr
    repeat = shlex.split(page.stdout.split("```sh\n")[1].splitlines()[0])
    assert repeat[:2] == ["shutbox", RUNS[run][0]]
    assert written(tmp_path, repeat[1:], "again.toml") == held
