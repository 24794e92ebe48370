"""What a report shows as figures (`shutbox plot`): its figures' data, read from the report's table,
so that a drawing holds the report's numbers and a test can check them without a picture.

A tournament report gives its win rates (with their 95% intervals when simulated), its head-to-head
grid (three strategies or more) and, computed exactly, its win rates by seat; a match report (a
tournament report with a `match` table) its score with both intervals and the SPRT's LLR path; an
analysis its score distribution; a duel its margin distribution; a tune its landscape (the figure
over one parameter, a map over two, the points ranked over more); an explanation where its loss lies
(`loss_figures`). No drawing library is used here.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from shutbox_cli.game import Rules

from ..errors import ConfigError
from ..records.checked import read_checked
from ..records.schema import check_schema, rules_mapping
from ..statistics.stats import wilson
from ..tuning.space import MOST_VALUES, Parameter
from .loss_figures import explanation_figures
from .panels import (
    Confirmed,
    Distribution,
    DuelChances,
    Figures,
    HeadToHeadGrid,
    MatchScore,
    Panel,
    SeatRates,
    SprtPath,
    TuneCurve,
    TuneGrid,
    TuneRanking,
    WinRates,
)

MOST_RANKED = 30
"""The most points a tune of three parameters or more draws: its best ones."""


def read_figures(path: Path) -> Figures:
    """The figures of a report file (TOML or JSON), checked (see `read_checked`); a ConfigError of one
    sentence if it is not one."""
    return report_figures(read_checked(path), repr(str(path)))


def report_figures(table: Mapping[str, Any], name: str = "the report") -> Figures:
    """The figures of a report's table, as `report_table`/`result_table` make it."""
    check_schema(name, table)
    kind = table.get("kind")
    try:
        if kind == "tournament":
            return _tournament(table)
        if kind == "analysis":
            return _analysis(table)
        if kind == "duel":
            return _duel(table)
        if kind == "tune":
            return _tune(table)
        if kind == "explanation":
            return explanation_figures(table)
    except (KeyError, TypeError, ValueError, IndexError):
        raise ConfigError(
            f"{name} is not a whole {kind} report: figures are missing or malformed, so it cannot be plotted."
        ) from None
    raise ConfigError(
        f"{name} is not a report shutbox can plot: a tournament, match, analysis, duel, tune or explanation report."
    )


def _tournament(table: Mapping[str, Any]) -> Figures:
    config, ranking = table["config"], table["ranking"]
    names = tuple(str(entry["name"]) for entry in ranking)
    exact = table.get("method") == "exact"
    seats = int(config.get("table", 2))
    key = "win_rate" if seats > 1 else "mean_score"
    rates = WinRates(
        names,
        tuple(_number(entry[key]) for entry in ranking),
        None if exact else tuple(_pair(entry[f"{key}_ci95"]) for entry in ranking),
        1 / seats if seats > 1 else None,
        key,
    )
    match = table.get("match")
    panels: list[Panel] = []
    if isinstance(match, Mapping):
        panels += _match(match, int(table["totals"]["games"]))
    panels.append(rates)
    if len(names) > 2 and table.get("head_to_head"):  # a solo tournament has none
        panels.append(_grid(names, table.get("head_to_head", []), seats))
    if exact and table.get("seat"):
        panels.append(_seats(names, table["seat"]))
    games = int(table["totals"]["games"])
    return Figures(
        kind="match" if isinstance(match, Mapping) else "tournament",
        subject=f"{match['strategy']} against {match['baseline']}"
        if isinstance(match, Mapping)
        else f"{len(names)} strategies" + (", solo" if seats == 1 else ""),
        rules=_rules(config["rules"]),
        method="exact" if exact else "simulate",
        seed=None if exact else _seed(table),
        size=f"{games:,} seating{'s' * (games != 1)} computed exactly" if exact else f"{games:,} games",
        panels=tuple(panels),
    )


def _grid(names: tuple[str, ...], pairs: list[Mapping[str, Any]], seats: int) -> HeadToHeadGrid:
    ahead = seats > 2 and all(pair.get("ahead_rate") is not None for pair in pairs)
    found = {
        (str(pair["strategy"]), str(pair["opponent"])): _number(pair["ahead_rate" if ahead else "win_rate"])
        for pair in pairs
    }
    grid = tuple(tuple(found.get((row, column)) for column in names) for row in names)
    return HeadToHeadGrid(names, grid, ahead, 0.5 if ahead else 1 / seats)


def _seats(names: tuple[str, ...], rows: list[Mapping[str, Any]]) -> SeatRates:
    found = {(str(row["strategy"]), int(row["seat"])): _number(row["win_rate"]) for row in rows}
    seats = tuple(sorted({seat for _, seat in found}))
    return SeatRates(names, seats, tuple(tuple(found.get((name, seat), math.nan) for seat in seats) for name in names))


