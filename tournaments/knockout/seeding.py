"""A knockout's seeds: the field in the order given (the first seed first), by a prior report's
ratings (its ranking's `rating`, the highest first), or by an exact tournament of the field at a
table of two (every entrant exact: its ranking, the best first). The bracket is then made from the
field in seed order, which its report records as its field: the report reruns without the source
of the seeds."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from ..errors import ConfigError, setting
from ..field.config import TournamentConfig
from ..records.checked import read_checked

SEEDINGS = ("order", "ratings", "exact")
"""How a knockout is seeded."""


def seeded(config: TournamentConfig, seeding: str, ratings: str | os.PathLike[str] | None = None) -> TournamentConfig:
    """The configuration with its field in seed order, seeded by `seeding` (one of SEEDINGS; for
    "ratings", the report `ratings`). A ConfigError of one sentence where it cannot be."""
    if seeding not in SEEDINGS:
        raise ConfigError(f"{setting('seeding')} is order, ratings or exact, not {seeding!r}.")
    if (ratings is not None) != (seeding == "ratings"):
        raise ConfigError(
            f"{setting('seeding', 'ratings')} takes the report the ratings come from ({setting('ratings')}), "
            "and only it takes one."
        )
    if seeding == "order":
        return config
    order = _by_ratings(config, Path(ratings)) if ratings is not None else _by_exact(config)
    return dataclasses.replace(config, strategies=tuple(config.strategies[index] for index in order))


def _by_ratings(config: TournamentConfig, path: Path) -> list[int]:
    """The field's indices, the highest rated in the report first (equal ratings in the field's order)."""
    report = read_checked(path, "ratings report")
    rows = report.get("ranking") if report.get("kind") == "tournament" else None
    found: dict[str, float] = {
        str(row.get("name")): float(row["rating"])
        for row in rows or ()
        if isinstance(row, dict) and isinstance(row.get("rating"), float)
    }
    if not found:
        raise ConfigError(f"{str(path)!r} is not a simulated tournament's report with ratings to seed by.")
    missing = [name for name in config.names if name not in found]
    if missing:
        raise ConfigError(f"{str(path)!r} rates no strategy named {missing[0]!r}, so it cannot seed this field.")
    return sorted(range(len(config.names)), key=lambda index: -found[config.names[index]])


def _by_exact(config: TournamentConfig) -> list[int]:
    """The field's indices in the order of its exact tournament at a table of two (the best first)."""
    from ..exact.tournament import run_exact

    refused = [entry.name for entry in config.strategies if not entry.exact]
    if refused:
        raise ConfigError(f"an exact seeding needs every entrant exact, and {refused[0]!r} is not.")
    summary = run_exact(dataclasses.replace(config, table=2, method="exact", gauntlet=0))
    return [config.names.index(standing.name) for standing in summary.ranking]
