"""Where a history is kept, behind one interface: an SQLite file (the default, one per user) or a
PostgreSQL database a team shares (`postgresql://` URL; `pip install ".[postgres]"`). Both hold
the same tables (`schema`); a store gives connections and says its errors in one sentence.

Each run is written in one transaction, so concurrent runs lose nothing: SQLite in WAL mode, each
writer waiting its turn (`BUSY_SECONDS`) for the write lock it takes first; PostgreSQL writers
queue on an advisory lock."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..folders import masked
from .schema import POSTGRESQL, SCHEMA, SQLITE, Dialect

BUSY_SECONDS = 5.0
"""How long a writer waits for another's transaction to end before giving up (one warning): a run's
transaction lasts milliseconds, so a few seconds is plenty; the wait comes after the run's results
are shown, and Ctrl-C stops it at once."""
BUSY_STEP = 0.05
"""How often a waiting writer tries again (SQLite's own wait would hold Ctrl-C back to its end)."""
CONNECT_SECONDS = 10
"""How long a PostgreSQL server is waited for."""
LOCK = 0x5348_5554
"""The advisory lock PostgreSQL writers queue on ("SHUT")."""


class HistoryError(ConfigError):
    """The history cannot be read or written: one sentence naming it and why."""


class Store(ABC):
    """A database that holds a history: how to connect, and its dialect."""

    dialect: Dialect

    @abstractmethod
    def where(self) -> str:
        """The history as a message names it (a file, or a URL without its password)."""

    @abstractmethod
    def exists(self) -> bool:
        """Whether there may be anything to read (a file not made yet holds no runs)."""

    @abstractmethod
    def connect(self, writing: bool) -> Any:
        """A DB-API connection, in a transaction that may write when `writing`."""

    @abstractmethod
    def errors(self) -> tuple[type[BaseException], ...]:
        """What the database's driver raises."""

    @contextlib.contextmanager
    def transaction(self, writing: bool) -> Iterator[Any]:
        """A cursor in one transaction, committed when the block ends; any failure of the
        database is a HistoryError (the transaction rolled back)."""
        verb = "write to" if writing else "read"
        failing: tuple[type[BaseException], ...] = (*self.errors(), OSError)
        try:
            connection = self.connect(writing)
        except failing as error:
            raise HistoryError(f"cannot {verb} the history {self.where()}: {_reason(error)}.") from None
        try:
            cursor = connection.cursor()
            if writing:
                self._made(cursor)
            yield cursor
            connection.commit()
        except self.errors() as error:
            with contextlib.suppress(*self.errors()):
                connection.rollback()
            raise HistoryError(f"cannot {verb} the history {self.where()}: {_reason(error)}.") from None
        finally:
            with contextlib.suppress(*self.errors()):
                connection.close()

    def _made(self, cursor: Any) -> None:
        """The tables, made where missing, and the history's format recorded once."""
        for statement in self.dialect.tables():
            cursor.execute(statement)
        cursor.execute("SELECT format FROM shutbox_history")
        if cursor.fetchone() is None:
            cursor.execute(self.dialect.sql("INSERT INTO shutbox_history (format) VALUES (?)"), (SCHEMA,))

    def check_format(self, cursor: Any) -> bool:
        """Whether the history holds runs to read (False: no tables yet); refused in one sentence
        when its format is newer than this shutbox reads."""
        cursor.execute(self.dialect.made)
        if cursor.fetchone() is None:
            cursor.execute(self.dialect.table("runs"))
            if cursor.fetchone() is not None:
                raise HistoryError(f"{self.where()} is not a shutbox history: its table of runs is another program's.")
            return False
        cursor.execute("SELECT format FROM shutbox_history")
        row = cursor.fetchone()
        try:
            newer = row is not None and int(row[0]) > SCHEMA
        except (TypeError, ValueError):
            raise HistoryError(f"the history {self.where()} is damaged: its format reads {row[0]!r}.") from None
        if newer:
            raise HistoryError(
                f"the history {self.where()} has format {row[0]}; this shutbox reads format {SCHEMA} and earlier."
            )
        return True


class SqliteStore(Store):
    """A history in one SQLite file, its folder made (readable by its owner alone) on first write."""

    dialect = SQLITE

    def __init__(self, path: Path) -> None:
        self.path = path

    def where(self) -> str:
        return repr(str(self.path))

    def exists(self) -> bool:
        return self.path.exists()

    def errors(self) -> tuple[type[BaseException], ...]:
        return (sqlite3.Error,)

    def connect(self, writing: bool) -> Any:
        if writing:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        deadline = time.monotonic() + BUSY_SECONDS
        while True:
            try:
                return self._begun(writing)
            except sqlite3.OperationalError as error:
                if not _busy(error) or time.monotonic() >= deadline:
                    raise
            time.sleep(BUSY_STEP)  # Ctrl-C stops the wait here

    def _begun(self, writing: bool) -> Any:
        """A connection in its transaction, or the database's error at once if another holds it."""
        connection = sqlite3.connect(self.path, timeout=BUSY_STEP, isolation_level=None)
        try:
            if writing:
                connection.execute("PRAGMA journal_mode=WAL")
                connection.execute("PRAGMA synchronous=NORMAL")  # in WAL: safe from a crash, not a power cut
                connection.execute("BEGIN IMMEDIATE")  # the write lock first: no deadlock upgrading a read
            else:
                connection.execute("BEGIN")
        except sqlite3.Error:
            connection.close()
            raise
        return connection


class PostgresStore(Store):
    """A history in a PostgreSQL database, by its URL (psycopg 3)."""

    dialect = POSTGRESQL

    def __init__(self, url: str) -> None:
        self.url = url

    def where(self) -> str:
        return repr(masked(self.url))

    def exists(self) -> bool:
        return True

    def errors(self) -> tuple[type[BaseException], ...]:
        try:
            import psycopg
        except ImportError:  # nothing it raises: `connect` says how to install it
            return ()
        return (psycopg.Error,)

    def connect(self, writing: bool) -> Any:
        try:
            import psycopg
        except ImportError:
            raise HistoryError(
                f"the history {self.where()} is kept in PostgreSQL, which shutbox reaches with its postgres extra: "
                'pip install ".[postgres]" in shutbox\'s checkout.'
            ) from None
        connection = psycopg.connect(self.url, connect_timeout=CONNECT_SECONDS)
        if writing:
            connection.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK,))
        return connection


def open_store(place: Path | str) -> Store:
    """The store of a history: a URL names a PostgreSQL database, anything else an SQLite file."""
    return PostgresStore(place) if isinstance(place, str) else SqliteStore(place)


def _busy(error: sqlite3.OperationalError) -> bool:
    """Whether another connection holds the database."""
    return "locked" in str(error) or "busy" in str(error)


def _reason(error: BaseException) -> str:
    """Why a database failed, in a few words (a driver's message can run over lines)."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    text = " ".join(masked(str(error)).split()) or type(error).__name__
    return text.rstrip(".")
