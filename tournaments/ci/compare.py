"""Two tournament reports compared: per strategy present in both, the change in win rate and in
mean score, with a 95% interval of the difference and whether it is significant.

The interval treats the two estimates as independent: the standard error of each is read from
its report's own 95% interval (half its width over z), so it keeps whatever the report allowed
for shared dice within a run; the difference's is the root of the sum of their squares. Runs
on the same seed deal the same dice, which makes their estimates positively correlated and this
interval conservative (wider than it need be). An exact report's figures have no error.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..records.checked import read_checked
from ..statistics.stats import Z95

COMPARED = ("win_rate", "mean_score")
"""The ranking figures compared, each with its interval `KEY_ci95`."""


@dataclasses.dataclass(frozen=True)
class Change:
    """One figure of one strategy in the old and the new report: the change (new - old) and its 95% interval."""

    key: str
    old: float
    new: float
    low: float
    high: float

    @property
    def change(self) -> float:
        return self.new - self.old

    @property
    def significant(self) -> bool:
        """Whether the interval of the change leaves out 0 (exact figures: whether they differ at all)."""
        return self.low > 0 or self.high < 0 or (self.low == self.high and self.change != 0)


@dataclasses.dataclass(frozen=True)
class StrategyChange:
    """A strategy found in both reports: its games in each, and its compared figures (those both report)."""

    name: str
    old_games: int
    new_games: int
    figures: Mapping[str, Change]


@dataclasses.dataclass(frozen=True)
class Comparison:
    """What changed between two reports: the strategies in both (in the new report's order), the names
    only in the new one (`added`) or only in the old one (`removed`), and one line per difference of
    rules or table size that makes the figures less comparable."""

    strategies: tuple[StrategyChange, ...]
    added: tuple[str, ...]
    removed: tuple[str, ...]
    warnings: tuple[str, ...]

    def find(self, name: str) -> StrategyChange | None:
        return next((strategy for strategy in self.strategies if strategy.name == name), None)


def read_report(path: str | Path) -> dict[str, Any]:
    """A tournament report, TOML or JSON, checked (see `read_checked`); a ConfigError of one sentence
    if it cannot be read or is not a tournament report."""
    table = read_checked(path)
    name = repr(str(path))
    _check(name, table)
    return table


def _check(name: str, table: object) -> None:
    """A tournament report has a ranking of tables, each with a name and a number of games."""
    ranking = table.get("ranking") if isinstance(table, dict) else None
    if not isinstance(ranking, list) or not all(
        isinstance(entry, dict) and isinstance(entry.get("name"), str) and _number(entry.get("games"))
        for entry in ranking
    ):
        raise ConfigError(f"{name} is not a tournament report: it has no ranking of strategies with names and games.")


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _error(entry: Mapping[str, Any], key: str) -> float:
    """The standard error of a figure, from its 95% interval (none: an exact figure, no error)."""
    interval = entry.get(f"{key}_ci95")
    if isinstance(interval, list) and len(interval) == 2 and all(map(_number, interval)):
        return float(interval[1] - interval[0]) / (2 * Z95)
    return 0.0


def _change(key: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> Change | None:
    if not (_number(old.get(key)) and _number(new.get(key))):
        return None
    difference = new[key] - old[key]
    half = Z95 * math.hypot(_error(old, key), _error(new, key))
    return Change(key, old[key], new[key], difference - half, difference + half)


def _config(report: Mapping[str, Any]) -> Mapping[str, Any]:
    config = report.get("config")
    return config if isinstance(config, dict) else {}


def _warnings(old: Mapping[str, Any], new: Mapping[str, Any]) -> tuple[str, ...]:
    lines = []
    for key, what in (("rules", "rules"), ("table", "table size"), ("method", "method")):
        before, after = _config(old).get(key), _config(new).get(key)
        if before != after:
            lines.append(f"warning: the reports differ in their {what}; their figures are compared all the same.")
    return tuple(lines)


def compare(old: Mapping[str, Any], new: Mapping[str, Any]) -> Comparison:
    """Compare two tournament reports (as `read_report` gives them): the new one's figures against the old one's."""
    before = {entry["name"]: entry for entry in old["ranking"]}
    after = {entry["name"]: entry for entry in new["ranking"]}
    strategies = []
    for name, entry in after.items():
        if name in before:
            figures = {key: found for key in COMPARED if (found := _change(key, before[name], entry)) is not None}
            strategies.append(StrategyChange(name, before[name]["games"], entry["games"], figures))
    return Comparison(
        strategies=tuple(strategies),
        added=tuple(name for name in after if name not in before),
        removed=tuple(name for name in before if name not in after),
        warnings=_warnings(old, new),
    )
