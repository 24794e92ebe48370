"""A tune report (`kind = "tune"`, docs/report.md) as a Markdown page: what was tuned against which
field for which objective, exact or simulated, the trials best first, the best values, the
confirmation, whether it stopped before its end, and the commands that repeat or finish it (as the
page's `Words` write them)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..errors import Command, Setting
from ..tuning.records import SEARCHES
from .cells import (
    PERCENT,
    SCORE,
    Words,
    count_said,
    inline_code,
    repeat_lines,
    rule_settings_of,
    rules_said,
    spec_as_typed,
    table_cell,
)

TRIALS_SHOWN = 20
"""The most trials the page's table shows (the best by the objective); the report has them all."""
OBJECTIVES_SAID = {
    "win-rate": ("win rate", "the highest win rate"),
    "mean-score": ("mean score", "the lowest mean score"),
    "shut-rate": ("shut rate", "the highest shut rate"),
}
"""Each objective's column title, and what the tune looked for."""
SEARCHES_SAID = {
    "grid": "a grid (every candidate on the same games)",
    "successive-halving": "successive halving (the better half of the candidates each round, on twice the games)",
    "optuna": "Optuna's TPE sampler",
}
"""How a simulated tune chose its candidates, in words."""


def tune_page(report: Mapping[str, Any], path: Path, words: Words = Words()) -> list[str]:
    """The lines of a tune report's page, its settings and commands written by `words`."""
    exact = report["method"] == "exact"
    column, sought = OBJECTIVES_SAID[report["objective"]]
    field = ", ".join(report["field"])
    against = f"against {field}" if field else "alone"
    lines = [f"## shutbox tune: {report['spec']} {against}, for {sought}", ""]
    ranges = inline_code(" ".join(_range(parameter) for parameter in report["parameters"]))
    if exact:
        how = "Every candidate computed exactly" + (": the best is the true optimum over the ranges" * report["done"])
    else:
        search = SEARCHES_SAID[report["search"]]
        trials = f", {count_said(report['trials'])} trials" if report["search"] == "optuna" else ""
        how = (
            f"Simulated on common dice, seed {report['seed']}, {count_said(report['games'])} games per matchup in the "
            f"first round; the candidates chosen by {search}{trials}"
        )
    lines += [f"{how}. Ranges: {ranges}. Rules: {rules_said(report['rules'], words)}.", ""]
    resume = words.write(Command("tune", (), (Setting("resume", str(path)),)))
    if not report["done"]:
        played = len(report["trial"])
        stopped = f"**Stopped** after {played} trial{'s' * (played != 1)}, before its end: no best yet."
        lines += [f"{stopped} Finish it with {inline_code(resume)}.", ""]
    lines += _trials(report, column)
    if report.get("best"):
        lines += _best(report, column)
    if report.get("confirmation"):
        lines += _confirmation(report)
    more = () if report["done"] else (f"{resume}    # finishes the stopped tune",)
    return [*lines, *repeat_lines(report, words.write(_command(report, path)), *more)]


def _trials(report: Mapping[str, Any], column: str) -> list[str]:
    """The trials, each candidate once (at the furthest round it played), best first."""
    shown = _shown(report["objective"])
    halving = report["search"] == "successive-halving"
    latest = {_key(trial["values"]): trial for trial in report["trial"]}
    sign = 1 if report["goal"] == "min" else -1
    trials = sorted(latest.values(), key=lambda trial: (-trial.get("round", 0), sign * trial["objective"]))
    names = [parameter["name"] for parameter in report["parameters"]]
    simulated = report["method"] != "exact"
    titles = ["best", *(table_cell(name) for name in names), column]
    titles += ["95% CI", "games"] if simulated else []
    titles += ["round"] if halving else []
    order = "by the round it reached, then by the objective" if halving else "by the objective"
    lines = ["### Trials", "", f"Each candidate, ordered {order}; the best is marked.", ""]
    lines += ["| " + " | ".join(titles) + " |", "|:---|" + "---:|" * (len(titles) - 1)]
    best = _key(report["best"]["values"]) if report.get("best") else None
    for trial in trials[:TRIALS_SHOWN]:
        cells = ["**best**" if _key(trial["values"]) == best else ""]
        cells += [str(trial["values"][name]) for name in names]
        cells.append(shown(trial["objective"]))
        if simulated:
            low, high = trial["objective_ci95"]
            cells += [f"{shown(low)} to {shown(high)}", count_said(trial["games"])]
        if halving:
            cells.append(str(trial["round"]))
        lines.append("| " + " | ".join(cells) + " |")
    left = len(trials) - TRIALS_SHOWN
    if left > 0:
        lines += ["", f"And {left:,} more candidate{'s' * (left != 1)}: the report has them all."]
    return [*lines, ""]


