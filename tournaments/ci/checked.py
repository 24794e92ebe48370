"""A report read for its page, checked as a resume checks a checkpoint: every number finite and no
larger than a tally may hold, every rate and chance between 0 and 1, every name and other text
printable, and its rules a rule set. A report shutbox wrote always passes; a crafted or damaged
one is refused in one sentence (a ConfigError) before any of it reaches a page or a terminal."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

from shutbox_cli.game import Rules, RulesError

from ..errors import ConfigError
from ..results.schema import rules_mapping
from ..running.checkpoint import MAX_COUNT_DIGITS

LARGEST = 10**MAX_COUNT_DIGITS
"""No whole number in a report is this large: a checkpoint's tallies hold fewer digits."""
NAMES = frozenset({"name", "spec", "strategy", "opponent", "baseline", "opponent_spec", "field"})
"""The keys whose values are names or specs: text (or lists and tables of them)."""
RATES = frozenset({"score", "los", "score_ci95"})
"""Rates by a name of their own; any key ending `_rate` (or `_rate_ci95`) is one too."""
CHANCES = frozenset({"distribution", "margins"})
"""Tables of chances, by value."""


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
