"""The history's stores: SQLite and PostgreSQL hold the same runs, read back alike; writers in
processes of their own at once lose nothing; a newer history is refused in one sentence."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tournaments import Options, report_table, run
from tournaments.history import History, HistoryError, open_history
from tournaments.history.stores import PostgresStore, SqliteStore

POSTGRES = Path("/usr/lib/postgresql/15/bin")
START = datetime(2026, 12, 6, 9, 30, tzinfo=UTC)


@pytest.fixture(scope="module")
def reports() -> list[dict[str, Any]]:
    """A real tournament's report and a real match's (two strategies at a table of two)."""
    tournament = report_table(run(None, Options(strategies=("optimal", "tips", "greedy-high"), games=30, seed=1)))
    from tournaments import play_match

    match = report_table(play_match(Options(strategies=("optimal", "tips"), games=40, seed=2)))
    return [tournament, match]


def fill(history: History, reports: list[dict[str, Any]]) -> list[int]:
    return [
        history.record(report, f"shutbox run {number}", START.replace(minute=number), 1.5 + number)
        for number, report in enumerate(reports)
    ]


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server of the test's own on a Unix socket in a temporary folder (as an
    unprivileged user when run as root, which postgres refuses): its URL."""
    if not (POSTGRES / "initdb").exists():
        pytest.skip(f"no PostgreSQL server to start: {POSTGRES / 'initdb'} is missing")
    pytest.importorskip("psycopg", reason="the postgres extra (psycopg) is not installed")
    folder = Path(tempfile.mkdtemp(prefix="shutbox-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            pytest.skip("postgres refuses to run as root, and runuser is missing to start it as nobody")
        shutil.chown(folder, "nobody")
        as_user = ["runuser", "-u", "nobody", "--"]
    data = folder / "data"

    def control(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*as_user, *args], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)

    made = control(
        str(POSTGRES / "initdb"), "-D", str(data), "-U", "shutbox", "--auth=trust", "--no-sync", "-E", "UTF8"
    )
    options = f"-k {folder} -c listen_addresses='' -F"
    started = (
        made.returncode == 0
        and (
            control(str(POSTGRES / "pg_ctl"), "-D", str(data), "-o", options, "-w", "-l", str(folder / "log"), "start")
        ).returncode
        == 0
    )
    try:
        if not started:
            pytest.skip(f"a PostgreSQL server could not be started: {made.stderr.strip() or 'pg_ctl failed'}")
        yield f"postgresql://shutbox@/postgres?host={folder}"
    finally:
        control(str(POSTGRES / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop")
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.slow
def test_postgresql_holds_what_sqlite_holds_read_back_alike(tmp_path: Path, reports: list[dict[str, Any]]) -> None:
    with postgres_server() as url:
        shared = open_history(url)
        assert shared is not None and isinstance(shared.store, PostgresStore)
        alone = History(SqliteStore(tmp_path / "history.sqlite3"))
        assert fill(shared, reports) == fill(alone, reports) == [1, 2]
        assert shared.runs().to_report() == alone.runs().to_report()
        assert [entry.kind for entry in shared.runs().runs] == ["match", "tournament"]
        assert shared.runs(strategy="greedy-high").to_report() == alone.runs(strategy="greedy-high").to_report()
        assert shared.runs(kind="match", limit=1).runs[0].id == 2
        assert shared.strategy("tips").to_report() == alone.strategy("tips").to_report()
        shown = shared.run(2)
        assert shown is not None and shown.report == reports[1]
        assert shown.to_report() == alone.run(2).to_report()  # type: ignore[union-attr]
        assert shared.run(3) is None
        # A parameter is a value, never SQL: a name that is SQL finds nothing and breaks nothing.
        assert shared.runs(strategy="x' OR '1'='1").runs == ()
        assert len(shared.runs().runs) == 2


def test_a_strategys_elo_is_each_sides_of_a_match(tmp_path: Path, reports: list[dict[str, Any]]) -> None:
    history = History(SqliteStore(tmp_path / "h.sqlite3"))
    fill(history, reports)
    match = reports[1]["match"]
    new = history.strategy(match["strategy"]).appearances[-1]
    old = history.strategy(match["baseline"]).appearances[-1]
    assert (new.elo, new.elo_low, new.elo_high) == (match["elo"], *match["elo_ci95"])
    assert (old.elo, old.elo_low, old.elo_high) == (-match["elo"], -match["elo_ci95"][1], -match["elo_ci95"][0])
    assert (new.opponent, old.opponent) == (match["baseline"], match["strategy"])
    tournament = history.strategy("greedy-high").appearances
    ranked = next(one for one in reports[0]["ranking"] if one["name"] == "greedy-high")
    assert [(one.kind, one.rank, one.elo) for one in tournament] == [("tournament", ranked["rank"], ranked["rating"])]
    assert tournament[0].version == f"fingerprint:{ranked['fingerprint']}"


WRITER = """
import sys
from datetime import UTC, datetime
from tournaments.history import open_history
history = open_history(sys.argv[1])
report = {report!r}
for number in range(int(sys.argv[2])):
    history.record(report, f"writer {{sys.argv[3]}} run {{number}}", datetime.now(UTC), 0.1)
"""


@pytest.mark.slow
def test_writers_in_processes_of_their_own_at_once_lose_nothing(tmp_path: Path, reports: list[dict[str, Any]]) -> None:
    place = tmp_path / "history.sqlite3"
    script = WRITER.format(report=reports[1])
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(place), "30", str(writer)], stderr=subprocess.PIPE, text=True
        )
        for writer in range(4)
    ]
    for writer in writers:
        _, err = writer.communicate(timeout=120)
        assert (writer.returncode, err) == (0, "")
    history = open_history(str(place))
    assert history is not None
    commands = sorted(entry.command for entry in history.runs().runs)
    assert commands == sorted(f"writer {writer} run {number}" for writer in range(4) for number in range(30))
    with sqlite3.connect(place) as connection:
        assert connection.execute("SELECT count(*) FROM entrants").fetchone() == (240,)