def _best(report: Mapping[str, Any], column: str) -> list[str]:
    """The best values beside the starting ones (a parameter SPEC does not give: its default); exact, their figures."""
    names = [parameter["name"] for parameter in report["parameters"]]
    exact = report["method"] == "exact"
    titles = ["values", *(table_cell(name) for name in names), *([column] if exact else [])]
    lines = ["### Best", "", "| " + " | ".join(titles) + " |", "|:---|" + "---:|" * (len(titles) - 1)]
    shown = _shown(report["objective"])
    best, start = report["best"], report["start"]
    rows = [
        ("best", [str(best["values"][name]) for name in names], best["objective"]),
        ("start", [str(start[name]) if name in start else "default" for name in names], report["start_objective"]),
    ]
    for title, values, figure in rows:
        lines.append("| " + " | ".join([title, *values, *([shown(figure)] if exact else [])]) + " |")
    return [*lines, ""]


def _confirmation(report: Mapping[str, Any]) -> list[str]:
    """The best against the starting values on a fresh seed, and whether it is better at 95%."""
    confirmation, shown = report["confirmation"], _shown(report["objective"])
    lines = [
        "### Confirmation",
        "",
        f"The best against the starting values on a fresh seed ({confirmation['seed']}), "
        f"{count_said(confirmation['games'])} games per matchup.",
        "",
        "| figure | value | 95% CI |",
        "|:---|---:|---:|",
    ]
    for title in ("best", "start"):
        low, high = confirmation[f"{title}_ci95"]
        lines.append(f"| {title} | {shown(confirmation[title])} | {shown(low)} to {shown(high)} |")
    if "difference" not in confirmation:
        return [*lines, "", "Alone, each has its own interval: no paired difference.", ""]
    signed = _shown(report["objective"], signed=True)
    low, high = confirmation["difference_ci95"]
    lines.append(f"| best minus start | {signed(confirmation['difference'])} | {signed(low)} to {signed(high)} |")
    better = high < 0 if report["goal"] == "min" else low > 0
    said = "is better than the start" if better else "is not shown better than the start"
    return [*lines, "", f"At 95%, the best {said}.", ""]


def _command(report: Mapping[str, Any], path: Path) -> Command:
    """The `tune` command of this tune (`shutbox tune` on the command line)."""
    given = [Setting("parameters", tuple(_range(parameter) for parameter in report["parameters"]))]
    if report["field"]:
        given.append(Setting("field", tuple(spec_as_typed(spec, path) for spec in report["field"])))
    if report["objective"] != ("win-rate" if report["field"] else "mean-score"):
        given.append(Setting("objective", report["objective"]))
    if report["method"] != "exact":
        method = next(name for name, search in SEARCHES.items() if search == report["search"])
        given += [Setting("method", method), Setting("games", report["games"])]
        given.append(Setting("confirm_games", report["confirm_games"]))
        given += [Setting("trials", report["trials"])] if report["search"] == "optuna" else []
        given.append(Setting("seed", report["seed"]))
    return Command("tune", (spec_as_typed(report["spec"], path),), (*given, *rule_settings_of(report["rules"])))


def _range(parameter: Mapping[str, Any]) -> str:
    """A parameter's range as a tune's `parameters` are given: a whole-number range's step only when not 1."""
    low, high, step = parameter["low"], parameter["high"], parameter.get("step")
    whole = all(isinstance(value, int) for value in (low, high, step))
    return f"{parameter['name']}={low}..{high}" + ("" if step is None or (whole and step == 1) else f":{step}")


def _key(values: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(values.items()))


def _shown(objective: str, signed: bool = False) -> Callable[[float], str]:
    """How the page shows a figure of the objective: a rate in percent, a mean score plain."""
    sign = "+" if signed else ""
    if objective == "mean-score":
        return lambda value: f"{value:{sign}.{SCORE}f}"
    return lambda value: f"{value * 100:{sign}.{PERCENT}f}%"
