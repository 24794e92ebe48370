"""Gates: conditions on a tournament's results that fail a CI run (`--fail-if`).

A gate names the condition that *fails* the run. Its grammar:

    tournament:  NAME.KEY OP NUMBER          optimal.win_rate < 0.5, mybot.rank > 2
    compare:     NAME.KEY.FIGURE OP NUMBER   mybot.win_rate.change < -0.02, mybot.mean_score.new > 12
                 NAME.KEY WORD               mybot.win_rate drops, mybot.mean_score rises

NAME is a strategy's name as its ranking shows it, or `*` for every strategy (in both reports,
for compare). KEY is a figure of its ranking entry: for a tournament any of `TOURNAMENT_KEYS`,
for compare `win_rate` or `mean_score`. OP is one of < <= > >= == !=; NUMBER a decimal number
(0.5, -0.02, 1e-3). FIGURE is `old`, `new` or `change` (new - old). WORD is `drops` (a
significant fall: the 95% interval of the change is below 0), `rises` (above 0) or `changes`
(either). A lower mean score is better, so `mybot.mean_score rises` is a significant worsening.
"""

from __future__ import annotations

import dataclasses
import math
import operator
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from strategies.shown import did_you_mean

from ..errors import ConfigError, setting
from .compare import COMPARED, Change, Comparison

TOURNAMENT_KEYS = ("rank", "games", "wins", "win_rate", "turns", "mean_score", "mean_total", "shut_rate", "mean_rounds")
"""The figures of a ranking entry a tournament gate may test."""
FIGURES = ("old", "new", "change")
WORDS = ("drops", "rises", "changes")
EVERY = "*"
OPERATORS: dict[str, Callable[[float, float], bool]] = {
    "<=": operator.le,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    ">": operator.gt,
}
_TEST = re.compile(r"(?P<subject>.+?)\s*(?P<op><=|>=|==|!=|<|>)\s*(?P<number>[^\s<>=!]+)\s*", re.DOTALL)
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_WORD = re.compile(rf"(?P<subject>.+?)\s+(?P<word>{'|'.join(WORDS)})\s*", re.DOTALL)
_SIGNIFICANT: dict[str, Callable[[Change], bool]] = {
    "drops": lambda change: change.significant and change.change < 0,
    "rises": lambda change: change.significant and change.change > 0,
    "changes": lambda change: change.significant,
}


class GateError(ConfigError):
    """A gate that cannot be read, or names no strategy of the run; the message is one sentence."""


@dataclasses.dataclass(frozen=True)
class Gate:
    """One parsed gate: the strategy's name (or `*`), the figure, and either a comparison with a
    number (`op`, `number`, and for compare a `figure`) or a word (`drops`, ...)."""

    text: str
    name: str
    key: str
    op: str | None = None
    number: float = 0.0
    figure: str | None = None
    word: str | None = None

    def holds(self, value: float) -> bool:
        """Whether the comparison holds for this value (the gate then fails the run)."""
        assert self.op is not None
        return OPERATORS[self.op](value, self.number)


def _flag(text: str) -> str:
    return f"{setting('fail_if')} {text!r}"


def _number(text: str, gate: str) -> float:
    """A gate's NUMBER: a decimal number in ASCII digits (`float` would also take `١`, `1_0` or `inf`)."""
    if not _DECIMAL.fullmatch(text) or not math.isfinite(number := float(text)):
        raise GateError(f"{_flag(gate)} compares with {text!r}, which is not a number such as 0.5 or -0.02.")
    return number


def _key(key: str, keys: Sequence[str], gate: str) -> str:
    if key not in keys:
        raise GateError(f"{_flag(gate)} tests {key!r}; a gate tests one of {', '.join(keys)}.")
    return key


def _name(name: str, gate: str) -> str:
    if not name.strip():
        raise GateError(f"{_flag(gate)} names no strategy; write NAME.KEY, such as optimal.win_rate.")
    return name.strip()


