"""A finished tournament as a TOML-ready table, and reports written to a file.

The report holds the full configuration under `[config]` (so `shutbox tournament
report.toml` runs the same tournament again), the seed and the shutbox version, and the
results. It holds nothing that differs between runs of the same configuration: no time,
no worker count, and every figure rounded so no float shows its last, unstable bits.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from shutbox_cli.game import DICE_SCHEME

from .aggregate import Standing, Summary
from .analysis import Analysis
from .config import REPORT_CONFIG, config_table
from .files import write_toml_atomically
from .version import shutbox_version

DIGITS = 6
"""Decimal places of every figure in a report."""
SIGNIFICANT = 12
"""Significant digits of every figure in a report, at most."""


def _round(value: float) -> float:
    """`DIGITS` decimals, and no more than `SIGNIFICANT` significant digits (digit scores are large)."""
    return float(f"{round(value, DIGITS):.{SIGNIFICANT}g}")


def _interval(interval: tuple[float, float]) -> list[float]:
    return [_round(interval[0]), _round(interval[1])]


def _standing_table(rank: int, standing: Standing, solo: bool) -> dict[str, Any]:
    table: dict[str, Any] = {"rank": rank, "name": standing.name, "spec": standing.spec, "games": standing.games}
    if not solo:
        table["wins"] = _round(standing.wins)
        table["win_rate"] = _round(standing.win_rate)
        table["win_rate_ci95"] = _interval(standing.win_interval)
    table["turns"] = standing.turns
    if standing.mean_score is not None and standing.score_interval is not None:
        table["mean_score"] = _round(standing.mean_score)
        table["mean_score_ci95"] = _interval(standing.score_interval)
    if standing.mean_total is not None:
        table["mean_total"] = _round(standing.mean_total)
    if standing.shut_rate is not None:
        table["shut_rate"] = _round(standing.shut_rate)
    if standing.mean_rounds is not None:
        table["mean_rounds"] = _round(standing.mean_rounds)
    return table


def report_table(summary: Summary) -> dict[str, Any]:
    """The whole report as a table for tomli-w."""
    plan = summary.plan
    report: dict[str, Any] = {
        "shutbox_version": shutbox_version(),
        "seed": summary.config.seed,
        "dice": DICE_SCHEME,
        REPORT_CONFIG: config_table(summary.config),
        "totals": {
            "games": summary.games,
            "matchups": len(plan.matchups),
            "games_per_matchup": plan.games_per_matchup,
        },
        "ranking": [_standing_table(rank, standing, summary.solo) for rank, standing in enumerate(summary.ranking, 1)],
    }
    if summary.head_to_head:
        report["head_to_head"] = [
            {
                "strategy": pair.strategy,
                "opponent": pair.opponent,
                "games": pair.games,
                "wins": _round(pair.wins),
                "win_rate": _round(pair.win_rate),
            }
            for pair in summary.head_to_head
        ]
    return report


def write_report(path: str | os.PathLike[str], result: Summary | Analysis) -> None:
    """Write a tournament's report (or an analysis's) as TOML, whole or not at all: a temporary
    file in the same folder, renamed over `path`. Raises FileWriteError naming the file."""
    table = report_table(result) if isinstance(result, Summary) else result.to_report()
    write_toml_atomically(Path(path), table)
