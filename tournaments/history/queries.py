"""What `shutbox history` reads: the runs, newest first and filtered; one run whole; and one
strategy's runs across its versions, with its Elo in each."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from .schema import ENTRANT_COLUMNS, RUN_COLUMNS, Dialect


@dataclasses.dataclass(frozen=True)
class RunEntry:
    """A run as the list of runs shows it."""

    id: int
    kind: str
    command: str
    started: str
    seconds: float
    shutbox_version: str
    seed: str | None
    rules: dict[str, Any]
    settings: dict[str, Any]
    results: dict[str, Any]
    strategies: tuple[str, ...]

    def to_table(self) -> dict[str, Any]:
        """The run as a history document lists it (docs/report.md)."""
        table = {key: value for key, value in dataclasses.asdict(self).items() if value is not None}
        table["strategies"] = list(self.strategies)
        return table


@dataclasses.dataclass(frozen=True)
class Appearance:
    """One run a strategy took part in, under one of its versions."""

    run: int
    kind: str
    started: str
    name: str
    spec: str
    version: str
    opponent: str | None
    rank: int | None
    elo: float | None
    elo_low: float | None
    elo_high: float | None
    games: int | None
    verdict: str | None

    def to_table(self) -> dict[str, Any]:
        return {key: value for key, value in dataclasses.asdict(self).items() if value is not None}


def select_runs(
    dialect: Dialect, strategy: str | None, kind: str | None, since: str | None, limit: int | None
) -> tuple[str, list[Any]]:
    """The statement listing runs, newest first, and its parameters."""
    where: list[str] = []
    values: list[Any] = []
    if strategy is not None:
        where.append("id IN (SELECT run FROM entrants WHERE name = ? OR spec = ?)")
        values += [strategy, strategy]
    if kind is not None:
        where.append("kind = ?")
        values.append(kind)
    if since is not None:
        where.append("started >= ?")
        values.append(since)
    statement = f"SELECT id, {', '.join(RUN_COLUMNS)} FROM runs"
    if where:
        statement += " WHERE " + " AND ".join(where)
    statement += " ORDER BY started DESC, id DESC"
    if limit is not None:
        statement += " LIMIT ?"
        values.append(limit)
    return dialect.sql(statement), values


def run_entry(row: tuple[Any, ...], names: list[str]) -> RunEntry:
    """A listed run from its row (its id, then `RUN_COLUMNS`) and its strategies' names."""
    number, kind, command, started, seconds, version, seed, rules, settings, results = row
    return RunEntry(
        int(number),
        kind,
        command,
        started,
        float(seconds),
        version,
        seed,
        json.loads(rules),
        json.loads(settings),
        json.loads(results),
        tuple(names),
    )


def select_names(dialect: Dialect, runs: list[int]) -> tuple[str, list[Any]]:
    """The statement giving each of `runs`' strategies' names, in the order entered."""
    marks = ", ".join("?" for _ in runs)
    return dialect.sql(f"SELECT run, name FROM entrants WHERE run IN ({marks}) ORDER BY run, place"), list(runs)


def select_entrants(dialect: Dialect) -> str:
    """The statement giving one run's strategies, in the order entered."""
    return dialect.sql(f"SELECT {', '.join(ENTRANT_COLUMNS)} FROM entrants WHERE run = ? ORDER BY place")


def select_appearances(dialect: Dialect) -> str:
    """The statement giving every run of a strategy (by its name or spec), oldest first."""
    return dialect.sql(
        "SELECT runs.id, runs.kind, runs.started, entrants.name, entrants.spec, entrants.version, "
        "entrants.opponent, entrants.rank, entrants.elo, entrants.elo_low, entrants.elo_high, runs.results "
        "FROM entrants JOIN runs ON runs.id = entrants.run WHERE entrants.name = ? OR entrants.spec = ? "
        "ORDER BY runs.started, runs.id, entrants.place"
    )


def appearance(row: tuple[Any, ...]) -> Appearance:
    """A strategy's run from its row (`select_appearances`)."""
    number, kind, started, name, spec, version, opponent, rank, elo, low, high, results = row
    found = json.loads(results)
    games = found.get("games") if kind == "match" else None  # a knockout's are over all its ties
    return Appearance(
        int(number),
        kind,
        started,
        name,
        spec,
        version,
        opponent,
        rank,
        elo,
        low,
        high,
        None if games is None else int(games),
        found.get("match", {}).get("sprt", {}).get("verdict"),
    )
