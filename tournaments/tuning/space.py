"""The parameter ranges a tune searches: `NAME=LOW..HIGH[:STEP]`, whole numbers or floats, each a
list of values, and the grid of every combination of them."""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ConfigError, setting

FLOAT_STEPS = 10
"""A float range without a step is cut into this many steps (one more value) where it makes a grid;
a sampler (`--method optuna`) takes any value of it."""
MOST_VALUES = 10_000
"""The most values one range, or the whole grid of a search that plays a grid, may hold."""
_RANGE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^.:][^:]*?)\s*\.\.\s*([^:]+?)\s*(?::\s*(.+?))?\s*$")
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$", re.ASCII)
Value = int | float
Point = tuple[Value, ...]
"""One candidate: a value for each parameter, in the order the ranges were given."""


@dataclasses.dataclass(frozen=True)
class Parameter:
    """One parameter's range: whole numbers when LOW, HIGH and STEP are, else floats; a float
    range given without a step (`step` None) is continuous."""

    name: str
    low: Value
    high: Value
    step: Value | None
    given: str | None = dataclasses.field(default=None, compare=False)
    """The range as the user wrote it, if it was parsed from their text."""

    @property
    def whole(self) -> bool:
        return isinstance(self.low, int)

    @property
    def continuous(self) -> bool:
        return self.step is None

    @property
    def grid_step(self) -> Value:
        """The step of the grid: STEP, or a continuous range's tenth."""
        return self.step if self.step is not None else (self.high - self.low) / FLOAT_STEPS or 1.0

    def values(self) -> tuple[Value, ...]:
        """Every value from LOW to HIGH by the grid's step (HIGH included when a step lands on it)."""
        step = self.grid_step
        count = math.floor((self.high - self.low) / step + 1e-9) + 1
        if self.whole:
            return tuple(int(self.low + index * step) for index in range(count))
        return tuple(round(self.low + index * step, 12) for index in range(count))

    def text(self) -> str:
        """As given on the command line (or as it would be)."""
        if self.given is not None:
            return self.given
        return f"{self.name}={self.low}..{self.high}" + ("" if self.step is None else f":{self.step}")


def _number(text: str, what: str) -> Value:
    if not _NUMBER.match(text) or not math.isfinite(float(text)):
        raise ConfigError(f"{what} {text!r} is not a number.")
    return float(text) if any(mark in text for mark in ".eE") else int(text)


def parse_parameter(text: str) -> Parameter:
    """`NAME=LOW..HIGH[:STEP]` as a range, or a ConfigError of one sentence saying what is wrong."""
    found = _RANGE.match(text)
    if found is None:
        raise ConfigError(f"{setting('parameters')} {text!r} is not of the form NAME=LOW..HIGH or NAME=LOW..HIGH:STEP.")
    name, low_text, high_text, step_text = found.groups()
    where = f"{setting('parameters')} {name}:"
    low, high = _number(low_text, f"{where} LOW"), _number(high_text, f"{where} HIGH")
    step = None if step_text is None else _number(step_text, f"{where} STEP")
    whole = isinstance(low, int) and isinstance(high, int) and (step is None or isinstance(step, int))
    if not whole:
        low, high = float(low), float(high)
    if step is None and whole:
        step = 1
    return checked(Parameter(name, low, high, step if whole or step is None else float(step), text.strip()), where)


def checked(parameter: Parameter, where: str) -> Parameter:
    """`parameter`, if HIGH is not below LOW, STEP is more than 0 and the range holds at most
    `MOST_VALUES` values; else a ConfigError of one sentence beginning with `where`."""
    low, high, step = parameter.low, parameter.high, parameter.step
    if high < low:
        raise ConfigError(f"{where} HIGH {high} is below LOW {low}.")
    if step is not None and step <= 0:
        raise ConfigError(f"{where} STEP must be more than 0, not {step}.")
    if (high - low) / parameter.grid_step + 1 > MOST_VALUES:
        raise ConfigError(f"{where} the range holds more than {MOST_VALUES:,} values; take a larger STEP.")
    return parameter


def holds(parameter: Parameter, value: Value) -> bool:
    """Whether `value` is one of the range's: a whole number of the grid, a float of the grid (to 1e-9
    of a step), or any float from LOW to HIGH of a continuous range."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return False
    if parameter.whole:
        return (
            isinstance(value, int)
            and parameter.low <= value <= parameter.high
            and (value - parameter.low) % parameter.grid_step == 0
        )
    if not isinstance(value, float) or not parameter.low <= value <= parameter.high:
        return False
    if parameter.step is None:
        return True
    steps = (value - parameter.low) / parameter.step
    return abs(steps - round(steps)) <= 1e-9 * max(1.0, abs(steps))


def parse_parameters(texts: Sequence[str]) -> tuple[Parameter, ...]:
    """Every range given, each parameter once."""
    if not texts:
        raise ConfigError(f"a tune needs at least one {setting('parameters')} NAME=LOW..HIGH.")
    found = tuple(parse_parameter(text) for text in texts)
    names = [one.name for one in found]
    for name in names:
        if names.count(name) > 1:
            raise ConfigError(f"{setting('parameters')} {name} is given more than once.")
    return found


def grid_size(parameters: Sequence[Parameter]) -> int:
    return math.prod(len(one.values()) for one in parameters)


def grid(parameters: Sequence[Parameter]) -> list[Point]:
    """Every combination of the ranges' values, the first parameter's changing slowest; a ConfigError
    of one sentence for more than `MOST_VALUES` of them."""
    if grid_size(parameters) > MOST_VALUES:
        raise ConfigError(
            f"the ranges make more than {MOST_VALUES:,} candidates; take larger steps or fewer parameters "
            f"(or {setting('method', 'optuna')}, which samples them)."
        )
    return list(itertools.product(*(one.values() for one in parameters)))


def corners(parameters: Sequence[Parameter]) -> list[Point]:
    """The lowest values of every range, and the highest: the first and the last point of the grid."""
    return [tuple(one.values()[0] for one in parameters), tuple(one.values()[-1] for one in parameters)]


def values_of(parameters: Sequence[Parameter], point: Point) -> dict[str, Value]:
    return {one.name: value for one, value in zip(parameters, point, strict=True)}


def spec_with(target: str, base: Mapping[str, Any], values: Mapping[str, Value]) -> str:
    """The spec of the strategy `target` with `base`'s parameters, those in `values` replaced."""
    merged = {**base, **values}
    if not merged:
        return target
    return f"{target}({', '.join(f'{key}={value!r}' for key, value in merged.items())})"