def _match(match: Mapping[str, Any], games: int) -> list[Panel]:
    strategy, baseline = str(match["strategy"]), str(match["baseline"])
    score = MatchScore(
        strategy=strategy,
        baseline=baseline,
        pairs=int(match["pairs"]),
        score=_number(match["score"]),
        paired=_pair(match["score_ci95"]),
        unpaired=_pair(match["score_ci95_unpaired"]),
    )
    sprt = match.get("sprt")
    if not isinstance(sprt, Mapping):
        return [score]
    path = sprt.get("path", {"games": [], "llr": []})
    looked, llrs = tuple(_whole(count) for count in path["games"]), tuple(map(_number, path["llr"]))
    if len(looked) != len(llrs):
        raise ValueError(path)
    test = SprtPath(
        strategy,
        baseline,
        looked,
        llrs,
        (games, _number(sprt["llr"])),
        _pair(sprt["bounds"]),
        _number(sprt["elo0"]),
        _number(sprt["elo1"]),
        _number(sprt["alpha"]),
        _number(sprt["beta"]),
        str(sprt["verdict"]),
    )
    return [score, test]


def _analysis(table: Mapping[str, Any]) -> Figures:
    exact = table.get("method") == "exact"
    scores = _distribution("score", "score at the end of a turn", table["distribution"], _number(table["mean_score"]))
    if not exact:
        turns = int(table["turns"])
        scores = dataclasses.replace(
            scores, intervals=tuple(wilson(round(chance * turns), turns) for chance in scores.chances)
        )
    return Figures(
        kind="analysis",
        subject=str(table["strategy"]),
        rules=_rules(table["rules"]),
        method="exact" if exact else "simulate",
        seed=None if exact else _seed(table),
        size="exact" if exact else f"{int(table['turns']):,} turns",
        panels=(scores,),
    )


def _duel(table: Mapping[str, Any]) -> Figures:
    seat = table.get("average") or table["seat"][0]  # both seats' average, else the one seat asked
    margins = seat.get("margins")
    label = f"margin: {table['strategy']}'s final total minus {table['opponent']}'s" + (
        ", both seats' average" if "average" in table else f", {table['strategy']} in seat {seat['seat']}"
    )
    return Figures(
        kind="duel",
        subject=f"{table['strategy']} against {table['opponent']}",
        rules=_rules(table["rules"]),
        method="exact",
        seed=None,
        size="exact",
        panels=(_chances(table),)
        if margins is None
        else (_chances(table), _distribution("margin", label, margins, None)),
    )


def _chances(table: Mapping[str, Any]) -> DuelChances:
    rows = [*table["seat"], *([table["average"]] if "average" in table else [])]
    return DuelChances(
        str(table["strategy"]),
        str(table["opponent"]),
        tuple(int(row["seat"]) if "seat" in row else None for row in rows),
        tuple(_number(row["win_rate"]) for row in rows),
        tuple(_number(row["opponent_win_rate"]) for row in rows),
        tuple(_number(row["tie_rate"]) for row in rows),
    )


def _distribution(what: str, label: str, chances: Mapping[str, Any], mean: float | None) -> Distribution:
    found = sorted((int(value), _number(chance)) for value, chance in chances.items())
    values, shares = tuple(value for value, _ in found), tuple(chance for _, chance in found)
    return Distribution(what, label, values, shares, mean, None)


Point = tuple[int | float, ...]


@dataclasses.dataclass(frozen=True)
class Landscape:
    """What a tune report says of its points: each one's last trial, the best point and its figure,
    the starting values (None: the strategy's default) and whether it was computed exactly."""

    names: tuple[str, ...]
    objective: str
    goal: str
    last: Mapping[Point, Mapping[str, Any]]
    best: tuple[Point, float] | None
    start: tuple[int | float | None, ...]
    exact: bool

    def figure(self, point: Point) -> float:
        return _number(self.last[point]["objective"])

    def intervals(self, points: list[Point]) -> tuple[tuple[float, float], ...] | None:
        return None if self.exact else tuple(_pair(self.last[point]["objective_ci95"]) for point in points)


def _tune(table: Mapping[str, Any]) -> Figures:
    exact = table.get("method") == "exact"
    parameters = tuple(_parameter(one) for one in table["parameters"])
    names = tuple(one.name for one in parameters)
    last: dict[Point, Mapping[str, Any]] = {}
    for trial in table["trial"]:  # a point tried in several rounds of a halving: its last, on the most games
        last[tuple(_value(trial["values"][name]) for name in names)] = trial
    best = table.get("best")
    given = table["start"]
    landscape = Landscape(
        tuple(str(one["name"]) for one in table["parameters"]),
        str(table["objective"]),
        str(table["goal"]),
        last,
        None if best is None else (tuple(_value(best["values"][name]) for name in names), _number(best["objective"])),
        tuple(
            None if isinstance(given.get(name), bool) or not isinstance(given.get(name), int | float) else given[name]
            for name in names
        ),
        exact,
    )
    panel: Panel
    if len(names) == 1:
        panel = _tune_curve(landscape, table)
    elif len(names) == 2 and _griddable(parameters):
        panel = _tune_grid(landscape, parameters[0].values(), parameters[1].values())
    else:
        panel = _tune_ranking(landscape)
    field = [str(one) for one in table["field"]]
    return Figures(
        kind="tune",
        subject=f"{_short(str(table['spec']))} " + (f"against {', '.join(map(_short, field))}" if field else "alone"),
        rules=_rules(table["rules"]),
        method="exact" if exact else "simulate",
        seed=None if exact else _seed(table),
        size=f"{len(table['trial']):,} trials"
        + ("" if exact else f", {int(table['games']):,} games a candidate's first round"),
        panels=(panel,),
    )


