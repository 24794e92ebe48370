"""The solo running record, one per rule set (the keys of the best scores): games played, the sum of
their results and of what the coach counted as the cost of each, and the latest results.

The file is JSON beside the best scores: `{"format": 1, "record": {"<rule key>": {"games": n,
"results": sum, "costs": {"score": sum, ...}, "recent": [...]}}}`.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from ...game import Rules
from .aims import Goal
from .best import rules_key
from .datafile import DataFile

FILE_NAME = "solo-record.json"
FORMAT = 1
RECENT = 20
"""How many of the latest results the record keeps (and the chart shows)."""


@dataclasses.dataclass(frozen=True)
class Record:
    """A rule set's record: games played, the sum of their results and costs by goal, the latest results."""

    games: int
    results: int
    costs: dict[Goal, float]
    recent: tuple[int, ...]

    @property
    def mean_result(self) -> float:
        return self.results / self.games


def _is_record_table(table: dict[str, Any]) -> bool:
    goals = {goal.name.lower() for goal in Goal}
    return all(
        isinstance(entry, dict)
        and type(entry.get("games")) is int
        and entry["games"] > 0
        and type(entry.get("results")) is int
        and isinstance(entry.get("costs"), dict)
        and all(name in goals and isinstance(cost, (int, float)) for name, cost in entry["costs"].items())
        and isinstance(entry.get("recent"), list)
        and all(type(result) is int for result in entry["recent"])
        for entry in table.values()
    )


class SoloRecord:
    """The record file: read when the table opens, written after each solo game."""

    def __init__(self, folder: Path) -> None:
        self.file = DataFile(folder / FILE_NAME, "record file", "record", FORMAT, _is_record_table)
        self.table: dict[str, Any] = {}

    @property
    def path(self) -> Path:
        return self.file.path

    def load(self) -> str | None:
        """Read the file; return a sentence if it was set aside (or left alone, unreadable)."""
        self.table, problem = self.file.read()
        return problem

    def get(self, rules: Rules) -> Record | None:
        entry = self.table.get(rules_key(rules))
        if entry is None:
            return None
        costs = {Goal[name.upper()]: float(cost) for name, cost in entry["costs"].items()}
        return Record(entry["games"], entry["results"], costs, tuple(entry["recent"]))

    def add(self, rules: Rules, result: int, costs: dict[Goal, float]) -> tuple[Record, str | None]:
        """Count a game; return the record now and any trouble saving it."""
        before = self.get(rules) or Record(0, 0, {}, ())
        summed = dict(before.costs)
        for goal, cost in costs.items():
            summed[goal] = summed.get(goal, 0.0) + cost
        record = Record(before.games + 1, before.results + result, summed, (*before.recent, result)[-RECENT:])
        self.table[rules_key(rules)] = {
            "games": record.games,
            "results": record.results,
            "costs": {goal.name.lower(): round(cost, 6) for goal, cost in summed.items()},
            "recent": list(record.recent),
        }
        reason = self.file.write(self.table)
        return record, None if reason is None else f"The record could not be saved to {self.path} ({reason})."

    def reset(self) -> str | None:
        """Forget every record; return the reason if the file could not be removed."""
        self.table = {}
        return self.file.remove()
