"""The one reader of reports (`read_checked`), for every command that reads one (summary, compare,
plot, a tune's resume), checked as a resume checks a checkpoint: every number finite and no larger
than a tally may hold, every rate and chance between 0 and 1, every count whole and not negative,
every name and other text printable, and its rules a rule set; and consistent: an interval ordered
and holding its point, a tournament's games its matchups times their games, a rate's objective a
rate. A report shutbox wrote always passes; a crafted or damaged one is refused in one sentence (a
ConfigError) naming the file and the field, before any of it reaches a page or a terminal."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from shutbox_cli.game import Rules, RulesError

from ..errors import ConfigError
from ..files import read_document
from .schema import MAX_COUNT_DIGITS, check_schema, rules_mapping

LARGEST = 10**MAX_COUNT_DIGITS
"""No whole number in a report is this large: a checkpoint's tallies hold fewer digits."""
NAMES = frozenset({"name", "spec", "strategy", "opponent", "baseline", "opponent_spec", "field"})
"""The keys whose values are names or specs: text (or lists and tables of them)."""
RATES = frozenset({"score", "los", "score_ci95"})
"""Rates by a name of their own; any key ending `_rate` (or `_rate_ci95`) is one too."""
CHANCES = frozenset({"distribution", "margins"})
"""Tables of chances, by value."""
COUNTS = frozenset({"games", "matchups", "games_per_matchup", "pairs", "rank", "seat"})
"""The keys whose values count: whole numbers, not negative."""
TALLIES = frozenset({"wins", "turns", "losses", "ahead", "behind", "tied", "shared", "pentanomial"})
"""Counts that may be fractions (a shared tie's half win, an exact report's expected counts): not negative."""
RATE_OBJECTIVES = frozenset({"win-rate", "shut-rate"})
"""A tune's objectives that are rates: its figures lie from 0 to 1, their differences from -1 to 1."""
OBJECTIVE_FIGURES = frozenset({"objective", "objective_ci95", "start_objective", "best", "start", "best_ci95"})
OBJECTIVE_FIGURES |= {"start_ci95"}
"""The keys of a tune report's figures of its objective (a trial's, the best's, the confirmation's)."""
MAX_REPORT_BYTES = 64 << 20
"""A report holds a few figures per strategy and pair: one larger than this is not one."""


def read_checked(path: str | Path, what: str = "report", most: int = MAX_REPORT_BYTES) -> dict[str, Any]:
    """The report at `path` (TOML or JSON, see `read_document`), of a schema this shutbox reads and
    with every check here passed; else a ConfigError of one sentence naming the file (as `what`)."""
    path = Path(path)
    report = read_document(path, what, most)
    name = repr(str(path))
    check_schema(name, report)
    check_ranges(name, report)
    return report


def check_ranges(name: str, report: Mapping[str, Any]) -> None:
    """Refuse, in one sentence naming the report (`name`) and the key, a value out of range."""
    for where, key, value in _walk(report, ""):
        why = _fault(key, value)
        if why is not None:
            raise ConfigError(f"{name} is not a report shutbox wrote: {where or 'it'} {why}.")
    for where, rules in _rules_tables(report):
        try:
            Rules.from_mapping(rules_mapping(rules))
        except (RulesError, TypeError, ValueError) as error:
            raise ConfigError(f"{name} is not a report shutbox wrote: its {where} are no rule set ({error})") from None
    for where, why in _inconsistencies(report):
        raise ConfigError(f"{name} is not a report shutbox wrote: {where} {why}.")


def _walk(value: Any, where: str) -> Iterator[tuple[str, str, Any]]:
    """Every value in the document: where it is (`ranking[0].win_rate`), its key, the value."""
    items = value.items() if isinstance(value, Mapping) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        inner = f"{where}[{key}]" if isinstance(key, int) else f"{where}.{key}" if where else str(key)
        if not isinstance(key, int) and not str(key).isprintable():
            yield inner, "", "\n"  # a key of control characters: refused as text is
            continue
        yield inner, _key_of(inner), item
        yield from _walk(item, inner)


def _key_of(where: str) -> str:
    """The name of the key a value is under (`win_rate_ci95` for `ranking[0].win_rate_ci95[1]`)."""
    return where.rsplit(".", 1)[-1].split("[", 1)[0]


