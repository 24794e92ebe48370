"""A tournament's configuration: from a TOML file, from command-line options, or both.

Options override the file. A report written by `shutbox tournament --report` keeps the
configuration it ran under in its `[config]` table, so a report is also a config file:
the loader reads `[config]` and ignores the result sections beside it (a report's rules write
"no drop-out limit" as `drop_out = 0`, read back as no limit). Every mistake is
a `ConfigError` of one sentence naming the file and key, or the option as it is typed
(`--tiles`), that the wrong value came from.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from shutbox_cli.game import Rules, RulesError
from shutbox_cli.game.terms import Seed
from strategies.loading import (
    LoadedStrategy,
    StrategyLoadError,
    load_strategy,
    source_file,
    source_sha256,
    spec_file,
    split_name,
    split_spec,
)

from ..errors import ConfigError
from ..files import read_document
from ..referee.confine import MAX_WORKERS_PER_CORE, MIN_MEMORY_LIMIT_MIB, cores, max_workers
from ..referee.isolation import Probed, probe
from ..referee.isolation import memory_limit as memory_limit_of_hosts
from ..referee.tamper import builtin_spec, fingerprint, suspects
from ..results.schema import HEADER_KEYS, Method, check_schema, rules_mapping, rules_table

DEFAULT_GAMES = 2000
"""Games per matchup when none is given."""
DEFAULT_TABLE = 2
DEFAULT_TIMEOUT = 120.0
"""Seconds one work unit may take before the run stops as stuck."""
LOCAL_SCHEDULER = "local"
"""The scheduler "address" that starts a Dask cluster of this machine's cores for the run."""
_ADDRESS = re.compile(r"(?:[a-z]+://)?(?:\[[0-9a-fA-F:.]+\]|[^\s/:\[\]]+):[0-9]{1,5}")

DEFAULT_FIELD = ("greedy-high", "optimal", "max-shut", "tips", "random", "fewest-tiles")
"""The default tournament's strategies, all built in: the sources' computer player, the two
exact optima (lowest expected score, best chance to shut), the sources' tips, the know-nothing
floor and the best plain rule of thumb. Six make 15 matchups, a run of seconds; the other
rules of thumb (most-tiles, lowest-first) only add two players little better than random."""
DEFAULT_EXACT_FIELD = tuple(spec for spec in DEFAULT_FIELD if spec != "random")
"""The default field of an exact tournament: the default one's exact strategies."""

_TOP_KEYS = (
    "seed",
    "games",
    "table",
    "duplicate",
    "workers",
    "scheduler",
    "timeout",
    "memory_limit",
    "isolate",
    "method",
    "rules",
    "strategy",
)
METHODS = ("simulate", "exact")
"""How a tournament finds its results: by playing seeded games, or exactly (exact strategies only)."""
_STRATEGY_KEYS = ("spec", "name", "params", "sha256")
_SHA256 = re.compile(r"[0-9a-f]{64}")
MAX_GAMES = 10**12
"""Games per matchup, at most: any more would take years, and overflow a report's counts."""
MAX_SEED = 2**64 - 1
"""Seeds are taken modulo 2^64 by the dice: a larger one would repeat a smaller one's."""
MAX_TIMEOUT = 86_400
MAX_MATCHUPS = 100_000
"""Matchups are counted before they are built: `--table 13` with 30 strategies would make 10^8."""
MAX_CONFIG_BYTES = 1 << 20
REPORT_CONFIG = "config"
"""The table of a report that holds the configuration it ran under."""