def parse_tournament_gate(text: str) -> Gate:
    """A tournament gate, `NAME.KEY OP NUMBER`; GateError if it is not one."""
    found = _TEST.fullmatch(text)
    if found is None or "." not in found["subject"]:
        raise GateError(
            f'{_flag(text)} is not a gate of the form NAME.KEY OP NUMBER, such as "optimal.win_rate < 0.5".'
        )
    name, _, key = found["subject"].rpartition(".")
    return Gate(text, _name(name, text), _key(key, TOURNAMENT_KEYS, text), found["op"], _number(found["number"], text))


def parse_compare_gate(text: str) -> Gate:
    """A compare gate, `NAME.KEY.FIGURE OP NUMBER` or `NAME.KEY WORD`; GateError if it is not one."""
    word = _WORD.fullmatch(text)
    if word is not None and "." in word["subject"]:
        name, _, key = word["subject"].rpartition(".")
        return Gate(text, _name(name, text), _key(key, COMPARED, text), word=word["word"])
    found = _TEST.fullmatch(text)
    if found is None or found["subject"].count(".") < 2:
        raise GateError(
            f"{_flag(text)} is not a gate of the form NAME.KEY.FIGURE OP NUMBER or NAME.KEY WORD, such as "
            f'"mybot.win_rate.change < -0.02" or "mybot.win_rate drops".'
        )
    rest, _, figure = found["subject"].rpartition(".")
    name, _, key = rest.rpartition(".")
    if figure not in FIGURES:
        raise GateError(f"{_flag(text)} tests the figure {figure!r}; a compare gate tests {', '.join(FIGURES)}.")
    return Gate(text, _name(name, text), _key(key, COMPARED, text), found["op"], _number(found["number"], text), figure)


def check_names(gates: Iterable[Gate], names: Sequence[str]) -> None:
    """Every gate names a strategy of the run (or `*`); GateError naming the first that does not."""
    for gate in gates:
        if gate.name != EVERY and gate.name not in names:
            raise GateError(
                f"{_flag(gate.text)} names no strategy of this run{did_you_mean(gate.name, names)}; its strategies "
                f"are {', '.join(names)}."
            )


def _shown(value: float) -> str:
    return f"{value:.6g}"


def _failed(gate: Gate, name: str, why: str) -> str:
    """The line of a failed gate; one of `*` names the strategy it failed for."""
    which = f" for {name}" if gate.name == EVERY else ""
    return f"gate failed: {gate.text.strip()}{which} ({why})"


def tournament_failures(gates: Iterable[Gate], ranking: Sequence[Mapping[str, Any]]) -> list[str]:
    """One line per gate that fails on a report's ranking, `*` tried on every strategy. A figure the
    report does not hold (a win rate at solo tables) fails its gate: a gate never passes unchecked."""
    lines = []
    for gate in gates:
        for entry in ranking:
            if gate.name not in (EVERY, entry["name"]):
                continue
            value = entry.get(gate.key)
            if not isinstance(value, int | float):
                lines.append(_failed(gate, entry["name"], f"the report has no {gate.key} for it"))
            elif gate.holds(value):
                lines.append(_failed(gate, entry["name"], f"it is {_shown(value)}"))
    return lines


def compare_failures(gates: Iterable[Gate], comparison: Comparison) -> list[str]:
    """One line per gate that fails on a comparison, `*` tried on every strategy in both reports."""
    lines = []
    for gate in gates:
        for strategy in comparison.strategies:
            if gate.name not in (EVERY, strategy.name):
                continue
            change = strategy.figures.get(gate.key)
            if change is None:
                lines.append(_failed(gate, strategy.name, f"the reports do not both have its {gate.key}"))
            elif gate.word is not None:
                if _SIGNIFICANT[gate.word](change):
                    interval = f"95% CI {_shown(change.low)} to {_shown(change.high)}"
                    lines.append(_failed(gate, strategy.name, f"it changed by {_shown(change.change)}, {interval}"))
            else:
                value = {"old": change.old, "new": change.new, "change": change.change}[str(gate.figure)]
                if gate.holds(value):
                    lines.append(_failed(gate, strategy.name, f"it is {_shown(value)}"))
    return lines