def _fault(key: str, value: Any) -> str | None:
    """What is wrong with a value under this key, or None."""
    if isinstance(value, str):
        return None if value.isprintable() else f"holds control characters ({value[:40]!r})"
    if key in CHANCES and isinstance(value, Mapping):
        chances = value.values()
        if not all(type(chance) in (int, float) and 0 <= chance <= 1 for chance in chances):
            return "holds a chance that is not a number from 0 to 1"
    if isinstance(value, (list, Mapping)):
        return None
    if key in NAMES:
        return f"is {value!r}, not a name"
    if isinstance(value, float) and not math.isfinite(value):
        return f"is {value}, not a finite number"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= LARGEST:
        return f"is a number of {len(str(abs(value)))} digits, more than any count"
    rate = key in RATES or key.endswith(("_rate", "_rate_ci95")) or key in CHANCES
    if rate and isinstance(value, (int, float)) and not isinstance(value, bool) and not 0 <= value <= 1:
        return f"is {value!r}, not a rate from 0 to 1"
    return None


def _rules_tables(report: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """The report's rules: `rules`, or its config's."""
    config = report.get("config")
    inner = config.get("rules") if isinstance(config, Mapping) else None
    found = [("rules", report.get("rules")), ("config.rules", inner)]
    for where, table in found:
        if isinstance(table, Mapping):
            yield where, table


def _inconsistencies(report: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """Where the report disagrees with itself, and how: an interval out of order or leaving out its
    point, a tournament's total of games, a rate's objective outside 0 to 1."""
    for where, key, value in _walk(report, ""):
        if isinstance(value, Mapping):
            yield from _intervals(where, value)
        elif not _chosen(where):
            yield from _count(where, key, value)
    totals = report.get("totals")
    if report.get("kind") == "tournament" and isinstance(totals, Mapping):
        games, matchups, each = (totals.get(key) for key in ("games", "matchups", "games_per_matchup"))
        forfeited = totals.get("forfeited", 0)  # games not played (`running.forfeits`)
        if (
            type(games) is int
            and type(matchups) is int
            and type(each) is int
            and type(forfeited) is int
            and games + forfeited != matchups * each
        ):
            less = f" less {forfeited:,} forfeited" if forfeited else ""
            yield "totals.games", f"is {games:,}, not its {matchups:,} matchups times {each:,} games{less}"
    if report.get("kind") == "tune" and report.get("objective") in RATE_OBJECTIVES:
        yield from _rate_objective(report)


def _intervals(where: str, table: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """Each interval (`KEY_ci95`) of a table that is out of order, or leaves out its point (`KEY`)."""
    for key, bounds in table.items():
        if not (isinstance(key, str) and key.endswith("_ci95")):
            continue
        inner = f"{where}.{key}" if where else key
        if not (isinstance(bounds, list) and len(bounds) == 2 and all(map(_number, bounds))):
            yield inner, f"is {bounds!r}, not an interval of two numbers"
        elif bounds[0] > bounds[1]:
            yield inner, f"is {bounds!r}: its low end lies above its high end"
        elif _number(point := table.get(key.removesuffix("_ci95"))) and not bounds[0] <= point <= bounds[1]:
            yield inner, f"is {bounds!r}, which leaves out its own figure {point!r}"


def _chosen(where: str) -> bool:
    """Whether a value is one a strategy writer named (a tune's parameter, its values), not the report's."""
    return where.startswith(("start.", "parameters[")) or ".values." in where


def _count(where: str, key: str, value: Any) -> Iterator[tuple[str, str]]:
    """A count that is not one: a fraction or a negative number (a tally of half wins: negative)."""
    if isinstance(value, list):
        return
    if key in COUNTS and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
        yield where, f"is {value!r}, not a count (a whole number, not negative)"
    if key in TALLIES and (isinstance(value, bool) or not isinstance(value, int | float) or value < 0):
        yield where, f"is {value!r}, not a count (a number, not negative)"


def _rate_objective(report: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """Each figure of a rate's objective (win or shut rate) outside 0 to 1, a difference outside -1 to 1."""
    for where, key, value in _walk(report, ""):
        low = -1 if key.startswith("difference") else 0
        figure = key in OBJECTIVE_FIGURES or key.startswith("difference")
        if figure and not _chosen(where) and _number(value) and not low <= value <= 1:
            yield where, f"is {value!r}, not a {'difference of rates' if low else 'rate'} from {low} to 1"


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
