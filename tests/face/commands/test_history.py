"""`shutbox history`: the runs that real tournaments, matches and tunes recorded, read back; a
strategy's versions with its Elo; concurrent runs; a history that cannot be read or written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import pytest

from tournaments.folders import history_place, private_folders

from helpers.command import environment, shutbox

EXAMPLE = Path(__file__).parents[3] / "examples" / "cautious.py"


def history(place: Path, *args: str) -> dict:
    done = shutbox("history", *args, "--history", str(place), "--format", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.slow
def test_a_tournament_a_match_and_a_tune_are_recorded_and_read_back(tmp_path: Path) -> None:
    place = tmp_path / "history.sqlite3"
    given = ("--history", str(place), "-q")
    ran = [
        shutbox(
            "tournament", "-s", "optimal", "-s", "tips", "-n", "40", "--seed", "5", "-o", "t.toml", *given, cwd=tmp_path
        ),
        shutbox("match", "optimal", "tips", "-n", "40", "--seed", "6", "-o", "m.toml", *given, cwd=tmp_path),
        shutbox("tune", "below", "-p", "threshold=1..3", "-s", "optimal", "-o", "u.toml", *given, cwd=tmp_path),
    ]
    for done in ran:
        assert done.returncode == 0, done.stderr
        assert "warning" not in done.stderr
    runs = history(place)["run"]
    assert [run["kind"] for run in runs] == ["tune", "match", "tournament"]  # newest first
    assert [run["strategies"] for run in runs] == [["below", "optimal"], ["optimal", "tips"], ["optimal", "tips"]]
    assert [run.get("seed") for run in runs[1:]] == ["6", "5"]
    assert runs[1]["command"] == "shutbox match optimal tips -n 40 --seed 6 -o m.toml " + " ".join(given)
    match = tomllib.loads((tmp_path / "m.toml").read_text())
    assert runs[1]["results"]["match"]["elo"] == match["match"]["elo"]
    assert (
        runs[2]["results"]["ranking"][0]["name"]
        == tomllib.loads((tmp_path / "t.toml").read_text())["ranking"][0]["name"]
    )
    assert runs[0]["results"]["best"] == tomllib.loads((tmp_path / "u.toml").read_text())["best"]
    shown = history(place, "show", str(runs[1]["id"]))["run"][0]
    assert shown["report"] == match  # the whole report, as written
    assert {one["name"]: one["version"] for one in shown["entrant"]} == {
        "optimal": f"fingerprint:{match['ranking'][0]['fingerprint']}"
        if match["ranking"][0]["name"] == "optimal"
        else f"fingerprint:{match['ranking'][1]['fingerprint']}",
        "tips": next(f"fingerprint:{one['fingerprint']}" for one in match["ranking"] if one["name"] == "tips"),
    }
    assert [run["kind"] for run in history(place, "--kind", "match")["run"]] == ["match"]
    assert [run["kind"] for run in history(place, "--strategy", "tips")["run"]] == ["match", "tournament"]
    assert len(history(place, "--limit", "1")["run"]) == 1
    assert history(place, "--since", "2999-01-01")["run"] == []
    table = shutbox("history", "--history", str(place), cwd=tmp_path)
    assert table.returncode == 0 and table.stdout.splitlines()[0].split() == [
        "ID",
        "STARTED",
        "KIND",
        "STRATEGIES",
        "RESULT",
    ]
    assert all(len(line) <= 80 for line in table.stdout.splitlines())


@pytest.mark.slow
def test_a_knockout_is_recorded_each_entrant_with_its_last_tie_from_its_side(tmp_path: Path) -> None:
    place = tmp_path / "history.sqlite3"
    field = ("-s", "optimal", "-s", "tips", "-s", "random", "-s", "greedy-high")  # tips v random is played
    done = shutbox(
        "tournament", "--system", "knockout", *field, "-n", "400", "--seed", "3", "-o", "cup.toml", "-q",
        "--history", str(place), cwd=tmp_path,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "Report written to cup.toml.\n")
    report = tomllib.loads((tmp_path / "cup.toml").read_text())
    (exact, played), (final,) = (one["tie"] for one in report["round"])
    runs = history(place, "--kind", "knockout")["run"]
    assert [(run["kind"], run["seed"], run["strategies"]) for run in runs] == [
        ("knockout", "3", ["optimal", "tips", "random", "greedy-high"])  # in seed order
    ]
    assert runs[0]["results"] == {"winner": "optimal", "games": 400}
    assert runs[0]["settings"]["seeding"] == "order" and "strategy" not in runs[0]["settings"]
    assert history(place, "show", str(runs[0]["id"]))["run"][0]["report"] == report
    seen = {name: history(place, name)["appearance"] for name in ("optimal", "tips", "random", "greedy-high")}
    assert {name: [(one["kind"], one["opponent"], one["rank"]) for one in runs] for name, runs in seen.items()} == {
        "optimal": [("knockout", "tips", 1)],  # the final it won
        "tips": [("knockout", "optimal", 2)],  # the final it lost
        "random": [("knockout", "tips", 3)],
        "greedy-high": [("knockout", "optimal", 3)],
    }
    assert seen["optimal"][0]["elo"] == final["exact_elo"] == -seen["tips"][0]["elo"]
    assert "elo_low" not in seen["tips"][0]  # computed exactly: no interval
    assert seen["greedy-high"][0]["elo"] == -exact["exact_elo"]
    low, high = played["elo_ci95"]
    assert [seen["random"][0][key] for key in ("elo", "elo_low", "elo_high")] == [-played["elo"], -high, -low]
    assert "games" not in seen["random"][0]  # a match's games: the knockout's are in its results
    listed = shutbox("history", "--history", str(place), cwd=tmp_path).stdout.splitlines()
    assert listed[1].split()[3:] == ["knockout", "optimal,", "tips,", "random,", "greedy-high", "optimal", "won"]
    page = shutbox("history", "tips", "--history", str(place), cwd=tmp_path).stdout.splitlines()
    assert page[2].split()[-4:] == ["optimal", "-11.3", "rank", "2"]
    assert all(len(line) <= 80 for line in listed + page)


@pytest.mark.slow
def test_two_versions_of_a_users_file_show_as_two_versions_with_their_elo(tmp_path: Path) -> None:
    place = tmp_path / "history.sqlite3"
    bot = tmp_path / "bot.py"
    for margin in (6, 2):  # the file edited between the runs: another version
        bot.write_text(EXAMPLE.read_text().replace("margin: int = 6", f"margin: int = {margin}"))
        done = shutbox(
            "match", "bot.py:Cautious", "tips", "-n", "40", "--seed", "1", "-q", "--history", str(place), cwd=tmp_path
        )
        assert done.returncode == 0, done.stderr
    found = history(place, "cautious")
    assert [version["runs"] for version in found["version"]] == [1, 1]
    assert len({version["version"] for version in found["version"]}) == 2
    assert all(version["version"].startswith("sha256:") for version in found["version"])
    assert [run["opponent"] for run in found["appearance"]] == ["tips", "tips"]
    assert all("elo" in run and run["elo_low"] <= run["elo"] <= run["elo_high"] for run in found["appearance"])
    tips = history(place, "tips")["appearance"]
    assert [run["elo"] for run in tips] == [-run["elo"] for run in found["appearance"]]  # the other side's
    drawn = shutbox("history", "cautious", "--history", str(place), "--plot", "elo.png", cwd=tmp_path)
    assert drawn.returncode == 0, drawn.stderr
    lines = drawn.stdout.splitlines()
    assert lines[0] == "cautious: 2 runs, 2 versions" and all(len(line) <= 80 for line in lines)
    assert [line.split()[0] for line in lines[2:4]] == [one["version"] for one in found["version"]]
    assert (tmp_path / "elo.png").read_bytes().startswith(b"\x89PNG")


@pytest.mark.slow
def test_concurrent_runs_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    """Real processes, each its own run, all recording into one file."""
    place = tmp_path / "history.sqlite3"
    runs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "shutbox_cli",
                "tournament",
                "-s",
                "optimal",
                "-s",
                "tips",
                "-n",
                "20",
                "--seed",
                str(seed),
                "-q",
                "--history",
                str(place),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment(),
            cwd=tmp_path,
        )
        for seed in range(4)
    ]
    for run in runs:
        _, err = run.communicate(timeout=120)
        assert (run.returncode, err) == (0, ""), err
    assert sorted(run["seed"] for run in history(place, "--limit", "0")["run"]) == ["0", "1", "2", "3"]


@pytest.mark.slow
def test_a_corrupt_history_is_one_sentence_to_read_and_one_warning_to_write(tmp_path: Path) -> None:
    place = tmp_path / "history.sqlite3"
    place.write_bytes(b"this is not a database, only text written over one " * 100)
    read = shutbox("history", "--history", str(place))
    assert read.returncode == 2
    assert read.stderr == f"shutbox: error: cannot read the history {str(place)!r}: file is not a database.\n"
    ran = shutbox("tournament", "-s", "optimal", "-s", "tips", "-n", "4", "--seed", "1", "-q", "--history", str(place))
    assert ran.returncode == 0
    assert ran.stderr == (
        f"warning: the run is not recorded in the history: cannot write to the history {str(place)!r}: "
        "file is not a database.\n"
    )


def test_an_unwritable_history_is_one_warning_and_the_run_ends_as_it_would(tmp_path: Path) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("")
    place = blocked / "history.sqlite3"  # under a file: no folder can be made there, even by root
    ran = shutbox("match", "optimal", "tips", "-n", "4", "--seed", "1", "-q", "--history", str(place))
    assert ran.returncode == 0
    assert ran.stderr.startswith("warning: the run is not recorded in the history: cannot write to the history")
    assert len(ran.stderr.splitlines()) == 1


def test_a_history_turned_off_records_nothing_and_cannot_be_listed(tmp_path: Path) -> None:
    ran = shutbox(
        "tournament", "-s", "optimal", "-s", "tips", "-n", "4", "--seed", "1", "-q", "--history", "off", cwd=tmp_path
    )
    assert (ran.returncode, ran.stderr) == (0, "")
    assert list(tmp_path.iterdir()) == []
    listed = shutbox("history", "--history", "off")
    assert listed.returncode == 2
    assert (
        listed.stderr
        == "shutbox: error: the history is off (--history or $SHUTBOX_HISTORY says off): no runs are recorded.\n"
    )


def test_a_history_not_made_yet_holds_no_runs(tmp_path: Path) -> None:
    place = tmp_path / "none.sqlite3"
    assert history(place)["run"] == []
    assert history(place, "optimal") == {
        **history(place, "optimal"),
        "strategy": "optimal",
        "version": [],
        "appearance": [],
    }
    assert not place.exists()  # reading makes nothing
    shown = shutbox("history", "show", "3", "--history", str(place))
    assert shown.returncode == 2 and "holds no run 3" in shown.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--kind", "duel"], "--kind is tournament, knockout, match or tune, not 'duel'."),
        (
            ["--since", "yesterday"],
            "--since takes a date or time such as 2026-12-01 or 2026-12-01T09:30, not 'yesterday'.",
        ),
        (["show"], "`history show` takes the ID of a run (`shutbox history` lists them)."),
        (["show", "x"], "a run's ID is a whole number (`shutbox history` lists them), not 'x'."),
        (["optimal", "3"], "`history optimal` takes no more arguments; `history show ID` shows a run."),
        (["--plot", "a.png"], "--plot draws a strategy's Elo over its versions: give its NAME."),
    ],
)
def test_bad_input_is_one_sentence_and_status_2(args: list[str], said: str, tmp_path: Path) -> None:
    done = shutbox("history", *args, "--history", str(tmp_path / "h.sqlite3"))
    assert (done.returncode, done.stderr) == (2, f"shutbox: error: {said}\n")


def test_no_test_writes_the_users_own_history() -> None:
    """The suite records in a history of its own (tests/conftest.py), in a folder no host may read."""
    place = history_place()
    assert isinstance(place, Path)
    assert place.resolve().is_relative_to(Path(tempfile.gettempdir()).resolve())
    assert not place.resolve().is_relative_to(Path.home().resolve())
    assert place.parent.resolve() in private_folders()
    assert os.environ["SHUTBOX_HISTORY"] == str(place)


def test_by_default_the_history_is_kept_in_the_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("SHUTBOX_HISTORY")
    monkeypatch.setenv("SHUTBOX_DATA_DIR", str(tmp_path))
    assert history_place() == tmp_path / "history.sqlite3"
    assert tmp_path.resolve() in private_folders()
    monkeypatch.setenv("SHUTBOX_HISTORY", "postgresql://team@db.example/shutbox")
    assert history_place() == "postgresql://team@db.example/shutbox"


@pytest.mark.slow  # psycopg's import and its tries
def test_a_postgresql_server_that_does_not_answer_is_one_warning_its_password_unsaid(tmp_path: Path) -> None:
    pytest.importorskip("psycopg", reason="the postgres extra (psycopg) is not installed")
    url = f"postgresql://team:s3cret@/shutbox?host={tmp_path / 'no server here'}"
    ran = shutbox("match", "optimal", "tips", "-n", "4", "--seed", "1", "-q", "--history", url)
    assert ran.returncode == 0
    assert ran.stderr.startswith(
        "warning: the run is not recorded in the history: cannot write to the history "
        f"'postgresql://team:***@/shutbox?host={tmp_path / 'no server here'}': "
    )
    assert len(ran.stderr.splitlines()) == 1 and "s3cret" not in ran.stderr
    read = shutbox("history", "--history", url)
    assert read.returncode == 2 and read.stderr.startswith(
        "shutbox: error: cannot read the history 'postgresql://team:***@"
    )
