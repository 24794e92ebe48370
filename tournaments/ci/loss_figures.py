"""An explanation's figures (`shutbox plot`, `explain --plot`): where its loss lies, read from the
report's rows (docs/report.md), so that a drawing holds the report's numbers: each row's loss (reach
* cost) added up by the open total of its box and by the tiles left open in it. No drawing library
is used here."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from shutbox_cli.game import Rules

from ..records.schema import rules_mapping
from .panels import Figures, LossBars


def explanation_figures(table: Mapping[str, Any]) -> Figures:
    """The figures of an explanation report's table (`kind = "explanation"`); a KeyError, TypeError
    or ValueError where its figures are missing or malformed."""
    rows: Sequence[Mapping[str, Any]] = table["rows"]
    boxes = [_tiles(row["box"]) for row in rows]
    losses = [_number(row["reach"]) * _number(row["cost"]) for row in rows]
    unit = "points" if "score" in str(table["measure"]) else "chance"
    sampled = table.get("method") == "sampled"
    seed = table.get("seed")
    return Figures(
        kind="explanation",
        subject=str(table["strategy"]) + _against(table.get("opponents")),
        rules=Rules.from_mapping(rules_mapping(table["rules"])),
        method="sampled" if sampled else "exact",
        seed=seed if sampled and isinstance(seed, int) and not isinstance(seed, bool) else None,
        size=f"{int(table['games']):,} games" if sampled else "exact",
        panels=(
            _bars("open total", [sum(box) for box in boxes], losses, unit),
            _bars("tiles left", [len(box) for box in boxes], losses, unit),
        ),
    )


def _against(opponents: object) -> str:
    """` against B, C` where the explanation names its rivals (nothing alone)."""
    if not opponents:
        return ""
    if not isinstance(opponents, list):
        raise ValueError(opponents)
    return " against " + ", ".join(map(str, opponents))


def _bars(by: str, groups: Sequence[int], losses: Sequence[float], unit: str) -> LossBars:
    """Each group's losses added up, every group from the least to the greatest met shown (none: no bars)."""
    found: dict[int, list[float]] = {}
    for group, loss in zip(groups, losses, strict=True):
        found.setdefault(group, []).append(loss)
    shown = range(min(found), max(found) + 1) if found else range(0)
    return LossBars(by, tuple(shown), tuple(math.fsum(found.get(group, ())) for group in shown), unit)


def _tiles(value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(type(tile) is int and tile > 0 for tile in value):
        raise ValueError(value)
    return tuple(value)


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise ValueError(value)
    return float(value)
