"""A tournament's settings: from a TOML file, from options (`Options`: the command line's, or a
library caller's), or both; each checked, and written back into reports (`config_table`).

Options override the file. A report written by `shutbox tournament --report` keeps the
configuration it ran under in its `[config]` table, so a report is also a config file:
the loader reads `[config]` and ignores the result sections beside it (a report's rules write
"no drop-out limit" as `drop_out = 0`, read back as no limit). Every mistake is
a `ConfigError` of one sentence naming the file and key, or the setting given as an option
(`tiles`, which the command line spells `--tiles`), that the wrong value came from.

Each setting is one row of `SETTINGS` (its check, its default, whether it decides what a run
finds), and a field of `Options` and of `TournamentConfig`. The strategies of the field are
loaded and probed in `entries`; a value is checked in `values`.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from shutbox_cli.game import Rules, RulesError
from shutbox_cli.game.terms import Seed
from strategies import Strategy
from strategies.loading import StrategyLoadError, spec_of, split_name

from ..errors import ConfigError, setting
from ..files import read_document
from ..records.checked import check_ranges
from ..records.schema import HEADER_KEYS, Method, check_schema, rules_mapping, rules_table
from ..referee.confine import host_memory_limit
from . import values
from .entries import Given, Probing, StrategyEntry, changes, default_field, load_field, recorded_spec, resolved

DEFAULT_GAMES = 2000
"""Games per matchup when none is given."""
DEFAULT_TABLE = 2
DEFAULT_TIMEOUT = 120.0
"""Seconds one work unit may take before the run stops as stuck."""

ON_FAILURE = ("stop", "forfeit", "disqualify")
"""What a run does when a user's strategy fails: stop (the default), or go on (`running.forfeits`)."""
METHODS = ("simulate", "exact")
"""How a tournament finds its results: by playing seeded games, or exactly (exact strategies only)."""
_STRATEGY_KEYS = ("spec", "name", "params", "sha256")
_SHA256 = re.compile(r"[0-9a-f]{64}")
MAX_GAMES = 10**12
"""Games per matchup, at most: any more would take years, and overflow a report's counts."""
MAX_SEED = 2**64 - 1
"""Seeds are taken modulo 2^64 by the dice: a larger one would repeat a smaller one's."""
MAX_GAUNTLET = 1000
"""The most players of a gauntlet (more than the field holds is refused with the field at hand)."""
MAX_MATCHUPS = 100_000
"""Matchups are counted before they are built: `--table 13` with 30 strategies would make 10^8."""
MAX_CONFIG_BYTES = 1 << 20
REPORT_CONFIG = "config"
"""The table of a report that holds the configuration it ran under."""


