"""The report schema's shared parts (docs/report.md): the header every report opens with, its rule
set as a table, and figures rounded so a report is the same byte for byte on every run."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, get_args

from shutbox_cli.game import Rules
from shutbox_cli.game.rules import NO_DROP_OUT

from ..errors import ConfigError
from ..version import shutbox_version

SCHEMA = 1
"""The version of the report schema: raised whenever a key changes meaning or goes away."""
Kind = Literal[
    "tournament",
    "analysis",
    "duel",
    "tune",
    "strategies",
    "rules",
    "check",
    "comparison",
    "best",
    "replay",
    "explanation",
    "sheet",
    "solution",
    "fairness",
    "diff",
    "knockout",
    "history",
]
"""What a document holds; the first four are reports of results."""
Method = Literal["simulate", "exact"]
"""How results were found: by playing seeded games or turns, or exactly."""
METHODS: tuple[Method, ...] = get_args(Method)
HEADER_KEYS = ("schema", "kind", "shutbox_version")
"""The keys every document opens with."""
DIGITS = 6
"""Decimal places of every tournament figure."""
SIGNIFICANT = 12
"""Significant digits of every tournament figure, at most."""
MAX_COUNT_DIGITS = 80
"""The most digits of one count of a tally (a report's, a checkpoint's): an honest one has fewer than 60."""


def header(kind: Kind) -> dict[str, Any]:
    """The keys every document opens with, in order."""
    return {"schema": SCHEMA, "kind": kind, "shutbox_version": shutbox_version()}


def check_schema(name: str, table: Mapping[str, Any]) -> None:
    """Refuse, in one sentence, a document of a newer schema than this shutbox reads (`name` says which)."""
    schema = table.get("schema", SCHEMA)
    if isinstance(schema, int) and not isinstance(schema, bool) and schema > SCHEMA:
        raise ConfigError(f"{name} has report schema {schema}; this shutbox reads schema {SCHEMA} and earlier.")


def rules_table(rules: Rules) -> dict[str, Any]:
    """Every rule option, `drop_out` included (`NO_DROP_OUT` when there is no limit)."""
    return {**rules.to_mapping(), "drop_out": NO_DROP_OUT if rules.drop_out is None else rules.drop_out}


def rules_mapping(table: Mapping[str, Any]) -> dict[str, Any]:
    """A rules table as `Rules.from_mapping` takes it: a `drop_out` of `NO_DROP_OUT` (or false) is no limit."""
    found = dict(table)
    limit = found.get("drop_out")
    if limit is False or (type(limit) is int and limit == NO_DROP_OUT):
        found["drop_out"] = None
    return found


def rounded(value: float) -> float:
    """`DIGITS` decimals, and no more than `SIGNIFICANT` significant digits (digit scores are large)."""
    return float(f"{round(value, DIGITS):.{SIGNIFICANT}g}")


def interval(bounds: tuple[float, float]) -> list[float]:
    """A 95% interval as a report writes it: [low, high], rounded."""
    return [rounded(bounds[0]), rounded(bounds[1])]
