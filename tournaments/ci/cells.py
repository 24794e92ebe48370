"""The parts of a report's Markdown page (`summarize_report`) every kind of report uses: figures as
the page rounds them, table cells, the rules said and the commands that repeat a run (as settings
and commands, which the page's `Words` write: as the library names them, or as the face spells
them on the command line)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from shutbox_cli.game import Rules

from ..errors import Command, Setting
from ..records.schema import rules_table

PERCENT = 2
"""Decimal places of a percentage."""
SCORE = 3
"""Decimal places of a mean score."""
RATING = 1
"""Decimal places of a rating or an Elo difference."""


class Words(NamedTuple):
    """How a page writes the settings (`spell`) and the commands (`write`) it names: by default as
    the library calls them (`drop_out=45`, `tune(resume='t.toml')`); the face's, as the command line
    gives them (`--drop-out 45`, `shutbox tune --resume t.toml`)."""

    spell: Callable[[Setting], str] = str
    write: Callable[[Command], str] = str


def repeat_lines(report: Mapping[str, Any], command: str, *more: str) -> list[str]:
    """How to repeat the run: the seed, the command and `more` lines of commands, as written."""
    seed = f"Seed {report['seed']}, " if "seed" in report else ""
    lines = ["### Repeat", "", f"{seed}shutbox {report['shutbox_version']}:", "", "```sh"]
    return [*lines, command, *more, "```", ""]


def spec_as_typed(spec: str, path: Path) -> str:
    """A spec as typed where the summary is made: a file's path is the report folder's."""
    file, colon, cls = spec.rpartition(":")
    folder = path.parent
    if not colon or not file.endswith(".py") or Path(file).is_absolute() or folder == Path():
        return spec
    return f"{(folder / file).as_posix()}:{cls}"


def rule_settings_of(rules: Mapping[str, Any]) -> list[Setting]:
    """The rules that make these rules, as settings: each rule that differs from the standard game's."""
    standard = rules_table(Rules())
    return [Setting(key, value) for key, value in rules.items() if standard.get(key) != value]


def rules_said(rules: Mapping[str, Any], words: Words) -> str:
    options = " ".join(words.spell(one) for one in rule_settings_of(rules))
    return f"the standard game with {inline_code(options)}" if options else "the standard game"


# Figures and cells.


def interval_said(report: Mapping[str, Any], key: str, digits: int | None = None) -> str:
    bounds = report.get(f"{key}_ci95")
    if bounds is None:
        return "exact"
    return range_percent(bounds) if digits is None else f"{fixed(bounds[0], digits)} to {fixed(bounds[1], digits)}"


def percent_said(value: float) -> str:
    return f"{value * 100:.{PERCENT}f}%"


def signed_percent(value: float) -> str:
    return f"{value * 100:+.{PERCENT}f}%"


def range_percent(bounds: Sequence[float]) -> str:
    return f"{percent_said(bounds[0])} to {percent_said(bounds[1])}"


def rating_said(value: float) -> str:
    return f"{value:+.{RATING}f}"


def range_rating(bounds: Sequence[float]) -> str:
    return f"{rating_said(bounds[0])} to {rating_said(bounds[1])}"


def fixed(value: float, digits: int) -> str:
    return f"{value:.{digits}f}"


def signed_said(value: float) -> str:
    return f"{value:+.4f}"


def count_said(value: float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:,.3f}"


MARKDOWN = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", **{char: "\\" + char for char in "\\`*_[]()#!|~"}})
"""Text from a report as text on the page: HTML's characters as entities, Markdown's escaped."""


def table_cell(text: str) -> str:
    """Text from a report (a name) in a heading or a table cell: never HTML or Markdown of its own;
    a line break a space."""
    return " ".join(str(text).split()).translate(MARKDOWN)


def plain_cell(text: str) -> str:
    """Text of the page's own, or of the command line's (a gate), in a table cell: a pipe escaped,
    a line break a space."""
    return " ".join(text.split()).replace("|", "\\|")


def inline_code(text: str) -> str:
    """Inline code, fenced with more backticks than any run of them in the text."""
    text = " ".join(text.split())
    fence = "`" * (1 + max((len(run) for run in re.findall("`+", text)), default=0))
    return f"{fence} {text} {fence}" if "`" in text else f"`{text}`"
