"""A finished tournament as a report table (schema 1, docs/report.md), and reports written to a file.

The report holds the full configuration under `[config]` (so `shutbox tournament report.toml`
runs the same tournament again), the shutbox version, and the results. It holds nothing that
differs between runs of the same configuration: no time, no worker count, and every figure
rounded so no float shows its last, unstable bits.

Every mode writes the same keys, but for those docs/report.md names as absent by rule: a simulated
report has `seed`, `dice` and the `*_ci95` intervals, an exact one `arithmetic`, `unresolved`,
`win_rate_by_seat` and a `[[seat]]` table instead; solo tables have no wins.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from shutbox_cli.game import DICE_SCHEME

from ..field.config import REPORT_CONFIG, config_table
from ..field.entries import recorded_spec
from ..files import FileFormat, format_of, write_table_atomically
from ..records.schema import header, interval, rounded
from ..statistics.standings import HeadToHead, SeatStanding, Standing
from .aggregate import Summary

if TYPE_CHECKING:  # the exact modules load where an exact result is made, not for a simulated one's report
    from ..exact.analysis import Analysis
    from ..exact.duel import ExactDuel
    from ..exact.explain import Explanation
    from ..exact.solution import GameValue
    from ..exact.tournament import ExactSummary
    from ..field.config import TournamentConfig
    from ..statistics.elo import Match
    from ..statistics.pairs import Versus

Result: TypeAlias = "Summary | ExactSummary | Analysis | ExactDuel | Explanation | GameValue"
"""Anything a report is written of."""
ELO_DIGITS = 2
"""Decimal places of a rating or an Elo difference (a hundredth of a point is far below its error)."""
LOS_DIGITS = 4
"""Decimal places of a likelihood of superiority."""
AHEAD_FIELDS = ("ahead", "tied", "behind", "ahead_rate")
"""A head-to-head pair's finishing order, written when it is known (not in exact tournaments at
tables of three or more)."""


def _standing_table(
    rank: int,
    standing: Standing,
    solo: bool,
    exact: bool,
    folder: Path | None,
    exactly: float | None = None,
    fingerprint: str | None = None,
) -> dict[str, Any]:
    """One strategy's entry of the ranking; `exactly` its exact win rate, computed beside a simulation;
    `fingerprint` its policy's."""
    spec = recorded_spec(standing.spec, folder)
    table: dict[str, Any] = {"rank": rank, "name": standing.name, "spec": spec, "games": standing.games}
    if not solo:
        table["wins"] = rounded(standing.wins)
        table["win_rate"] = rounded(standing.win_rate)
        if not exact:
            table["win_rate_ci95"] = interval(standing.win_interval)
        if exactly is not None:
            table["exact_win_rate"] = rounded(exactly)
    table["turns"] = rounded(standing.turns) if exact else int(standing.turns)
    if standing.mean_score is not None and standing.score_interval is not None:
        table["mean_score"] = rounded(standing.mean_score)
        if not exact:
            table["mean_score_ci95"] = interval(standing.score_interval)
    if standing.shut_rate is not None and standing.shut_interval is not None:
        table["shut_rate"] = rounded(standing.shut_rate)
        if not exact:
            table["shut_rate_ci95"] = interval(standing.shut_interval)
    if standing.mean_total is not None:
        table["mean_total"] = rounded(standing.mean_total)
    table["mean_rounds"] = rounded(standing.turns / standing.games) if standing.games else 0.0
    if standing.rating is not None and standing.rating_interval is not None:
        table["rating"] = _elo(standing.rating)
        table["rating_ci95"] = [_elo(bound) for bound in standing.rating_interval]
    if standing.superiority is not None:
        table["los_next"] = round(standing.superiority, LOS_DIGITS)
    if fingerprint is not None:
        table["fingerprint"] = fingerprint
    return table


def _pair_table(pair: HeadToHead, exact: bool) -> dict[str, Any]:
    table: dict[str, Any] = {
        "strategy": pair.strategy,
        "opponent": pair.opponent,
        "games": pair.games,
        "wins": rounded(pair.wins),
        "win_rate": rounded(pair.win_rate),
    }
    for name in AHEAD_FIELDS:
        value = getattr(pair, name)
        if value is not None:
            table[name] = rounded(value) if exact or name == "ahead_rate" else value
    if exact:
        table["win_rate_by_seat"] = [rounded(rate) for rate in pair.by_seat]
    return table


