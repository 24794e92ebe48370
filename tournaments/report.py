"""A finished tournament as a TOML-ready table, and reports written to a file.

The report holds the full configuration under `[config]` (so `shutbox tournament
report.toml` runs the same tournament again), the seed and the shutbox version, and the
results. It holds nothing that differs between runs of the same configuration: no time,
no worker count, and every figure rounded so no float shows its last, unstable bits.

An exact tournament's report has the same tables without intervals (no `*_ci95`) and without a
seed (nothing is dealt), says `method = "exact"` and its `arithmetic`, counts a seating computed
exactly as a game, and adds a `[[seat]]` table: each strategy's figures from each seat.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from shutbox_cli.game import DICE_SCHEME

from .aggregate import Standing, Summary
from .analysis import Analysis
from .config import REPORT_CONFIG, config_table, recorded_spec
from .duel import ExactDuel
from .exact import ExactSummary, SeatStanding
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


def _standing_table(
    rank: int, standing: Standing, solo: bool, folder: Path | None, exact: bool = False
) -> dict[str, Any]:
    spec = recorded_spec(standing.spec, folder)
    table: dict[str, Any] = {"rank": rank, "name": standing.name, "spec": spec, "games": standing.games}
    if not solo:
        table["wins"] = _round(standing.wins)
        table["win_rate"] = _round(standing.win_rate)
        if not exact:
            table["win_rate_ci95"] = _interval(standing.win_interval)
    table["turns"] = _round(standing.turns) if exact else standing.turns
    if standing.mean_score is not None and standing.score_interval is not None:
        table["mean_score"] = _round(standing.mean_score)
        if not exact:
            table["mean_score_ci95"] = _interval(standing.score_interval)
    if standing.mean_total is not None:
        table["mean_total"] = _round(standing.mean_total)
    if standing.shut_rate is not None:
        table["shut_rate"] = _round(standing.shut_rate)
    if standing.mean_rounds is not None:
        table["mean_rounds"] = _round(standing.mean_rounds)
    return table


def _seat_table(seat: SeatStanding) -> dict[str, Any]:
    table: dict[str, Any] = {
        "strategy": seat.name,
        "seat": seat.seat,
        "games": seat.games,
        "wins": _round(seat.wins),
        "win_rate": _round(seat.win_rate),
    }
    if seat.mean_total is not None:
        table["mean_total"] = _round(seat.mean_total)
    if seat.mean_rounds is not None:
        table["mean_rounds"] = _round(seat.mean_rounds)
    return table


def exact_report_table(summary: ExactSummary, folder: Path | None = None) -> dict[str, Any]:
    """An exact tournament's report, to be written in `folder` (None: the current one), as a table for tomli-w."""
    config = summary.config
    report: dict[str, Any] = {
        "shutbox_version": shutbox_version(),
        "method": config.method,
        "arithmetic": summary.arithmetic,
        REPORT_CONFIG: config_table(config, folder),
        "totals": {
            "games": summary.games,
            "matchups": len(summary.seatings),
            "games_per_matchup": config.table,
            "unresolved": _round(summary.unresolved),
        },
        "ranking": [
            _standing_table(rank, standing, summary.solo, folder, exact=True)
            for rank, standing in enumerate(summary.ranking, 1)
        ],
    }
    if summary.head_to_head:
        report["head_to_head"] = [
            {
                "strategy": pair.strategy,
                "opponent": pair.opponent,
                "games": pair.games,
                "wins": _round(pair.wins),
                "win_rate": _round(pair.win_rate),
                "win_rate_by_seat": [_round(rate) for rate in pair.by_seat],
            }
            for pair in summary.head_to_head
        ]
    if not summary.solo:
        report["seat"] = [_seat_table(seat) for seat in summary.seats]
    return report


def report_table(summary: Summary | ExactSummary, folder: Path | None = None) -> dict[str, Any]:
    """The whole report, to be written in `folder` (None: the current one; its strategy file paths are
    relative to it), as a table for tomli-w."""
    if isinstance(summary, ExactSummary):
        return exact_report_table(summary, folder)
    plan = summary.plan
    report: dict[str, Any] = {
        "shutbox_version": shutbox_version(),
        "seed": summary.config.seed,
        "dice": DICE_SCHEME,
        REPORT_CONFIG: config_table(summary.config, folder),
        "totals": {
            "games": summary.games,
            "matchups": len(plan.matchups),
            "games_per_matchup": plan.games_per_matchup,
        },
        "ranking": [
            _standing_table(rank, standing, summary.solo, folder) for rank, standing in enumerate(summary.ranking, 1)
        ],
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


def write_report(path: str | os.PathLike[str], result: Summary | ExactSummary | Analysis | ExactDuel) -> None:
    """Write a tournament's report (or an analysis's, or a duel's) as TOML, whole or not at all: a
    temporary file in the same folder, renamed over `path`. Raises FileWriteError naming the file."""
    table = result.to_report() if isinstance(result, (Analysis, ExactDuel)) else report_table(result, Path(path).parent)
    write_toml_atomically(Path(path), table)
