"""Two versions of one strategy, both named alike, are matched without renaming either: they play
under their specs as typed (or NEW and BASELINE, when the specs are the same), and the command says
so; a clash that cannot be told apart is said in the words of the command run."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from helpers.command import shutbox

BOT = '''from strategies import Move, Strategy, View


class Bot(Strategy):
    """Shuts the highest tiles; one die at {low} or less."""

    name = "bot"

    def choose_move(self, view: View) -> Move:
        return max(view.legal_moves, key=lambda move: move[::-1])

    def choose_dice(self, view: View) -> int:
        return 1 if view.open_sum <= {low} else 2
'''


def versions(folder: Path) -> Path:
    """new.py and old.py: two versions of strategy 'bot'."""
    (folder / "new.py").write_text(BOT.format(low=6))
    (folder / "old.py").write_text(BOT.format(low=4))
    return folder


@pytest.mark.slow
def test_two_versions_of_one_name_play_a_match_under_their_specs(tmp_path: Path) -> None:
    done = shutbox(
        "match", "new.py:Bot", "old.py:Bot", "-n", "200", "--seed", "1", "-o", "m.toml", cwd=versions(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    assert "Match: new.py:Bot vs old.py:Bot" in done.stdout
    assert "both named 'bot'" in done.stderr and "'new.py:Bot' and 'old.py:Bot'" in done.stderr
    report = tomllib.loads((tmp_path / "m.toml").read_text())
    assert [entry["name"] for entry in report["config"]["strategy"]] == ["new.py:Bot", "old.py:Bot"]
    assert (report["match"]["strategy"], report["match"]["baseline"]) == ("new.py:Bot", "old.py:Bot")
    again = shutbox("tournament", "m.toml", "-o", "again.toml", "-q", cwd=tmp_path)  # the report, read back
    assert again.returncode == 0, again.stderr
    assert "named 'bot'" not in again.stderr


@pytest.mark.slow
def test_two_versions_of_one_name_play_a_gauntlet(tmp_path: Path) -> None:
    done = shutbox(
        *("tournament", "-s", "new.py:Bot", "-s", "old.py:Bot", "-s", "optimal", "--gauntlet", "2"),
        *("-n", "200", "--seed", "1"),
        cwd=versions(tmp_path),
    )
    assert done.returncode == 0, done.stderr
    assert "new.py:Bot" in done.stdout and "old.py:Bot" in done.stdout and "both named 'bot'" in done.stderr


@pytest.mark.slow
def test_three_versions_of_one_name_each_play_under_its_spec(tmp_path: Path) -> None:
    (versions(tmp_path) / "older.py").write_text(BOT.format(low=2))
    done = shutbox(
        *("tournament", "-s", "new.py:Bot", "-s", "old.py:Bot", "-s", "older.py:Bot", "-n", "60", "--seed", "1"),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "strategies 1, 2 and 3 are all named 'bot'; they play as 'new.py:Bot', 'old.py:Bot' and 'older.py:Bot'" in (
        done.stderr
    )
    assert all(spec in done.stdout for spec in ("new.py:Bot", "old.py:Bot", "older.py:Bot"))


def test_one_strategy_against_itself_plays_as_new_and_baseline() -> None:
    done = shutbox("match", "optimal", "optimal", "-n", "20", "--seed", "1")
    assert done.returncode == 0, done.stderr
    assert "Match: new vs baseline" in done.stdout


def test_a_clash_of_names_given_is_said_without_a_flag_match_does_not_have() -> None:
    done = shutbox("match", "x=optimal", "x=tips", "-n", "20", "--seed", "1")
    assert done.returncode == 2
    assert "--strategy" not in done.stderr and "Traceback" not in done.stderr
    assert "the name 'x' is already taken by NEW" in done.stderr