def _seat_table(seat: SeatStanding, rounds: float) -> dict[str, Any]:
    table: dict[str, Any] = {
        "strategy": seat.name,
        "seat": seat.seat,
        "games": seat.games,
        "wins": rounded(seat.wins),
        "win_rate": rounded(seat.win_rate),
    }
    if seat.mean_total is not None:
        table["mean_total"] = rounded(seat.mean_total)
    table["mean_rounds"] = rounded(rounds)
    return table


def _seat_rounds(summary: ExactSummary) -> dict[tuple[str, int], float]:
    """Each strategy's expected rounds played from each seat (1 plays first), over its seatings."""
    names = summary.config.names
    turns: dict[tuple[str, int], float] = {}
    games: dict[tuple[str, int], int] = {}
    for matchup in summary.seatings:
        for seating in matchup:
            for seat, player in enumerate(seating.players):
                key = (names[player], seat + 1)
                turns[key] = turns.get(key, 0.0) + float(seating.odds.seats[seat].turns)
                games[key] = games.get(key, 0) + 1
    return {key: turns[key] / games[key] for key in turns}


def exact_report_table(summary: ExactSummary, folder: Path | None = None) -> dict[str, Any]:
    """An exact tournament's report table, to be written in `folder` (None: the current one)."""
    config = summary.config
    rounds = _seat_rounds(summary)
    return {
        **header("tournament"),
        "method": "exact",
        "arithmetic": summary.arithmetic,
        **_confinement(config),
        REPORT_CONFIG: config_table(config, folder),
        "totals": {
            "games": summary.games,
            "matchups": len(summary.seatings),
            "games_per_matchup": config.table,
            "unresolved": rounded(summary.unresolved),
        },
        "ranking": [
            _standing_table(rank, standing, summary.solo, True, folder, None, summary.fingerprints.get(standing.name))
            for rank, standing in enumerate(summary.ranking, 1)
        ],
        "head_to_head": [_pair_table(pair, exact=True) for pair in summary.head_to_head],
        "seat": [] if summary.solo else [_seat_table(seat, rounds[(seat.name, seat.seat)]) for seat in summary.seats],
    }


def report_table(summary: Summary | ExactSummary, folder: Path | None = None) -> dict[str, Any]:
    """A tournament's report table, simulated or exact, to be written in `folder` (None: the current
    one; its strategy file paths are relative to it)."""
    if not isinstance(summary, Summary):
        return exact_report_table(summary, folder)
    plan = summary.plan
    exact_rates = {} if summary.exactly is None or summary.exactly.win_rates is None else summary.exactly.win_rates
    return {
        **header("tournament"),
        "method": "simulate",
        **_confinement(summary.config),
        "seed": summary.config.seed,
        "dice": DICE_SCHEME,
        REPORT_CONFIG: config_table(summary.config, folder),
        "totals": {
            "games": summary.games,
            "matchups": len(plan.matchups),
            "games_per_matchup": plan.games_per_matchup,
            **({"forfeited": summary.forfeited} if summary.forfeited else {}),
        },
        "ranking": [
            _standing_table(
                rank,
                standing,
                summary.solo,
                False,
                folder,
                exact_rates.get(standing.name),
                summary.fingerprints.get(standing.name),
            )
            for rank, standing in enumerate(summary.ranking, 1)
        ],
        "head_to_head": [_pair_table(pair, exact=False) for pair in summary.head_to_head],
        **({"forfeit": forfeit_tables(summary, folder)} if summary.forfeits else {}),
        **({} if summary.match is None else {"match": _match_table(summary.match, summary.config.names)}),
        **({"gauntlet": _gauntlet_table(summary.versus, summary.config.names)} if summary.versus else {}),
    }


def forfeit_tables(summary: Summary, folder: Path | None = None) -> list[dict[str, Any]]:
    """A run's `[[forfeit]]` tables (docs/report.md): each failure it went on after, where and why."""
    return [
        {
            "strategy": forfeit.strategy,
            "spec": recorded_spec(forfeit.spec, folder),
            "disqualified": forfeit.disqualified,
            "unit": forfeit.unit,
            "matchup_names": list(forfeit.titles),
            "games": forfeit.games,
            "why": forfeit.why,
        }
        for forfeit in summary.forfeits
    ]


def _confinement(config: TournamentConfig) -> dict[str, str]:
    """The confinement a user's strategy's host had here (docs/trust.md); nothing in a report of
    built-in strategies only, which no host played."""
    if all(entry.builtin for entry in config.strategies):
        return {}
    from ..referee.confinement import state

    return {"confinement": str(state())}


