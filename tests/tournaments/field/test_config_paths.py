"""A strategy file's path in a config or a report is read from that file's folder, so both run
from any folder; a report records each strategy file's sha256 and a re-run warns when it changed.
Through the real command, in real processes (a user's strategy plays in a host process of its own)."""

from __future__ import annotations

import hashlib
import subprocess
import tomllib
from pathlib import Path

import pytest

from helpers.command import real_shutbox

pytestmark = pytest.mark.slow  # each runs a user's strategy in a host process of its own

MINE = '''
from strategies import Move, Strategy, View


class Mine(Strategy):
    """Shuts the first legal move it is offered (it has no name: it plays under its spec)."""

    def choose_move(self, view: View) -> Move:
        return view.legal_moves[0]
'''
CONFIG = """
seed = 3
games = 40

[[strategy]]
spec = "bots/mine.py:Mine"

[[strategy]]
spec = "greedy-high"
"""


def shutbox(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return real_shutbox("tournament", *args, "--quiet", cwd=cwd)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder with a strategy file in `bots/` and a tournament file naming it, and two
    other folders, `elsewhere` and `far/away`, to run from."""
    (tmp_path / "project" / "bots").mkdir(parents=True)
    (tmp_path / "project" / "bots" / "mine.py").write_text(MINE)
    (tmp_path / "project" / "tournament.toml").write_text(CONFIG)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "far" / "away").mkdir(parents=True)
    return tmp_path / "project"


@pytest.mark.usefixtures("pooled")  # a worker, started elsewhere, finds the strategy the config names
def test_a_config_runs_from_another_folder_and_its_strategies_keep_their_names(project: Path) -> None:
    elsewhere = project.parent / "elsewhere"
    done = shutbox(str(project / "tournament.toml"), "--report", "r.toml", cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    report = tomllib.loads((elsewhere / "r.toml").read_text())
    assert [(item["spec"], item["name"]) for item in report["config"]["strategy"]] == [
        ("../project/bots/mine.py:Mine", "bots/mine.py:Mine"),
        ("greedy-high", "greedy-high"),
    ]


def test_a_missing_strategy_file_is_looked_for_beside_the_config(project: Path) -> None:
    (project / "bots" / "mine.py").unlink()
    done = shutbox(str(project / "tournament.toml"), cwd=project.parent / "elsewhere")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"shutbox: error: {project / 'tournament.toml'}: key 'strategy[1]': no file 'bots/mine.py' in "
        f"{str(project)!r}; a strategy file's path in a config file or report is read from the file's own folder."
    ]


def test_a_report_records_paths_from_its_folder_and_reruns_from_anywhere(project: Path) -> None:
    elsewhere = project.parent / "elsewhere"
    (project / "out").mkdir()
    first = shutbox(str(project / "tournament.toml"), "--report", str(project / "out" / "first.toml"), cwd=elsewhere)
    assert first.returncode == 0, first.stderr
    report = tomllib.loads((project / "out" / "first.toml").read_text())
    mine = report["config"]["strategy"][0]
    assert mine["spec"] == "../bots/mine.py:Mine"
    assert mine["sha256"] == hashlib.sha256((project / "bots" / "mine.py").read_bytes()).hexdigest()
    assert "sha256" not in report["config"]["strategy"][1]  # built in: its version says what it is
    assert report["ranking"][0]["spec"] in ("../bots/mine.py:Mine", "greedy-high")

    again = shutbox(str(project / "out" / "first.toml"), "--report", "again.toml", cwd=project.parent / "far" / "away")
    assert again.returncode == 0, again.stderr
    # The source is the one the report recorded: nothing to warn of, only the report's note.
    assert "warning" not in again.stderr and "Report written to again.toml." in again.stderr
    rerun = tomllib.loads((project.parent / "far" / "away" / "again.toml").read_text())
    assert rerun["config"]["strategy"][0]["spec"] == "../../project/bots/mine.py:Mine"
    assert rerun["ranking"] == [
        {**entry, "spec": entry["spec"].replace("../bots/", "../../project/bots/")} for entry in report["ranking"]
    ]


def test_an_edited_strategy_file_is_warned_about_and_the_run_goes_on(project: Path) -> None:
    first = shutbox("tournament.toml", "--report", "first.toml", cwd=project)
    assert first.returncode == 0, first.stderr
    recorded = tomllib.loads((project / "first.toml").read_text())["config"]["strategy"][0]["sha256"]
    (project / "bots" / "mine.py").write_text(MINE.replace("legal_moves[0]", "legal_moves[-1]"))
    now = hashlib.sha256((project / "bots" / "mine.py").read_bytes()).hexdigest()
    again = shutbox(str(project / "first.toml"), cwd=project.parent / "elsewhere")
    assert again.returncode == 0, again.stderr
    assert again.stderr.splitlines() == [
        f"warning: bots/mine.py has changed since {project / 'first.toml'} was written (sha256 {recorded[:12]}... "
        f"then, {now[:12]}... now); its results may differ."
    ]