@dataclasses.dataclass(frozen=True)
class TournamentConfig:
    """Everything that decides a tournament's results, plus how to run it (workers or a
    Dask scheduler, timeout).

    `seed` is None until one is drawn; `games` is per matchup.
    """

    strategies: tuple[StrategyEntry, ...]
    rules: Rules
    games: int = DEFAULT_GAMES
    table: int = DEFAULT_TABLE
    duplicate: bool = True
    seed: Seed | None = None
    workers: int | None = None
    timeout: float = DEFAULT_TIMEOUT
    method: Method = "simulate"
    gauntlet: int = 0
    """The first `gauntlet` strategies (the players) each meet the rest (the field), which do not meet
    one another; 0: every combination of strategies meets (a round robin)."""
    scheduler: str | None = None
    memory_limit: int | None = None
    """MiB of memory each worker process may use (None: a default share of the machine's, 0: no limit)."""
    on_failure: str = "stop"
    """What the run does when a user's strategy fails: one of `ON_FAILURE` (`running.forfeits`)."""
    warnings: tuple[str, ...] = dataclasses.field(default=(), compare=False)
    """One line each, for the face to show: a strategy file whose source differs from the sha256 the file recorded."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(entry.name for entry in self.strategies)


@dataclasses.dataclass(frozen=True)
class Options:
    """The settings a caller gives, over a config file's: the command line's options, or a library
    caller's (None where one is not given); `strategies` may give Strategy classes and instances as
    well as specs (see `strategies.loading.spec_of`)."""

    strategies: Sequence[str | type[Strategy] | Strategy] = ()
    games: int | None = None
    table: int | None = None
    seed: Seed | None = None
    duplicate: bool | None = None
    workers: int | None = None
    timeout: float | None = None
    scheduler: str | None = None
    rules: Mapping[str, Any] | Rules = dataclasses.field(default_factory=dict)
    """Rule options by name (None: the file's or the default), or a whole `Rules`."""
    method: Method | None = None
    gauntlet: int | None = None
    memory_limit: int | None = None
    on_failure: str | None = None
    isolate: bool | None = None
    """Accepted as True, which is what every run does (a user's strategy always runs in a process of
    its own); False is refused."""


class _Where:
    """Names where a value came from, for error messages."""

    def __init__(self, path: Path | None) -> None:
        self.path = path

    def key(self, key: str) -> str:
        return f"{self.path}: key {key!r}"


def read_table(path: Path) -> dict[str, Any]:
    """The table of a config file (or of a report's `[config]`), TOML or JSON (see `read_document`):
    a regular file of at most MAX_CONFIG_BYTES (a FIFO or a device would never end)."""
    table = read_document(path, "config file", MAX_CONFIG_BYTES)
    table = _config_of(path, table)
    for key in table:
        if key not in _TOP_KEYS:
            raise ConfigError(f"{path}: unknown key {key!r}; the keys are {', '.join(_TOP_KEYS)}.")
    return table


def _config_of(path: Path, table: dict[str, Any]) -> dict[str, Any]:
    """A tournament file's table: the file's own, a tournament report's `[config]`, or a rule set
    (`shutbox rules --format toml`) without its header. Other kinds, or newer schemas, are refused."""
    check_schema(str(path), table)
    kind = table.get("kind")
    if kind in ("analysis", "duel", "tune", "strategies", "explanation", "sheet", "history"):
        article = "an" if kind in ("analysis", "explanation") else "a"
        what = "document, not a tournament report or" if kind == "history" else "report, not a tournament"
        raise ConfigError(f"{path} is {article} {kind} {what} file.")
    config = table.get(REPORT_CONFIG)
    if isinstance(config, dict):
        check_ranges(repr(str(path)), table)  # a report, read as every report is
        return config
    if kind == "rules":
        return {key: value for key, value in table.items() if key not in HEADER_KEYS}
    return table


class _Setting(NamedTuple):
    """A setting of the tournament: how a value is checked (`check(where, value)`, `where` naming
    where it came from), its default, and whether it decides what a run finds (`recorded`: written
    back into a report's `[config]`; a resumed run may not change it)."""

    check: Callable[[str, object], Any]
    default: Any = None
    recorded: bool = False


SETTINGS: dict[str, _Setting] = {
    "seed": _Setting(lambda where, value: values.whole(where, value, 0, MAX_SEED), recorded=True),
    "games": _Setting(lambda where, value: values.whole(where, value, 1, MAX_GAMES), DEFAULT_GAMES, recorded=True),
    "table": _Setting(lambda where, value: values.whole(where, value, 1), DEFAULT_TABLE, recorded=True),
    "duplicate": _Setting(values.flag, True, recorded=True),
    "workers": _Setting(values.workers),
    "scheduler": _Setting(values.scheduler),
    "timeout": _Setting(values.seconds, DEFAULT_TIMEOUT),
    "memory_limit": _Setting(values.memory_limit),
    "method": _Setting(values.one_of(*METHODS), "simulate", recorded=True),
    "gauntlet": _Setting(lambda where, value: values.whole(where, value, 0, MAX_GAUNTLET), 0, recorded=True),
    "on_failure": _Setting(values.one_of(*ON_FAILURE), "stop", recorded=True),
}
"""The tournament's settings, as `Options`, `TournamentConfig` and a config file's keys name them,
in the order they are checked and written; the strategies and the rules are read apart."""
ISOLATE = "isolate"
"""A key a file may still give as true (every run isolates users' strategies), never as false."""
_TOP_KEYS = (*SETTINGS, ISOLATE, "rules", "strategy")
_WHERE_TO_RUN = ("workers", "scheduler")
"""Settings checked together: a run goes on this machine's processes or on a Dask cluster."""
DEALT = ("games", "seed")
"""Settings of the games dealt, which an exact tournament does not deal."""
RESULT_SETTINGS = ("strategies", *(name for name, row in SETTINGS.items() if row.recorded))
"""The options that decide what a run finds (the rule options too): a resumed run refuses them."""


def _file_strategies(where: _Where, value: object) -> list[Given]:
    """The file's `[[strategy]]` tables, file paths read from the file's folder."""
    if not isinstance(value, list):
        raise ConfigError(f"{where.key('strategy')} must be an array of tables ([[strategy]]), not {value!r}.")
    assert where.path is not None
    folder = where.path.parent.resolve()
    found: list[Given] = []
    for number, item in enumerate(value, start=1):
        key = f"strategy[{number}]"
        if not isinstance(item, dict):
            raise ConfigError(f"{where.key(key)} must be a table with a spec, not {item!r}.")
        for name in item:
            if name not in _STRATEGY_KEYS:
                raise ConfigError(
                    f"{where.key(f'{key}.{name}')} is unknown; a strategy has {', '.join(_STRATEGY_KEYS)}."
                )
        spec = item.get("spec")
        if not isinstance(spec, str) or not spec.strip():
            given = "but it is missing" if spec is None else f"not {spec!r}"
            raise ConfigError(f'{where.key(f"{key}.spec")} must be a strategy spec such as "greedy-high", {given}.')
        display = item.get("name")
        if display is not None and (not isinstance(display, str) or not display.strip()):
            raise ConfigError(f"{where.key(f'{key}.name')} must be a non-empty string, not {display!r}.")
        params = item.get("params", {})
        if not isinstance(params, dict):
            raise ConfigError(f"{where.key(f'{key}.params')} must be a table such as {{ margin = 2 }}, not {params!r}.")
        digest = item.get("sha256")
        if digest is not None and not (isinstance(digest, str) and _SHA256.fullmatch(digest)):
            raise ConfigError(f"{where.key(f'{key}.sha256')} must be 64 lowercase hex digits, not {digest!r}.")
        found.append(Given(where.key(key), resolved(where.key(key), spec, folder), display, params, digest, spec))
    return found


def _isolation(where: _Where, table: Mapping[str, Any], options: Options) -> None:
    """`isolate` is what every run does: true is accepted, false refused."""
    if options.isolate is not None:
        refused = None if options.isolate else f"{setting(ISOLATE, False)} is not accepted"
    elif ISOLATE in table:
        refused = None if values.flag(where.key(ISOLATE), table[ISOLATE]) else f"{where.key(ISOLATE)} cannot be false"
    else:
        return
    if refused is not None:
        raise ConfigError(f"{refused}: a user's strategy always runs in a process of its own, apart from the referee.")


def _rules(where: _Where, file_rules: object, option_rules: Mapping[str, Any] | Rules) -> Rules:
    """The file's `[rules]` (valid on their own) with the rule options over them (a whole `Rules`: all of them)."""
    if isinstance(option_rules, Rules):
        option_rules = rules_table(option_rules)
    if file_rules is None:
        file_rules = {}
    if not isinstance(file_rules, dict):
        raise ConfigError(f"{where.key('rules')} must be a table ([rules]), not {file_rules!r}.")
    if file_rules:
        _checked_rules(where, file_rules, {})
    given = {name: value for name, value in option_rules.items() if value is not None}
    return _checked_rules(where, {**file_rules, **given}, given)


def _checked_rules(where: _Where, table: Mapping[str, Any], given: Mapping[str, Any]) -> Rules:
    """Rules from a table, or a ConfigError naming each rule where its value came from:
    the setting (`tiles`) for an option, `FILE: [rules] tiles` for a key of the file."""
    try:
        return Rules.from_mapping(rules_mapping(table))
    except RulesError as error:
        if where.path is None or (error.options and all(name in given for name in error.options)):
            raise ConfigError(error.spelled(setting)) from None
        message = error.spelled(lambda name: setting(name) if name in given else f"[rules] {name}")
        raise ConfigError(f"{where.path}: {message if error.options else '[rules] ' + message}") from None


def _where_to_run(where: _Where, table: Mapping[str, Any], options: Options) -> dict[str, Any]:
    """Worker processes or a Dask scheduler, not both; an option overrides the file's other key."""
    if options.workers is not None and options.scheduler is not None:
        raise ConfigError(
            f"{setting('workers')} and {setting('scheduler')} do not go together: the first sets "
            "this machine's worker processes, the second runs on a Dask cluster; give one of them."
        )
    if options.workers is not None:
        return {"workers": values.workers(setting("workers"), options.workers), "scheduler": None}
    if options.scheduler is not None:
        return {"workers": None, "scheduler": values.scheduler(setting("scheduler"), options.scheduler)}
    if "workers" in table and "scheduler" in table:
        raise ConfigError(
            f"{where.key('workers')} and key 'scheduler' do not go together: the first sets this machine's "
            "worker processes, the second runs on a Dask cluster; keep one of them."
        )
    workers = values.workers(where.key("workers"), table["workers"]) if "workers" in table else None
    scheduler = values.scheduler(where.key("scheduler"), table["scheduler"]) if "scheduler" in table else None
    return {"workers": workers, "scheduler": scheduler}


def _settings(where: _Where, table: Mapping[str, Any], options: Options) -> dict[str, Any]:
    """Every setting of `SETTINGS`, checked: the option's value, else the file's, else the default."""
    values: dict[str, Any] = {}
    for name, row in SETTINGS.items():
        if name in values:
            continue
        if name in _WHERE_TO_RUN:
            values |= _where_to_run(where, table, options)
            continue
        given = getattr(options, name)
        if given is not None:
            values[name] = row.check(setting(name), given)
        elif name in table:
            values[name] = row.check(where.key(name), table[name])
        else:
            values[name] = row.default
    return values


def _field(path: Path | None, table: Mapping[str, Any], options: Options, exact: bool) -> list[Given]:
    """The strategies as the options give them, else as the file does, else the default field."""
    where = _Where(path)
    field: list[Given]
    if options.strategies:
        try:
            texts = [spec_of(strategy) for strategy in options.strategies]
        except StrategyLoadError as error:
            raise ConfigError(str(error)) from None
        field = [
            Given(setting("strategies", text), spec, name, {})
            for text, (name, spec) in zip(texts, map(split_name, texts), strict=True)
        ]
    elif "strategy" in table:
        field = _file_strategies(where, table["strategy"])
    elif path is None:
        field = default_field(exact)
    else:
        field = []
    if not field:
        source = where.key("strategy") if path is not None else setting("strategies")
        raise ConfigError(
            f"{source}: no strategies are given; add [[strategy]] tables or {setting('strategies')} SPEC."
        )
    return field


def load_config(path: Path | None, options: Options, table: Mapping[str, Any] | None = None) -> TournamentConfig:
    """Build and check a configuration: the file (if any) with the options over it.

    With neither a file nor strategies among the options, the field is the default one. `table`
    is the file's table when the caller has read it already (a checkpoint's `[config]`); `path`
    then names it.
    """
    if table is None:
        table = read_table(path) if path is not None else {}
    where = _Where(path)
    rules = _rules(where, table.get("rules"), options.rules)
    values = _settings(where, table, options)
    if values["method"] == "exact":
        given = [setting(key) for key in DEALT if getattr(options, key) is not None]
        given += [setting("on_failure", values["on_failure"])] if values["on_failure"] != "stop" else []
        if given:
            raise ConfigError(
                f"{' and '.join(given)} {'does' if len(given) == 1 else 'do'} not apply to an exact tournament: "
                "it deals no games, it computes every seating's chances."
            )
    _isolation(where, table, options)
    field = _field(path, table, options, values["method"] == "exact")
    probing = Probing(values["timeout"], host_memory_limit(values["memory_limit"], values["workers"]))
    strategies, notes = load_field(field, rules, probing, values["table"])
    _check_size(where, table, options, values["table"], len(strategies))
    _check_gauntlet(values, len(strategies))
    warnings = notes + _staked(rules) + changes(field, strategies, path)
    return TournamentConfig(strategies, rules, **values, warnings=warnings)


def _staked(rules: Rules) -> tuple[str, ...]:
    """A warning where the rules play for a stake: a tournament still ranks by wins."""
    if rules.shut_pays == Rules().shut_pays:
        return ()
    return (
        f"warning: a shut box pays {rules.shut_pays:g} stakes, but a tournament or a match ranks by wins, not "
        "winnings: the stake changes only how perfect plays (solve and fair weigh the winnings).",
    )


def _check_gauntlet(values: Mapping[str, Any], count: int) -> None:
    """A gauntlet's players leave a field to meet, at tables of two or more, in games played."""
    players = values["gauntlet"]
    if not players:
        return
    if players >= count:
        raise ConfigError(
            f"a gauntlet of {players} leaves no field to play: give more than {players} strategies "
            f"(the first {players} play the rest), or {setting('gauntlet')} 0 for a round robin."
        )
    if values["table"] < 2 or values["method"] == "exact":
        raise ConfigError("a gauntlet is played at tables of two or more, simulated, not solo or exact.")


def _check_size(where: _Where, table: Mapping[str, Any], options: Options, size: int, count: int) -> None:
    """A table seats each strategy once, and the matchups are not too many to play."""
    if size > count:
        if options.table is not None:
            source = setting("table")
        elif "table" in table:
            source = where.key("table")
        else:
            source = "the table size (by default)"
        raise ConfigError(
            f"{source} is {size}, more players than the field's {count} "
            f"{'strategy' if count == 1 else 'strategies'}; a table seats each strategy once "
            "(table = 1 plays solo)."
        )
    matchups = math.comb(count, size)
    if matchups > MAX_MATCHUPS:
        raise ConfigError(
            f"{count} strategies at tables of {size} make {matchups:,} matchups, more than the "
            f"{MAX_MATCHUPS:,} a tournament plays; enter fewer strategies or seat fewer at a table."
        )


def config_table(config: TournamentConfig, folder: Path | None = None) -> dict[str, Any]:
    """The configuration as a TOML table that `load_config` reads back to the same tournament, from
    a file in `folder` (None: the current folder): a relative strategy file path is written relative
    to it, and a user's strategy with a source file has its sha256.

    Only the settings that decide what a run finds are written (`RESULT_SETTINGS`), not how it goes
    (workers, the scheduler, the timeout, the memory limit); nor are the seed and the
    number of games of an exact tournament, which deals no games.
    """
    strategies = []
    for entry in config.strategies:
        item: dict[str, Any] = {"spec": recorded_spec(entry.spec, folder), "name": entry.name}
        if entry.params:
            item["params"] = dict(entry.params)
        if entry.sha256 is not None:
            item["sha256"] = entry.sha256
        strategies.append(item)
    table = {name: getattr(config, name) for name in SETTINGS if SETTINGS[name].recorded}
    if not config.gauntlet:  # a round robin, as every report before gauntlets says it
        del table["gauntlet"]
    if config.on_failure == "stop":  # as every report before forfeits says it
        del table["on_failure"]
    if config.method == "exact":
        for name in DEALT:
            del table[name]
    return {**table, "rules": rules_table(config.rules), "strategy": strategies}