def _gauntlet_table(versus: tuple[Versus, ...], names: tuple[str, ...]) -> dict[str, Any]:
    """A gauntlet of two's `[gauntlet]` table (docs/report.md): the first player's score minus the
    second's against the field, over all and by opponent."""
    from ..statistics.pairs import field_difference

    gap, (low, high) = field_difference(versus)
    return {
        "strategy": names[0],
        "baseline": names[1],
        "score_difference": rounded(gap),
        "score_difference_ci95": interval((low, high)),
        "opponent": [_versus_table(one) for one in versus],
    }


def _versus_table(versus: Versus) -> dict[str, Any]:
    gap, bounds = versus.difference()
    return {
        "name": versus.opponent,
        "score": rounded(versus.first.score),
        "score_ci95": interval(versus.first.score_interval()),
        "baseline_score": rounded(versus.second.score),
        "baseline_score_ci95": interval(versus.second.score_interval()),
        "score_difference": rounded(gap),
        "score_difference_ci95": interval(bounds),
    }


def _match_table(match: Match, names: tuple[str, ...]) -> dict[str, Any]:
    """A match's `[match]` table (docs/report.md): its pairs, score, Elo and SPRT, the first strategy's."""
    pairs, estimate = match.pairs, match.estimate
    difference, difference_interval = pairs.difference()
    table: dict[str, Any] = {
        "strategy": names[0],
        "baseline": names[1],
        "pairs": pairs.pairs,
        "pentanomial": list(pairs.counts),
        "wins": pairs.wins,
        "shared": pairs.draws,
        "losses": pairs.losses,
        "score": rounded(pairs.score),
        "score_ci95": interval(pairs.score_interval()),
        "score_ci95_unpaired": interval(pairs.game_interval()),
        "win_rate_difference": rounded(difference),
        "win_rate_difference_ci95": interval(difference_interval),
        **_finite("elo", estimate.elo),
        **(
            {"elo_ci95": [_elo(bound) for bound in estimate.interval]}
            if all(map(math.isfinite, estimate.interval))
            else {}
        ),
        "los": round(estimate.superiority, LOS_DIGITS),
        **_nelo(match),
        **({} if match.exact_elo is None else {"exact_score": match.exact, **_finite("exact_elo", match.exact_elo)}),
    }
    if match.sprt is not None:
        sprt = match.sprt
        table["sprt"] = {
            **({"model": sprt.model} if sprt.normalized else {}),
            "elo0": float(sprt.elo0),
            "elo1": float(sprt.elo1),
            "alpha": float(sprt.alpha),
            "beta": float(sprt.beta),
            "llr": rounded(match.llr),
            "bounds": interval(sprt.bounds),
            "verdict": match.verdict.value,
            "path": {"games": [games for games, _ in match.path], "llr": [rounded(llr) for _, llr in match.path]},
        }
    return table


def _nelo(match: Match) -> dict[str, Any]:
    """A match's `nelo` and `nelo_ci95`, each where it is finite."""
    nelo, bounds = match.nelo
    return {
        **_finite("nelo", nelo),
        **({"nelo_ci95": [_elo(bound) for bound in bounds]} if all(map(math.isfinite, bounds)) else {}),
    }


def _finite(key: str, value: float) -> dict[str, float]:
    """The key and its Elo rounded, or nothing if it is infinite (a side that won every game)."""
    return {key: _elo(value)} if math.isfinite(value) else {}


def _elo(value: float) -> float:
    """An Elo figure, fitted by iteration: to `ELO_DIGITS` decimals, which every run reproduces."""
    return round(value, ELO_DIGITS) + 0.0


def result_table(result: Result, folder: Path | None = None) -> dict[str, Any]:
    """The report table of any result (a tournament's, an analysis's or a duel's), to be written in
    `folder` (None: the current one)."""
    if isinstance(result, Summary):
        return report_table(result, folder)
    from ..exact.tournament import ExactSummary  # loaded already where an exact result was made

    return exact_report_table(result, folder) if isinstance(result, ExactSummary) else result.to_report()


def write_report(path: str | os.PathLike[str], result: Result, form: FileFormat | None = None) -> None:
    """Write a result's report as TOML or JSON (`form`; by default JSON for a `.json` file), whole or
    not at all: a temporary file in the same folder, renamed over `path`. Raises FileWriteError
    naming the file."""
    path = Path(path)
    write_table_atomically(path, result_table(result, path.parent), form or format_of(path))
