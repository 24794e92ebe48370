"""The history's tables, written once for SQLite and PostgreSQL: the one place the two dialects
differ (a run's id, the placeholder of a parameter). Values are always passed as parameters,
never formatted into SQL."""

from __future__ import annotations

import dataclasses

SCHEMA = 1
"""The history's format: raised whenever a column changes meaning or goes away."""


@dataclasses.dataclass(frozen=True)
class Dialect:
    """What one database's SQL spells its own way."""

    name: str
    placeholder: str
    """How a parameter is marked in a statement: `?` (sqlite3) or `%s` (psycopg)."""
    run_id: str
    """The column type of a run's id, numbered by the database."""
    made: str
    """The query that finds the history's first table, if it has been made."""

    def table(self, name: str) -> str:
        """The query that finds the table `name`, if there is one."""
        if self.name == "sqlite":
            return f"SELECT name FROM sqlite_master WHERE type = 'table' AND name = '{name}'"
        return f"SELECT to_regclass('{name}') WHERE to_regclass('{name}') IS NOT NULL"

    def sql(self, statement: str) -> str:
        """`statement`, written with `?` for each parameter, in this dialect."""
        return statement.replace("?", self.placeholder)

    def tables(self) -> list[str]:
        """The statements that make the history's tables where they are missing."""
        return [
            "CREATE TABLE IF NOT EXISTS shutbox_history (format INTEGER NOT NULL)",
            f"""CREATE TABLE IF NOT EXISTS runs (
                id {self.run_id},
                kind TEXT NOT NULL,
                command TEXT NOT NULL,
                started TEXT NOT NULL,
                seconds DOUBLE PRECISION NOT NULL,
                shutbox_version TEXT NOT NULL,
                seed TEXT,
                rules TEXT NOT NULL,
                settings TEXT NOT NULL,
                results TEXT NOT NULL,
                report TEXT NOT NULL
            )""",
            """CREATE TABLE IF NOT EXISTS entrants (
                run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
                place INTEGER NOT NULL,
                name TEXT NOT NULL,
                spec TEXT NOT NULL,
                version TEXT NOT NULL,
                fingerprint TEXT,
                sha256 TEXT,
                package TEXT,
                opponent TEXT,
                rank INTEGER,
                elo DOUBLE PRECISION,
                elo_low DOUBLE PRECISION,
                elo_high DOUBLE PRECISION,
                PRIMARY KEY (run, place)
            )""",
            "CREATE INDEX IF NOT EXISTS entrants_by_name ON entrants (name)",
            "CREATE INDEX IF NOT EXISTS runs_by_start ON runs (started)",
        ]


SQLITE = Dialect(
    "sqlite",
    "?",
    "INTEGER PRIMARY KEY AUTOINCREMENT",
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'shutbox_history'",
)
POSTGRESQL = Dialect(
    "postgresql",
    "%s",
    "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
    "SELECT to_regclass('shutbox_history') WHERE to_regclass('shutbox_history') IS NOT NULL",
)

RUN_COLUMNS = ("kind", "command", "started", "seconds", "shutbox_version", "seed", "rules", "settings", "results")
"""A run's columns as listed (its id first, its whole report apart)."""
ENTRANT_COLUMNS = (
    "place",
    "name",
    "spec",
    "version",
    "fingerprint",
    "sha256",
    "package",
    "opponent",
    "rank",
    "elo",
    "elo_low",
    "elo_high",
)
"""A strategy's columns in a run, in order (its run apart)."""