def test_a_history_of_a_newer_format_is_refused_in_one_sentence(tmp_path: Path, reports: list[dict[str, Any]]) -> None:
    place = tmp_path / "h.sqlite3"
    history = History(SqliteStore(place))
    fill(history, reports[:1])
    with sqlite3.connect(place) as connection:
        connection.execute("UPDATE shutbox_history SET format = 99")
    with pytest.raises(HistoryError, match=r"has format 99; this shutbox reads format 1 and earlier\.$"):
        history.runs()


@pytest.mark.slow  # a package installed by pip
def test_an_installed_packages_strategy_is_versioned_by_its_package_and_its_files_digest(
    tmp_path: Path, reports: list[dict[str, Any]]
) -> None:
    """As a report of a `module:Class` from an installed package gives it (pytest stands in for one)."""
    from importlib.metadata import version

    report = json.loads(json.dumps(reports[0]))
    entered = report["config"]["strategy"][2]
    entered |= {"spec": "pytest:Bot", "sha256": "ab" * 32}
    history = History(SqliteStore(tmp_path / "h.sqlite3"))
    number = history.record(report, "shutbox tournament", START, 1.0)
    shown = history.run(number)
    assert shown is not None
    entrant = shown.entrants[2]
    assert (entrant.package, entrant.version) == (
        f"pytest {version('pytest')}",
        f"pytest {version('pytest')}, sha256:abababababab",
    )
    assert [one.version.split(":")[0] for one in shown.entrants[:2]] == ["fingerprint", "fingerprint"]


def test_a_history_locked_past_its_wait_is_one_sentence_and_keeps_what_it_held(
    tmp_path: Path, reports: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tournaments.history import stores

    place = tmp_path / "h.sqlite3"
    history = History(SqliteStore(place))
    fill(history, reports[:1])
    monkeypatch.setattr(stores, "BUSY_SECONDS", 0.05)
    holder = sqlite3.connect(place, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another run's transaction, never ending
    try:
        with pytest.raises(
            HistoryError, match=rf"^cannot write to the history {re.escape(repr(str(place)))}: database is locked\.$"
        ):
            history.record(reports[1], "shutbox match", START, 1.0)
    finally:
        holder.rollback()
        holder.close()
    assert [entry.kind for entry in history.runs().runs] == ["tournament"]