def _griddable(parameters: tuple[Parameter, ...]) -> bool:
    """Whether two ranges make a grid worth drawing: neither continuous, at most `MOST_VALUES`
    points (Optuna samples from larger spaces: those are ranked, the points it tried)."""
    if any(one.continuous for one in parameters):
        return False
    return math.prod(len(one.values()) for one in parameters) <= MOST_VALUES


def _parameter(table: Mapping[str, Any]) -> Parameter:
    """A range as the report gives it (without a step: continuous), refused (ValueError) if it runs
    backwards, or has a step that does not go forward or too many values."""
    step = table.get("step")
    found = Parameter(
        str(table["name"]), _value(table["low"]), _value(table["high"]), None if step is None else _value(step)
    )
    if found.low > found.high or (
        found.step is not None and not (found.step > 0 and (found.high - found.low) / found.step < MOST_VALUES)
    ):
        raise ValueError(table)
    return found


def _tune_curve(landscape: Landscape, table: Mapping[str, Any]) -> TuneCurve:
    points = sorted(landscape.last)
    best = landscape.best
    exact = landscape.exact
    return TuneCurve(
        landscape.names[0],
        landscape.objective,
        landscape.goal,
        tuple(point[0] for point in points),
        tuple(map(landscape.figure, points)),
        landscape.intervals(points),
        None if best is None else best[0][0],
        None if best is None else best[1],
        landscape.start[0],
        _maybe(table.get("start_objective")) if exact else None,  # simulated: the confirmation's, on other dice
        None if exact or "confirmation" not in table else _confirmed(table["confirmation"]),
    )


def _tune_grid(landscape: Landscape, columns: Point, rows: Point) -> TuneGrid:
    best = None if landscape.best is None else landscape.best[0]
    if best is not None and (best[0] not in columns or best[1] not in rows):
        raise ValueError(best)
    return TuneGrid(
        (landscape.names[0], landscape.names[1]),
        landscape.objective,
        landscape.goal,
        columns,
        rows,
        tuple(
            tuple(landscape.figure((column, row)) if (column, row) in landscape.last else None for column in columns)
            for row in rows
        ),
        None if best is None else (best[0], best[1]),
        (landscape.start[0], landscape.start[1]),
    )


def _tune_ranking(landscape: Landscape) -> TuneRanking:
    ranked = sorted(landscape.last, key=landscape.figure, reverse=landscape.goal == "max")
    shown = ranked[:MOST_RANKED]
    return TuneRanking(
        landscape.objective,
        landscape.goal,
        tuple(
            ", ".join(f"{name}={value:g}" for name, value in zip(landscape.names, point, strict=True))
            for point in shown
        ),
        tuple(map(landscape.figure, shown)),
        landscape.intervals(shown),
        len(ranked),
    )


def _short(spec: str) -> str:
    """A spec as a title names it: a strategy's file by its name, without its folder."""
    where, colon, rest = spec.partition(":")
    return where.replace("\\", "/").rsplit("/", 1)[-1] + colon + rest if where.endswith(".py") else spec


def _confirmed(table: Mapping[str, Any]) -> Confirmed:
    def interval(key: str) -> tuple[float, float] | None:
        return _pair(table[key]) if key in table else None

    return Confirmed(
        _number(table["best"]),
        interval("best_ci95"),
        _number(table["start"]),
        interval("start_ci95"),
        _maybe(table.get("difference")),
        interval("difference_ci95"),
        _whole(table["games"]),
        _whole(table["seed"]),
    )


def _rules(table: Mapping[str, Any]) -> Rules:
    return Rules.from_mapping(rules_mapping(table))


def _seed(table: Mapping[str, Any]) -> int | None:
    seed = table.get("seed")
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else None


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(value)
    return float(value)


def _value(value: object) -> int | float:
    """A parameter's value: a whole number stays one."""
    return _whole(value) if isinstance(value, int) else _number(value)


def _whole(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(value)
    return value


def _maybe(value: object) -> float | None:
    return None if value is None else _number(value)


def _pair(value: object) -> tuple[float, float]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError(value)
    return _number(value[0]), _number(value[1])
