"""`check`, `compare`, `best` and `replay` print a document with `--format json` (or toml), one
document on stdout that a script reads whole (`json.loads`, jq), as `tournament` does."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from shutbox_cli.face.play.best import FILE_NAME, rules_key
from shutbox_cli.face.play.datafile import DATA_DIR_VARIABLE
from shutbox_cli.game import Rules

from helpers.command import shutbox


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "run.toml"
    done = shutbox("tournament", "-s", "optimal", "-s", "tips", "-n", "20", "--seed", "3", "-q", "-o", str(path))
    assert done.returncode == 0, done.stderr
    return path


def document(*args: str) -> dict[str, object]:
    done = shutbox(*args, "--format", "json", columns=None)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert isinstance(found, dict) and found["schema"] == 1
    return found


def test_check_prints_every_check() -> None:
    found = document("check", "greedy-high", "--samples", "3")
    assert (found["kind"], found["strategy"], found["ok"], found["rule_sets"]) == ("check", "greedy-high", True, 3)
    checks = found["check"]
    assert isinstance(checks, list) and checks and all(one["ok"] is True and one["detail"] for one in checks)


def test_compare_prints_each_figure_with_its_interval(report: Path) -> None:
    found = document("compare", str(report), str(report))
    assert found["kind"] == "comparison" and (found["added"], found["removed"]) == ([], [])
    strategies = found["strategy"]
    assert isinstance(strategies, list)
    assert [one["name"] for one in strategies] == ["optimal", "tips"]
    rate = strategies[0]["figures"]["win_rate"]
    assert (rate["old"], rate["change"], rate["significant"]) == (0.55, 0.0, False)
    assert rate["change_ci95"][0] < 0 < rate["change_ci95"][1]


def test_replay_prints_every_turn_of_the_game_it_shows(report: Path) -> None:
    found = document("replay", str(report), "-g", "3")
    assert (found["kind"], found["players"], found["winners"]) == ("replay", ["optimal", "tips"], ["optimal"])
    shown = shutbox("replay", str(report), "-g", "3", columns=None).stdout
    turns = [turn for one in found["round"] for turn in one["turn"]]  # type: ignore[attr-defined]
    assert [turn["player"] for turn in turns] == ["optimal", "tips"]
    assert f"Scores: tips {turns[1]['score']}, optimal {turns[0]['score']}." in shown
    for turn in turns:
        open_tiles = set(range(1, 10)) - {tile for roll in turn["rolls"] for tile in roll["shut"]}
        assert sorted(open_tiles) == turn["open"] and sum(turn["open"]) == turn["score"]


def test_best_lists_the_kept_scores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(tmp_path))
    assert document("best")["rule_set"] == []
    (tmp_path / FILE_NAME).write_text(json.dumps({"format": 1, "best": {rules_key(Rules()): 3}}))
    found = document("best")
    assert found["kind"] == "best" and found["rule_set"] == [{"rules": "standard", "measure": "score", "best": "3"}]
    as_toml = shutbox("best", "--format", "toml")
    assert tomllib.loads(as_toml.stdout)["rule_set"] == found["rule_set"]


def test_best_refuses_a_format_with_reset() -> None:
    done = shutbox("best", "--reset", "--format", "json")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "shutbox: error: --format json lists the kept scores; it does not go with --reset.\n"
