"""`shutbox history` on a history changed by hand or by another program: a run whose row does not
read is skipped with one warning in a list (one writer's bad row never hides the others' runs), and
refused in one sentence when shown; a database that is not a history, or a place that names no
store, is one sentence (exit 2); a password in a database URL is never said nor recorded."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from helpers.command import shutbox

SKIP, REFUSE, READ = "skip", "refuse", "read"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A history of two matches (runs 1 and 2)."""
    place = tmp_path_factory.mktemp("kept") / "history.sqlite3"
    for seed in ("1", "2"):
        done = shutbox("match", "tips", "random", "-n", "20", "--seed", seed, "-q", "--history", str(place))
        assert done.returncode == 0, done.stderr
    return place


def _damaged(recorded: Path, tmp_path: Path, change: str) -> Path:
    place = tmp_path / "history.sqlite3"
    shutil.copy(recorded, place)
    with sqlite3.connect(place) as connection:
        connection.execute(change)
    connection.close()
    return place


def _read(place: Path, *args: str) -> tuple[int, str, str]:
    done = shutbox("history", *args, "--history", str(place))
    return done.returncode, done.stdout, done.stderr


FIRST = "UPDATE runs SET {} WHERE id = 1"
CHANGES = {
    "results null": (FIRST.format("results = 'null'"), SKIP, SKIP, REFUSE),
    "results cut": (FIRST.format("results = '[1,2'"), SKIP, SKIP, REFUSE),
    "started garbage": (FIRST.format("started = 'garbage'"), SKIP, SKIP, REFUSE),
    "seconds text": (FIRST.format("seconds = 'x'"), SKIP, READ, REFUSE),
    "report cut": (FIRST.format("report = '{'"), READ, READ, REFUSE),
    "elo text": ("UPDATE entrants SET elo = 'abc' WHERE run = 1", READ, SKIP, REFUSE),
}


@pytest.mark.parametrize(("change", "listing", "named", "shown"), CHANGES.values(), ids=list(CHANGES))
def test_a_damaged_run_is_skipped_with_a_warning_or_refused_in_one_sentence(
    recorded: Path, tmp_path: Path, change: str, listing: str, named: str, shown: str
) -> None:
    place = _damaged(recorded, tmp_path, change)
    for args, expected in ((["--format", "json"], listing), (["tips", "--format", "json"], named)):
        status, out, err = _read(place, *args)
        assert status == 0, err
        found = json.loads(out)
        ids = [one["id"] for one in found["run"]] if "run" in found else [one["run"] for one in found["appearance"]]
        if expected == SKIP:
            assert ids == [2], out
            assert err == "warning: run 1 of the history does not read (changed since it was recorded): skipped.\n"
        else:
            assert sorted(ids) == [1, 2] and err == "", err
    for args in (["tips"], []):  # the tables too
        status, out, err = _read(place, *args)
        assert status == 0 and "Traceback" not in err, err
    status, out, err = _read(place, "show", "1")
    assert (status, out) == (2, ""), err
    assert (
        err
        == f"shutbox: error: run 1 of the history {str(place)!r} does not read: it was changed since it was recorded.\n"
    )
    assert _read(place, "show", "2")[0] == 0


def test_a_history_whose_format_does_not_read_is_one_sentence(recorded: Path, tmp_path: Path) -> None:
    place = _damaged(recorded, tmp_path, "UPDATE shutbox_history SET format = 'x'")
    for args in ([], ["tips"], ["show", "1"]):
        status, out, err = _read(place, *args)
        assert (status, out) == (2, "")
        assert err == f"shutbox: error: the history {str(place)!r} is damaged: its format reads 'x'.\n"


def test_a_database_with_another_programs_runs_is_not_a_history(tmp_path: Path) -> None:
    place = tmp_path / "other.db"
    with sqlite3.connect(place) as connection:
        connection.execute("CREATE TABLE runs (name TEXT)")
    connection.close()
    for args in ([], ["tips"], ["show", "1"]):
        status, out, err = _read(place, *args)
        assert (status, out) == (2, "")
        assert (
            err == f"shutbox: error: {str(place)!r} is not a shutbox history: its table of runs is another program's.\n"
        )


def test_no_runs_of_a_strategy_say_its_name(recorded: Path) -> None:
    for args in (["-s", "nobody"], ["nobody"]):
        assert _read(recorded, *args) == (0, "No runs of nobody recorded.\n", "")


def test_an_sqlalchemy_url_names_the_sqlite_file(tmp_path: Path) -> None:
    done = shutbox("match", "tips", "random", "-n", "20", "-q", "--history", "sqlite:///kept.db", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["kept.db"]  # not a folder `sqlite:`
    assert [run["kind"] for run in json.loads(_read(tmp_path / "kept.db", "--format", "json")[1])["run"]] == ["match"]


@pytest.mark.parametrize("command", [["history"], ["match", "tips", "random", "-n", "20"]])
def test_a_place_no_store_keeps_is_one_sentence_its_password_unsaid(command: list[str], tmp_path: Path) -> None:
    done = shutbox(*command, "--history", "mysql://bob:s3cret@db/runs", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.count("\n") == 1 and "s3cret" not in done.stderr and "'mysql://bob:***@db/runs'" in done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://127.0.0.1:1/db?user=bob&password=s3cret",
        "postgresql://127.0.0.1:1/db?PASSWORD=s3cret&user=bob",
        "postgres://bob:s3cret@127.0.0.1:1/db",
    ],
)
def test_a_password_in_a_postgresql_url_is_never_said(url: str, tmp_path: Path) -> None:
    ran = shutbox("match", "tips", "random", "-n", "20", "-q", "--history", url, cwd=tmp_path)
    listed = shutbox("history", "--history", url)
    for done in (ran, listed):
        assert "s3cret" not in done.stderr and "***" in done.stderr, done.stderr


def test_a_password_in_the_command_line_is_not_recorded(tmp_path: Path) -> None:
    place = tmp_path / "kept.db"
    url = "postgresql://bob:s3cret@127.0.0.1:1/db?password=s3cret"
    done = shutbox("match", "tips", "random", "-n", "20", "-q", "--history", url, "--history", str(place))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    (run,) = json.loads(_read(place, "--format", "json")[1])["run"]
    assert "s3cret" not in run["command"]
    assert "postgresql://bob:***@127.0.0.1:1/db?password=***" in run["command"]
