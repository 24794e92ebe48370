"""A tune's report or checkpoint read back (`read_tune`, `tune_of`): its settings and trials, every
value checked as a tune given on the command line would be (the ranges as `-p` checks them, the
figures finite and within the objective's bounds, games and seeds whole and not negative, each
trial's values within the ranges); anything else is a ConfigError of one sentence naming the file."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from shutbox_cli.game import Rules, RulesError

from ..errors import ConfigError
from ..records.checked import read_checked
from ..records.schema import check_schema, rules_mapping
from .records import CONFIRM_GAMES, DEFAULT_GAMES, MAX_REPORT_BYTES, SEARCHES, TUNE_METHODS, Trial, TuneSettings
from .space import Parameter, Value, checked, holds

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$", re.ASCII)


def read_tune(path: str | Path) -> tuple[TuneSettings, tuple[Trial, ...], bool]:
    """The settings and trials of a tune's report (TOML or JSON), and whether it was done; a
    ConfigError of one sentence for a file that is not a tune's report, or holds a value no tune gives."""
    table = read_checked(path, "tune report", MAX_REPORT_BYTES)
    return tune_of(Path(path), table)


def tune_of(path: Path, table: Mapping[str, Any]) -> tuple[TuneSettings, tuple[Trial, ...], bool]:
    """The settings and trials of a tune's report table read from `path` (see `read_tune`)."""
    name = repr(str(path))
    check_schema(f"tune report {name}", table)
    if table.get("kind") != "tune":
        raise ConfigError(f"{name} is not the report of a tune (its kind is {table.get('kind')!r}).")
    try:
        settings = _settings(name, table)
        trials = tuple(_trial(name, settings, one) for one in _listed(table["trial"]))
    except ConfigError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ConfigError(f"{name} is not a whole tune report ({error!r} is missing or wrong).") from None
    return settings, trials, table.get("done", False) is True


def _listed(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError("not a list")
    return value


def _whole(name: str, what: str, value: Any, least: int) -> int:
    """`value`, a whole number `least` or more, else a ConfigError."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ConfigError(f"{name}: its {what} must be a whole number, {least} or more, not {value!r}.")
    return value


def _settings(name: str, table: Mapping[str, Any]) -> TuneSettings:
    search = table["search"]
    if search not in (*SEARCHES.values(), "exhaustive"):
        raise ConfigError(f"{name} names a search shutbox does not know ({search!r}).")
    method = next((key for key, one in SEARCHES.items() if one == search), table["method"])
    spec, field = table["spec"], _listed(table["field"])
    if not isinstance(spec, str) or not all(isinstance(one, str) for one in field) or method not in TUNE_METHODS:
        raise ConfigError(f"{name}: its spec, field or method is not a tune's.")
    seed, trials = table.get("seed"), table.get("trials")
    settings = TuneSettings(
        spec=spec,
        parameters=tuple(_parameter(name, one) for one in _listed(table["parameters"])),
        field=tuple(field),
        rules=rules_mapping(table["rules"]),
        objective=table["objective"],
        method=method,
        games=_whole(name, "games", table.get("games", DEFAULT_GAMES), 2),
        seed=None if seed is None else _whole(name, "seed", seed, 0),
        confirm_games=_whole(name, "confirm_games", table.get("confirm_games", CONFIRM_GAMES), 2),
        trials=None if trials is None else _whole(name, "trials", trials, 1),
    )
    settings.check()
    return settings


def _parameter(name: str, one: Mapping[str, Any]) -> Parameter:
    """A range as the report holds it, checked as `-p` checks it."""
    called, low, high, step = one["name"], one["low"], one["high"], one.get("step")
    if not isinstance(called, str) or not _NAME.match(called):
        raise ConfigError(f"{name}: a parameter's name, {called!r}, is not a name.")
    bounds = (low, high) if step is None else (low, high, step)
    whole = step is not None and all(type(value) is int for value in bounds)
    floats = all(type(value) is float and math.isfinite(value) for value in bounds)
    if not (whole or floats):
        raise ConfigError(
            f"{name}: parameter {called!r} has the range {low!r}..{high!r}"
            f"{'' if step is None else f':{step!r}'}, not whole numbers or finite floats."
        )
    return checked(Parameter(called, low, high, step), f"{name}: parameter {called!r}:")


def _trial(name: str, settings: TuneSettings, one: Mapping[str, Any]) -> Trial:
    values: dict[str, Value] = dict(one["values"])
    names = [parameter.name for parameter in settings.parameters]
    if list(values) != names:
        raise ConfigError(f"{name}: a trial's values are of {', '.join(values)}, not of {', '.join(names)}.")
    for parameter in settings.parameters:
        if not holds(parameter, values[parameter.name]):
            raise ConfigError(
                f"{name}: a trial's {parameter.name}, {values[parameter.name]!r}, is not a value of its range, "
                f"{parameter.text()}."
            )
    objective = _figure(name, settings, one["objective"])
    if "objective_ci95" not in one:
        if any(key in one for key in ("games", "seed")):
            raise ConfigError(f"{name}: a trial with games or a seed has no interval.")
        return Trial(values, objective)
    low, high = (_figure(name, settings, bound, interval=True) for bound in _listed(one["objective_ci95"]))
    if low > high:
        raise ConfigError(f"{name}: a trial's interval, [{low}, {high}], ends below where it starts.")
    games, seed = _whole(name, "trial's games", one["games"], 1), _whole(name, "trial's seed", one["seed"], 0)
    return Trial(values, objective, (low, high), games, seed, _whole(name, "trial's round", one.get("round", 0), 0))


def _figure(name: str, settings: TuneSettings, value: Any, *, interval: bool = False) -> float:
    """A trial's figure: a finite number within the objective's bounds (an interval's ends may pass them)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ConfigError(f"{name}: a trial's {settings.goal} is {value!r}, not a finite number.")
    most = _most(name, settings)
    if not interval and not 0 <= value <= most:
        raise ConfigError(f"{name}: a trial's {settings.goal}, {value!r}, is not within 0..{most:g}.")
    return float(value)


def _most(name: str, settings: TuneSettings) -> float:
    """The highest figure of the objective: a rate's 1, a mean score's every tile open every round
    (unbounded under a drop-out limit)."""
    if settings.goal != "mean-score":
        return 1.0
    try:
        rules = Rules.from_mapping(settings.rules)
    except (RulesError, TypeError, ValueError):
        raise ConfigError(f"{name}: its rules are not rules shutbox plays.") from None
    if rules.drop_out is not None:
        return math.inf
    return float(rules.rounds * rules.scoring.of(range(1, rules.tiles + 1)))
