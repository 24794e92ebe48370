"""What an explanation's report holds, exact (`explain`) or sampled (`sampled`): its head, its
rows, and the share of the loss in its first rows."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol

from shutbox_cli.game import Rules, tiles_of
from shutbox_cli.game.exact_regret import Decision

from ..records.schema import header, rules_table

TOP = 10
"""The rows whose share of the gap a result states."""


class Explained(Protocol):
    """What an explanation's report names: the strategy, its rivals, its seats and key, the measure."""

    @property
    def strategy(self) -> str: ...
    @property
    def spec(self) -> str: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def measure(self) -> str: ...
    @property
    def features(self) -> tuple[str, ...]: ...
    @property
    def opponents(self) -> tuple[str, ...]: ...
    @property
    def field(self) -> tuple[str, ...]: ...
    @property
    def seats(self) -> tuple[int, ...]: ...


def top_share(rows: Sequence[Decision], count: int = TOP) -> float:
    """The share of the rows' total loss in the first `count` rows (0 when there is none)."""
    total = math.fsum(row.loss for row in rows)
    return math.fsum(row.loss for row in rows[:count]) / total if total > 0 else 0.0


def report_head(found: Explained, how: dict[str, Any]) -> dict[str, Any]:
    """A report's keys before its figures: the header, `how` it was found (method, arithmetic or
    seed and dice), who and against whom, the measure and the rules."""
    from ..referee.confinement import report_field

    return {
        **header("explanation"),
        "method": how["method"],
        **report_field([found.spec, *found.field]),
        **{key: value for key, value in how.items() if key != "method"},
        "strategy": found.strategy,
        "spec": found.spec,
        "opponents": list(found.opponents),
        "field": list(found.field),
        "seats": list(found.seats),
        "features": list(found.features),
        "measure": found.measure,
        "rules": rules_table(found.rules),
    }


def report_row(found: Explained, row: Decision) -> dict[str, Any]:
    """A row of the report: the box, the seat and key where there are, the choice made and the
    best, its cost, reach and loss."""
    table: dict[str, Any] = {"box": list(tiles_of(row.mask))}
    key = row.key
    if found.seats:
        table["seat"], key = key[0], key[1:]
    if found.features:
        table["key"] = {feature: value for feature, value in zip(found.features, key, strict=True) if value is not None}
    if row.throw is None:
        table |= {"played_dice": row.played, "best_dice": row.best}
    else:
        table |= {"throw": list(row.throw), "played": list(tiles_of(row.played)), "best": list(tiles_of(row.best))}
    return table | {"cost": row.cost, "reach": row.reach, "loss": row.loss}