@dataclasses.dataclass(frozen=True)
class StrategyEntry:
    """One strategy of the field: its spec, its parameters, the name it plays under, and its
    nature: exact (its play depends on the open tiles and the dice alone), context-free (it
    does not read the game context, though it may be stochastic) and built in."""

    spec: str
    name: str
    params: Mapping[str, Any]
    exact: bool = False
    context_free: bool = False
    builtin: bool = False
    sha256: str | None = None
    """The sha256 of the source file of a user's strategy, read as it loaded (None: built in, or no file)."""

    def load(self) -> LoadedStrategy:
        """The loaded strategy."""
        return load_strategy(self.spec, self.params, self.name)


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
    scheduler: str | None = None
    memory_limit: int | None = None
    """MiB of memory each worker process may use (None: a default share of the machine's, 0: no limit)."""
    isolate: bool = False
    """Whether each user strategy runs in a process of its own, apart from the referee's code."""
    warnings: tuple[str, ...] = dataclasses.field(default=(), compare=False)
    """One line each, for the face to show: a strategy file whose source differs from the sha256 the file recorded."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(entry.name for entry in self.strategies)


@dataclasses.dataclass(frozen=True)
class Options:
    """What the command line gave (None where an option was not given)."""

    strategies: Sequence[str] = ()
    games: int | None = None
    table: int | None = None
    seed: Seed | None = None
    duplicate: bool | None = None
    workers: int | None = None
    timeout: float | None = None
    scheduler: str | None = None
    rules: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    method: Method | None = None
    memory_limit: int | None = None
    isolate: bool | None = None


def _option_flag(name: str) -> str:
    """How the tournament command spells an option (`drop_out` is `--drop-out`), as every
    shutbox command does (this layer cannot import the face's `rule_options.option_flag`)."""
    return "--" + name.replace("_", "-")


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
    (`shutbox rules --format toml`) without its header. Reports of another kind, or of a newer
    schema, are refused in one sentence."""
    check_schema(str(path), table)
    kind = table.get("kind")
    if kind in ("analysis", "duel", "strategies"):
        raise ConfigError(f"{path} is {'an' if kind == 'analysis' else 'a'} {kind} report, not a tournament file.")
    config = table.get(REPORT_CONFIG)
    if isinstance(config, dict):
        return config
    if kind == "rules":
        return {key: value for key, value in table.items() if key not in HEADER_KEYS}
    return table


def _whole(where: str, value: object, least: int, most: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{where} must be a whole number, not {value!r}.")
    if value < least:
        raise ConfigError(f"{where} must be at least {least}, not {value}.")
    if most is not None and value > most:
        raise ConfigError(f"{where} must be at most {most:,}, not {value:,}.")
    return value


def _flag(where: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{where} must be true or false, not {value!r}.")
    return value


def _method(where: str, value: object) -> str:
    if value not in METHODS:
        raise ConfigError(f"{where} must be {' or '.join(map(repr, METHODS))}, not {value!r}.")
    return str(value)


def _seconds(where: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise ConfigError(f"{where} must be a number of seconds above 0, not {value!r}.")
    if value > MAX_TIMEOUT:
        raise ConfigError(f"{where} must be at most {MAX_TIMEOUT:,} seconds (a day), not {value:g}.")
    return float(value)


def _workers(where: str, value: object) -> int:
    """Worker processes: at least one, at most MAX_WORKERS_PER_CORE per core."""
    count = _whole(where, value, 1)
    if count > max_workers():
        raise ConfigError(
            f"{where} must be at most {max_workers()} ({MAX_WORKERS_PER_CORE} per core; this machine has "
            f"{cores()}), not {count:,}."
        )
    return count


def _memory_limit(where: str, value: object) -> int:
    """MiB per worker: 0 (no limit) or at least MIN_MEMORY_LIMIT_MIB."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError(f"{where} must be a whole number of MiB (0 for no limit), not {value!r}.")
    if 0 < value < MIN_MEMORY_LIMIT_MIB:
        raise ConfigError(f"{where} must be 0 (no limit) or at least {MIN_MEMORY_LIMIT_MIB} MiB, not {value}.")
    return value


def _scheduler(where: str, value: object) -> str:
    if not isinstance(value, str) or not (value == LOCAL_SCHEDULER or _ADDRESS.fullmatch(value)):
        raise ConfigError(
            f"{where} must be a Dask scheduler's address such as tcp://HOST:8786, or {LOCAL_SCHEDULER!r} "
            f"for a cluster of this machine's cores, not {value!r}."
        )
    return value


class _Given(NamedTuple):
    """One strategy as the configuration gives it: where (for messages), its spec with any file path
    resolved, its display name, its parameters, the sha256 of its source a file recorded, and its
    spec as the file wrote it."""

    where: str
    spec: str
    name: str | None
    params: dict[str, Any]
    sha256: str | None = None
    written: str | None = None


def _here(path: Path) -> str:
    """A path as the current folder reaches it: relative (every process of the run shares the folder,
    and reports stay the same on every machine), absolute where no relative path leads (another drive)."""
    try:
        return os.path.relpath(path, os.getcwd())
    except ValueError:
        return str(path)


def _resolved(where: str, spec: str, folder: Path) -> str:
    """The spec with a relative strategy file path read from `folder` (the config file's), as the
    current folder reaches it."""
    file = spec_file(spec)
    if file is None or Path(file).expanduser().is_absolute():
        return spec
    path = (folder / file).resolve()
    if not path.is_file():
        raise ConfigError(
            f"{where}: no file {file!r} in {str(folder)!r}; a strategy file's path in a config file or "
            "report is read from the file's own folder."
        )
    return _here(path) + spec.strip()[len(file) :]


def _file_strategies(where: _Where, value: object) -> list[_Given]:
    """The file's `[[strategy]]` tables, file paths read from the file's folder."""
    if not isinstance(value, list):
        raise ConfigError(f"{where.key('strategy')} must be an array of tables ([[strategy]]), not {value!r}.")
    assert where.path is not None
    folder = where.path.parent.resolve()
    found: list[_Given] = []
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
        resolved = _resolved(where.key(key), spec, folder)
        found.append(_Given(where.key(key), resolved, display, params, digest, spec))
    return found


@dataclasses.dataclass(frozen=True)
class _Probing:
    """How a user's strategy is looked at under --isolate: in a short-lived process of its own."""

    timeout: float
    memory_limit_mib: int


def _loaded(spec: str, params: dict[str, Any], display: str | None) -> StrategyEntry:
    """A strategy of the field, loaded in this process."""
    loaded = load_strategy(spec, params, display)
    file = source_file(loaded)
    return StrategyEntry(
        loaded.spec,
        loaded.name,
        dict(loaded.params),
        exact=loaded.cls.tabulable(),
        context_free=not loaded.cls.reads_context,
        builtin=loaded.origin == "built-in",
        sha256=None if file is None else source_sha256(file),
    )


def _probed_sha256(spec: str) -> str | None:
    """The sha256 of a strategy file not imported here (--isolate): the file its spec names, if it names one."""
    file = spec_file(spec)
    return None if file is None else source_sha256(Path(file).expanduser())


def _changed(given: _Given, entry: StrategyEntry, path: Path | None) -> str | None:
    """The warning for a strategy whose source differs from the sha256 the file recorded, if it does."""
    if given.sha256 is None or entry.sha256 is None or entry.sha256 == given.sha256:
        return None
    file = spec_file(given.written) if given.written is not None else None
    file = file or entry.name
    return (
        f"warning: {file} has changed since {path} was written (sha256 {given.sha256[:12]}... then, "
        f"{entry.sha256[:12]}... now); its results may differ."
    )


def _named_as_written(entry: StrategyEntry, given: _Given) -> StrategyEntry:
    """A strategy named by its spec (its class has no name of its own) is named by the spec as the
    file wrote it, not as the current folder reaches it: its name stays the same from any folder."""
    if given.name is not None or given.written is None or given.written.strip() == given.spec.strip():
        return entry
    resolved, written = split_spec(given.spec)[0], split_spec(given.written)[0]
    if not entry.name.startswith(resolved):
        return entry
    return dataclasses.replace(entry, name=written + entry.name[len(resolved) :])


def _load_field(field: list[_Given], rules: Rules, probing: _Probing | None) -> tuple[StrategyEntry, ...]:
    """Load every strategy of the field to check it. Under --isolate (`probing`) a user's strategy
    is probed in a process of its own (all side by side), never imported here; otherwise the
    referee is fingerprinted before the first user's strategy loads, and a user's strategy that
    tampers with it as it loads is named."""
    entries: list[StrategyEntry] = []
    seen: dict[str, int] = {}
    probes: dict[int, Callable[[], Probed]] = {}
    referee = None
    if probing is not None:
        for number, (_, spec, display, params, *_) in enumerate(field, start=1):
            if not builtin_spec(spec):
                probes[number] = _probe(spec, params, display, rules, probing)
    elif not all(builtin_spec(given.spec) for given in field):
        referee = fingerprint(rules)
    for number, (where, spec, display, params, *_) in enumerate(field, start=1):
        if display is not None and not display.isprintable():
            raise ConfigError(f"{where}: the name {display!r} holds control characters; give a printable one.")
        try:
            if number in probes:
                spec, params, name, exact, context_free = probes[number]()
                digest = _probed_sha256(spec)
                entry = StrategyEntry(spec, name, params, exact=exact, context_free=context_free, sha256=digest)
            else:
                entry = _loaded(spec, params, display)
        except StrategyLoadError as error:
            raise ConfigError(f"{where}: {error}") from None
        entry = _named_as_written(entry, field[number - 1])
        if referee is not None and not entry.builtin:
            referee.verify(suspects([entry.name]), "as it loaded")
        if entry.name in seen:
            raise ConfigError(
                f"{where}: the name {entry.name!r} is already taken by strategy {seen[entry.name]}; "
                'give one of them another name (name = "..." in the file, NAME=SPEC on the command line, '
                "or a spec with parameters)."
            )
        seen[entry.name] = number
        entries.append(entry)
    return tuple(entries)


def _probe(
    spec: str, params: dict[str, Any], display: str | None, rules: Rules, probing: _Probing
) -> Callable[[], Probed]:
    """A probe started (see `isolation.probe`); one that cannot start fails when its answer is asked for."""
    try:
        return probe(spec, params, display, rules, timeout=probing.timeout, memory_limit_mib=probing.memory_limit_mib)
    except StrategyLoadError as error:
        failure = error

        def failed() -> Probed:
            raise failure

        return failed


def _isolation(where: str, isolate: bool, method: Method, scheduler: str | None) -> None:
    """--isolate applies to simulated tournaments on this machine's processes."""
    if isolate and method == "exact":
        raise ConfigError(
            f"{where} does not apply to an exact tournament, which computes from every strategy's table in "
            "this process; isolate a simulated one."
        )
    if isolate and scheduler is not None:
        raise ConfigError(
            f"{where} and a Dask scheduler do not go together: a cluster's workers load every strategy "
            "themselves; isolate a run on this machine's processes."
        )


def _rules(where: _Where, file_rules: object, option_rules: Mapping[str, Any]) -> Rules:
    """The file's `[rules]` (valid on their own) with the rule options over them."""
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
    `--tiles` for an option, `FILE: [rules] tiles` for a key of the file."""
    try:
        return Rules.from_mapping(rules_mapping(table))
    except RulesError as error:
        if where.path is None or (error.options and all(name in given for name in error.options)):
            raise ConfigError(error.spelled(_option_flag)) from None
        message = error.spelled(lambda name: _option_flag(name) if name in given else f"[rules] {name}")
        raise ConfigError(f"{where.path}: {message if error.options else '[rules] ' + message}") from None


def _where_to_run(where: _Where, table: Mapping[str, Any], options: Options) -> tuple[int | None, str | None]:
    """Worker processes or a Dask scheduler, not both; an option overrides the file's other key."""
    if options.workers is not None and options.scheduler is not None:
        raise ConfigError(
            f"{_option_flag('workers')} and {_option_flag('scheduler')} do not go together: the first sets "
            "this machine's worker processes, the second runs on a Dask cluster; give one of them."
        )
    if options.workers is not None:
        return _workers(_option_flag("workers"), options.workers), None
    if options.scheduler is not None:
        return None, _scheduler(_option_flag("scheduler"), options.scheduler)
    if "workers" in table and "scheduler" in table:
        raise ConfigError(
            f"{where.key('workers')} and key 'scheduler' do not go together: the first sets this machine's "
            "worker processes, the second runs on a Dask cluster; keep one of them."
        )
    workers = _workers(where.key("workers"), table["workers"]) if "workers" in table else None
    scheduler = _scheduler(where.key("scheduler"), table["scheduler"]) if "scheduler" in table else None
    return workers, scheduler


def load_config(path: Path | None, options: Options, table: Mapping[str, Any] | None = None) -> TournamentConfig:
    """Build and check a configuration: the file (if any) with the options over it.

    With neither a file nor `--strategy`, the field is the default one. `table` is the file's
    table when the caller has read it already (a checkpoint's `[config]`); `path` then names it.
    """
    if table is None:
        table = read_table(path) if path is not None else {}
    where = _Where(path)

    def pick(key: str, given: object, check: Any, *extra: Any) -> Any:
        if given is not None:
            return check(_option_flag(key), given, *extra)
        if key in table:
            return check(where.key(key), table[key], *extra)
        return None

    rules = _rules(where, table.get("rules"), options.rules)
    games = pick("games", options.games, _whole, 1, MAX_GAMES) or DEFAULT_GAMES
    size = pick("table", options.table, _whole, 1) or DEFAULT_TABLE
    seed = pick("seed", options.seed, _whole, 0, MAX_SEED)
    duplicate = pick("duplicate", options.duplicate, _flag)
    workers, scheduler = _where_to_run(where, table, options)
    timeout = pick("timeout", options.timeout, _seconds) or DEFAULT_TIMEOUT
    method: Method = pick("method", options.method, _method) or "simulate"
    memory_limit = pick("memory_limit", options.memory_limit, _memory_limit)
    isolate = pick("isolate", options.isolate, _flag)
    if method == "exact":
        given = [_option_flag(key) for key in ("games", "seed") if getattr(options, key) is not None]
        if given:
            raise ConfigError(
                f"{' and '.join(given)} {'does' if len(given) == 1 else 'do'} not apply to an exact tournament: "
                "it deals no games, it computes every seating's chances."
            )

    field: list[_Given]
    if options.strategies:
        field = [
            _Given(f"{_option_flag('strategy')} {text!r}", spec, name, {})
            for text, (name, spec) in zip(options.strategies, map(split_name, options.strategies), strict=True)
        ]
    elif "strategy" in table:
        field = _file_strategies(where, table["strategy"])
    elif path is None:
        default = DEFAULT_EXACT_FIELD if method == "exact" else DEFAULT_FIELD
        field = [_Given(f"default strategy {spec!r}", spec, None, {}) for spec in default]
    else:
        field = []
    if not field:
        source = where.key("strategy") if path is not None else _option_flag("strategy")
        raise ConfigError(f"{source}: no strategies are given; add [[strategy]] tables or --strategy SPEC.")
    isolate = bool(isolate)
    _isolation(_option_flag("isolate") if options.isolate else where.key("isolate"), isolate, method, scheduler)
    probing = _Probing(timeout, memory_limit_of_hosts(memory_limit, workers)) if isolate else None
    strategies = _load_field(field, rules, probing)

    if size > len(strategies):
        if options.table is not None:
            source = _option_flag("table")
        elif "table" in table:
            source = where.key("table")
        else:
            source = "the table size (by default)"
        raise ConfigError(
            f"{source} is {size}, more players than the field's {len(strategies)} "
            f"{'strategy' if len(strategies) == 1 else 'strategies'}; a table seats each strategy once "
            "(table = 1 plays solo)."
        )
    matchups = math.comb(len(strategies), size)
    if matchups > MAX_MATCHUPS:
        raise ConfigError(
            f"{len(strategies)} strategies at tables of {size} make {matchups:,} matchups, more than the "
            f"{MAX_MATCHUPS:,} a tournament plays; enter fewer strategies or seat fewer at a table."
        )
    return TournamentConfig(
        strategies=strategies,
        rules=rules,
        games=games,
        table=size,
        duplicate=True if duplicate is None else duplicate,
        seed=seed,
        workers=workers,
        timeout=timeout,
        method=method,
        scheduler=scheduler,
        memory_limit=memory_limit,
        isolate=isolate,
        warnings=tuple(
            line
            for given, entry in zip(field, strategies, strict=True)
            if (line := _changed(given, entry, path)) is not None
        ),
    )


def config_table(config: TournamentConfig, folder: Path | None = None) -> dict[str, Any]:
    """The configuration as a TOML table that `load_config` reads back to the same tournament, from
    a file in `folder` (None: the current folder): a relative strategy file path is written relative
    to it, and a user's strategy with a source file has its sha256.

    Workers, the scheduler, the timeout, the memory limit and isolation are left out: they decide how
    a run goes, not what it finds; so are the seed and the number of games of an exact tournament, which deals no games.
    """
    strategies = []
    for entry in config.strategies:
        item: dict[str, Any] = {"spec": recorded_spec(entry.spec, folder), "name": entry.name}
        if entry.params:
            item["params"] = dict(entry.params)
        if entry.sha256 is not None:
            item["sha256"] = entry.sha256
        strategies.append(item)
    table = {
        "seed": config.seed,
        "games": config.games,
        "table": config.table,
        "duplicate": config.duplicate,
        "method": config.method,
        "rules": rules_table(config.rules),
        "strategy": strategies,
    }
    if config.method == "exact":
        del table["seed"], table["games"]
    return table


def recorded_spec(spec: str, folder: Path | None) -> str:
    """A spec as a file in `folder` records it: a relative strategy file path made relative to that folder."""
    file = spec_file(spec)
    if folder is None or file is None or Path(file).expanduser().is_absolute():
        return spec
    try:
        moved = os.path.relpath(Path(file).resolve(), Path(folder).resolve())
    except ValueError:
        moved = str(Path(file).resolve())
    try:
        moved.encode()
    except UnicodeEncodeError:  # a folder on the way is named in another encoding than UTF-8
        raise ConfigError(
            f"the path from {folder} to strategy file {file} is not valid UTF-8, which reports are written in."
        ) from None
    return moved + spec.strip()[len(file) :]
