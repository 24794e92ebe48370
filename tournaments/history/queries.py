"""What `shutbox history` reads: the runs, newest first and filtered; one run whole; and one
strategy's runs across its versions, with its Elo in each."""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime
from typing import Any

from .schema import ENTRANT_COLUMNS, RUN_COLUMNS, Dialect


class DamagedRow(ValueError):
    """A row of the history that does not read as shutbox writes it (changed by hand, or by another
    program): its run is skipped in a list, refused when shown."""


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
        _text(kind),
        _text(command),
        _when(started),
        _number(seconds),
        _text(version),
        None if seed is None else _text(seed),
        _table(rules),
        _table(settings),
        _table(results),
        tuple(names),
    )


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise DamagedRow(f"{value!r} is not text")
    return value


def _when(value: Any) -> str:
    try:
        datetime.fromisoformat(_text(value))
    except ValueError:
        raise DamagedRow(f"{value!r} is not a time") from None
    return str(value)


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise DamagedRow(f"{value!r} is not a number")
    return float(value)


def _optional(value: Any) -> float | None:
    return None if value is None else _number(value)


def _table(value: Any) -> dict[str, Any]:
    try:
        found = json.loads(_text(value))
    except ValueError:
        raise DamagedRow(f"{value!r} is not JSON") from None
    if not isinstance(found, dict):
        raise DamagedRow(f"{value!r} is not a table")
    return found


def checked_entrant(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """One strategy's row of a run (`select_entrants`), its numbers checked."""
    place, name, spec, version, fingerprint, sha256, package, opponent, rank, elo, low, high = row
    texts = [_text(one) for one in (name, spec, version)]
    others = [None if one is None else _text(one) for one in (fingerprint, sha256, package, opponent)]
    return (int(_number(place)), *texts, *others, _whole(rank), _optional(elo), _optional(low), _optional(high))


def _whole(value: Any) -> int | None:
    number = _optional(value)
    if number is not None and not number.is_integer():
        raise DamagedRow(f"{value!r} is not a whole number")
    return None if number is None else int(number)


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
    found = _table(results)
    games = found.get("games") if kind == "match" else None  # a knockout's are over all its ties
    match = found.get("match", {})
    sprt = match.get("sprt", {}) if isinstance(match, dict) else None
    verdict = sprt.get("verdict") if isinstance(sprt, dict) else None
    return Appearance(
        int(number),
        _text(kind),
        _when(started),
        _text(name),
        _text(spec),
        _text(version),
        None if opponent is None else _text(opponent),
        _whole(rank),
        _optional(elo),
        _optional(low),
        _optional(high),
        _whole(games),
        None if verdict is None else _text(verdict),
    )
