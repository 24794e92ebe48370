"""A history of every run: each tournament, match and tune recorded when it finishes (what ran,
its strategies' versions, its results, when and how long), in an SQLite file in the user's data
folder or a PostgreSQL database a team shares (docs/history.md).

    history = open_history()            # where $SHUTBOX_HISTORY says: None when it is off
    history.record(report, command="shutbox match ...", started=start, seconds=12.5)
    history.runs(strategy="cautious", kind="match", limit=20)
    history.strategy("cautious")        # its runs across its versions, with its Elo in each

Reading or writing a history that cannot be (locked past its wait, unwritable, not a history)
raises a `HistoryError`: one sentence naming it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from ..folders import PlaceError, history_place
from ..records.schema import header
from .queries import (
    Appearance,
    DamagedRow,
    RunEntry,
    appearance,
    checked_entrant,
    run_entry,
    select_appearances,
    select_entrants,
    select_names,
    select_runs,
)
from .recording import Entrant, record_of
from .schema import ENTRANT_COLUMNS, RUN_COLUMNS
from .stores import HistoryError, Store, open_store

T = TypeVar("T")

__all__ = [
    "Appearance",
    "Entrant",
    "History",
    "HistoryError",
    "RunEntry",
    "RunList",
    "RunShown",
    "StrategyHistory",
    "open_history",
]


@dataclasses.dataclass(frozen=True)
class RunList:
    """Runs, newest first (`shutbox history`)."""

    runs: tuple[RunEntry, ...]
    skipped: tuple[int, ...] = ()
    """The runs whose rows do not read (changed by hand or by another program), left out."""

    def to_report(self) -> dict[str, Any]:
        return {**header("history"), "run": [entry.to_table() for entry in self.runs]}


@dataclasses.dataclass(frozen=True)
class StrategyHistory:
    """A strategy's runs, oldest first, and its versions in the order they first ran
    (`shutbox history NAME`)."""

    name: str
    appearances: tuple[Appearance, ...]
    skipped: tuple[int, ...] = ()
    """The runs whose rows do not read, left out."""

    @property
    def versions(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(seen.version for seen in self.appearances))

    def to_report(self) -> dict[str, Any]:
        versions = []
        for version in self.versions:
            runs = [seen for seen in self.appearances if seen.version == version]
            versions.append(
                {"version": version, "first_run": runs[0].run, "first_started": runs[0].started, "runs": len(runs)}
            )
        return {
            **header("history"),
            "strategy": self.name,
            "version": versions,
            "appearance": [seen.to_table() for seen in self.appearances],
        }


@dataclasses.dataclass(frozen=True)
class RunShown:
    """One run whole: its columns, its strategies and its report (`shutbox history show ID`)."""

    entry: RunEntry
    entrants: tuple[Entrant, ...]
    report: dict[str, Any]

    def to_report(self) -> dict[str, Any]:
        entrants = [
            {key: value for key, value in dataclasses.asdict(one).items() if value is not None} for one in self.entrants
        ]
        run = {**self.entry.to_table(), "entrant": entrants, "report": self.report}
        return {**header("history"), "run": [run]}


class History:
    """A history of runs in a store (an SQLite file or a PostgreSQL database)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def where(self) -> str:
        """The history as a message names it."""
        return self.store.where()

    def record(self, report: Mapping[str, Any], command: str, started: datetime, seconds: float) -> int:
        """Keep a finished run by its report (a tournament's, a knockout's, a match's or a tune's), in one
        transaction: its id."""
        record = record_of(report, command, started.astimezone(UTC).isoformat(timespec="seconds"), seconds)
        dialect = self.store.dialect
        values = [getattr(record, column) for column in RUN_COLUMNS]
        marks = ", ".join("?" for _ in (*RUN_COLUMNS, "report"))
        with self.store.transaction(writing=True) as cursor:
            cursor.execute(
                dialect.sql(f"INSERT INTO runs ({', '.join(RUN_COLUMNS)}, report) VALUES ({marks}) RETURNING id"),
                (*values, record.report),
            )
            number = int(cursor.fetchone()[0])
            marks = ", ".join("?" for _ in ("run", *ENTRANT_COLUMNS))
            cursor.executemany(
                dialect.sql(f"INSERT INTO entrants (run, {', '.join(ENTRANT_COLUMNS)}) VALUES ({marks})"),
                [(number, *entrant.row()) for entrant in record.entrants],
            )
        return number

    def runs(
        self,
        strategy: str | None = None,
        kind: str | None = None,
        since: datetime | None = None,
        limit: int | None = None,
    ) -> RunList:
        """The runs, newest first: those of a strategy (by its name or spec), of a kind, started at
        `since` or later, the latest `limit`."""
        after = None if since is None else since.astimezone(UTC).isoformat(timespec="seconds")
        statement, values = select_runs(self.store.dialect, strategy, kind, after, limit)
        if not self.store.exists():
            return RunList(())
        with self.store.transaction(writing=False) as cursor:
            if not self.store.check_format(cursor):
                return RunList(())
            cursor.execute(statement, values)
            rows = cursor.fetchall()
            names: dict[int, list[str]] = {}
            if rows:
                cursor.execute(*select_names(self.store.dialect, [int(row[0]) for row in rows]))
                for number, name in cursor.fetchall():
                    names.setdefault(int(number), []).append(name)
        entries, skipped = _read(rows, lambda row: run_entry(row, names.get(int(row[0]), [])))
        return RunList(entries, skipped)

    def run(self, number: int) -> RunShown | None:
        """One run whole, None if the history holds no run of that id."""
        if not self.store.exists():
            return None
        dialect = self.store.dialect
        with self.store.transaction(writing=False) as cursor:
            if not self.store.check_format(cursor):
                return None
            cursor.execute(
                dialect.sql(f"SELECT id, {', '.join(RUN_COLUMNS)}, report FROM runs WHERE id = ?"), (number,)
            )
            row = cursor.fetchone()
            if row is None:
                return None
            cursor.execute(select_entrants(dialect), (number,))
            found = cursor.fetchall()
        *columns, report = row
        try:
            entrants = tuple(Entrant(*checked_entrant(one)) for one in found)
            entry = run_entry(tuple(columns), [one.name for one in entrants])
            whole = json.loads(report)
            if not isinstance(whole, dict):
                raise DamagedRow("its report is not a table")
        except (DamagedRow, TypeError, ValueError):
            raise HistoryError(
                f"run {number} of the history {self.where()} does not read: it was changed since it was recorded."
            ) from None
        return RunShown(entry, entrants, whole)

    def strategy(self, name: str) -> StrategyHistory:
        """A strategy's runs (by its name or spec), oldest first, under each of its versions."""
        if not self.store.exists():
            return StrategyHistory(name, ())
        with self.store.transaction(writing=False) as cursor:
            if not self.store.check_format(cursor):
                return StrategyHistory(name, ())
            cursor.execute(select_appearances(self.store.dialect), (name, name))
            rows = cursor.fetchall()
        appearances, skipped = _read(rows, appearance)
        return StrategyHistory(name, appearances, skipped)


def _read(rows: list[Any], reading: Callable[[Any], T]) -> tuple[tuple[T, ...], tuple[int, ...]]:
    """Each row read, and the ids of the runs (a row's first column) whose rows do not read."""
    found: list[T] = []
    skipped: list[int] = []
    for row in rows:
        try:
            found.append(reading(row))
        except (DamagedRow, TypeError, ValueError):
            skipped.append(int(row[0]))
    return tuple(found), tuple(dict.fromkeys(skipped))


def open_history(setting: str | Path | None = None) -> History | None:
    """The history `setting` names (else $SHUTBOX_HISTORY; by default `history.sqlite3` in the
    data folder): an SQLite file, a `postgresql://` URL, or None when it is `off`."""
    try:
        place = history_place(None if setting is None else str(setting))
    except PlaceError as error:
        raise HistoryError(str(error)) from None
    return None if place is None else History(open_store(place))
