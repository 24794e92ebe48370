"""The field: the strategies that enter a tournament, as the configuration gives them (`Given`):
a built-in one loaded here, a user's probed in a process of its own (isolation) and never imported
here; each named, and a user's fingerprinted: the sha256 of its source file, which tells a later
run (a resume, a report read back as a config) whether the file has changed since.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from shutbox_cli.game import Rules
from strategies.keys import declared_key
from strategies.loading import (
    LoadedStrategy,
    StrategyLoadError,
    builtin_spec,
    load_strategy,
    source_sha256,
    spec_file,
    split_spec,
)

from ..errors import ConfigError, marked
from ..referee import idle
from ..referee.confinement import module_file

if TYPE_CHECKING:
    from ..referee.isolation import Host, Probed

DEFAULT_FIELD = ("greedy-high", "optimal", "max-shut", "tips", "random", "fewest-tiles")
"""The default tournament's strategies, all built in: the sources' computer player, the two
exact optima (lowest expected score, best chance to shut), the sources' tips, the know-nothing
floor and the best plain rule of thumb. Six make 15 matchups, a run of seconds; the other
rules of thumb (most-tiles, lowest-first) only add two players little better than random."""
DEFAULT_EXACT_FIELD = tuple(spec for spec in DEFAULT_FIELD if spec != "random")
"""The default field of an exact tournament: the default one's exact strategies."""


@dataclasses.dataclass(frozen=True)
class StrategyEntry:
    """One strategy of the field: its spec, its parameters, the name it plays under, and its
    nature: exact (its play depends on the open tiles and the dice alone), context-free (it
    does not read the game context, though it may be stochastic) and built in; and where it
    comes from (`LoadedStrategy.origin`: built-in, a package, a module or a file)."""

    spec: str
    name: str
    params: Mapping[str, Any]
    exact: bool = False
    context_free: bool = False
    builtin: bool = False
    sha256: str | None = None
    """The sha256 of the source file of a user's strategy, read as it loaded (None: built in, or no file)."""
    origin: str = ""
    key: tuple[str, ...] | None = None
    """The features a user's keyed strategy declares under the rules (a built-in's: `plan` asks its class)."""

    def load(self) -> LoadedStrategy:
        """The strategy loaded in this process: for a built-in one only, whose code the referee
        trusts (a user's is loaded in a host, `isolation.Host`)."""
        return load_strategy(self.spec, self.params, self.name)


class Given(NamedTuple):
    """One strategy as the configuration gives it: where (for messages), its spec with any file path
    resolved, its display name, its parameters, the sha256 of its source a file recorded, and its
    spec as the file wrote it."""

    where: str
    spec: str
    name: str | None
    params: dict[str, Any]
    sha256: str | None = None
    written: str | None = None


@dataclasses.dataclass(frozen=True)
class Probing:
    """How a user's strategy is looked at: in a short-lived process of its own."""

    timeout: float
    memory_limit_mib: int


def default_field(exact: bool) -> list[Given]:
    """The default field, of an exact tournament or a simulated one."""
    return [
        Given(f"default strategy {spec!r}", spec, None, {})
        for spec in (DEFAULT_EXACT_FIELD if exact else DEFAULT_FIELD)
    ]


def resolved(where: str, spec: str, folder: Path) -> str:
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


def _here(path: Path) -> str:
    """A path as the current folder reaches it: relative (every process of the run shares the folder,
    and reports stay the same on every machine), absolute where no relative path leads (another drive)."""
    try:
        return os.path.relpath(path, os.getcwd())
    except ValueError:
        return str(path)


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


def load_field(
    field: Sequence[Given], rules: Rules, probing: Probing, table: int | None = None
) -> tuple[tuple[StrategyEntry, ...], tuple[str, ...]]:
    """Load every strategy of the field to check it: a built-in one here, a user's probed in a
    process of its own (all side by side, `probing` saying how), never imported here; each host a
    probe loaded is kept idle for a run in this process (`idle`). Two strategies named alike are
    named apart where they can be (`named_apart`): the entries, and a note for each renamed pair."""
    probes: dict[int, Callable[[], Probed]] = {}
    for number, (where, spec, display, params, *_) in enumerate(field, start=1):
        if not builtin_spec(spec):
            try:
                split_spec(spec)  # a spec that does not parse is said here, with no process started
            except StrategyLoadError as error:
                raise ConfigError(f"{where}: {marked(error)}") from None
            probes[number] = _probe(spec, params, display, rules, probing)
    try:
        return named_apart(field, _entries(field, probes, rules, table))
    except BaseException:
        idle.stop_all()  # the hosts of the probes that answered: no run follows
        raise


def _entries(
    field: Sequence[Given], probes: Mapping[int, Callable[[], Probed]], rules: Rules, table: int | None = None
) -> list[StrategyEntry]:
    """The field's entries, each probe's answer waited for in turn (a built-in's key asked under the
    rules, and at the table where given: one that refuses them, `perfect` over several rounds at a
    table of three, says so)."""
    entries: list[StrategyEntry] = []
    for number, (where, spec, display, params, *_) in enumerate(field, start=1):
        if display is not None and not display.isprintable():
            raise ConfigError(f"{where}: the name {display!r} holds control characters; give a printable one.")
        try:
            entry = _probed(probes[number]()) if number in probes else _loaded(spec, params, display)
            if entry.builtin:
                cls = entry.load().cls
                if table is not None:
                    cls.key_at(rules, table)  # first: a table it refuses is said before anything is solved
                declared_key(cls, rules, entry.name)
        except StrategyLoadError as error:
            raise ConfigError(f"{where}: {marked(error)}") from None
        entries.append(_named_as_written(entry, field[number - 1]))
    return entries


def named_apart(
    field: Sequence[Given], entries: Sequence[StrategyEntry]
) -> tuple[tuple[StrategyEntry, ...], tuple[str, ...]]:
    """Each strategy under a name of its own. Strategies that their classes name alike (versions of
    one strategy, say), none named by the configuration, are named by their specs as written when
    those differ, and a note says so; any other clash is a ConfigError naming two of them."""
    named = list(entries)
    notes: list[str] = []
    alike: dict[str, list[int]] = {}
    for at, entry in enumerate(entries):
        alike.setdefault(entry.name, []).append(at)
    for name, places in alike.items():
        if len(places) < 2:
            continue
        specs = _by_spec([field[at] for at in places])
        if specs is None:
            raise _taken(field, name, places[0], places[1])
        for at, spec in zip(places, specs, strict=True):
            named[at] = dataclasses.replace(named[at], name=spec)
        numbers, names = _listed([str(at + 1) for at in places]), _listed([repr(spec) for spec in specs])
        notes.append(
            f"note: strategies {numbers} are {'both' if len(places) == 2 else 'all'} named {name!r}; they play as "
            f'{names} (NAME=SPEC, or name = "..." in a file, gives a name of your own).'
        )
    seen: dict[str, int] = {}
    for at, entry in enumerate(named):  # a spec taken as a name may be another strategy's name
        if entry.name in seen:
            raise _taken(field, entry.name, seen[entry.name], at)
        seen[entry.name] = at
    return tuple(named), tuple(notes)


def _listed(words: Sequence[str]) -> str:
    """`a, b and c`."""
    return ", ".join(words[:-1]) + f" and {words[-1]}"


def _by_spec(given: Sequence[Given]) -> list[str] | None:
    """The names strategies named alike take apart: their specs as written, if none is named by the
    configuration and the specs all differ; else None."""
    specs = [(one.written or one.spec).strip() for one in given]
    if any(one.name is not None for one in given) or len(set(specs)) < len(specs):
        return None
    return specs if all(spec.isprintable() for spec in specs) else None


def _taken(field: Sequence[Given], name: str, first: int, second: int) -> ConfigError:
    return ConfigError(
        f"{field[second].where}: the name {name!r} is already taken by {field[first].where}; "
        'give one of them another name (name = "..." in the file, NAME=SPEC on the command line, '
        "or a spec with parameters)."
    )


def changes(field: Sequence[Given], entries: Sequence[StrategyEntry], path: Path | None) -> tuple[str, ...]:
    """A warning for each strategy whose source differs from the sha256 the file at `path` recorded."""
    return tuple(line for given, entry in zip(field, entries, strict=True) if (line := _changed(given, entry, path)))


def _loaded(spec: str, params: dict[str, Any], display: str | None) -> StrategyEntry:
    """A built-in strategy of the field, loaded in this process."""
    loaded = load_strategy(spec, params, display)
    return StrategyEntry(
        loaded.spec,
        loaded.name,
        dict(loaded.params),
        exact=loaded.cls.tabulable(),
        context_free=not (loaded.cls.reads_context or loaded.cls.key),
        builtin=True,
        origin=loaded.origin,
    )


def _probe(
    spec: str, params: dict[str, Any], display: str | None, rules: Rules, probing: Probing
) -> Callable[[], Probed]:
    """A probe started (see `isolation.probe`); one that cannot start fails when its answer is asked for."""
    from ..referee.isolation import probe  # the hosts' code, loaded only for a field with a user's strategy

    timeout, limit = probing.timeout, probing.memory_limit_mib

    def kept(host: Host, found: Probed) -> None:  # for a run in this process to take
        idle.keep(idle.key(found.spec, found.params, found.name, rules, timeout, limit), host)

    try:
        return probe(spec, params, display, rules, timeout=timeout, memory_limit_mib=limit, kept=kept)
    except StrategyLoadError as error:
        failure = error

        def failed() -> Probed:
            raise failure

        return failed


def _probed(probed: Probed) -> StrategyEntry:
    """A user's strategy of the field as its host found it. Its sha256 is read here, never taken from
    its host: from the file its spec names, or the module's file found on the import path without
    running it (None where it cannot be found so: its table is then never kept)."""
    file = spec_file(probed.spec)
    found = Path(file).expanduser() if file is not None else module_file(probed.spec, sys.path)
    digest = None if found is None else source_sha256(found)
    return StrategyEntry(
        probed.spec,
        probed.name,
        probed.params,
        exact=probed.exact,
        context_free=probed.context_free,
        sha256=digest,
        origin=probed.origin,
        key=probed.key,
    )


def _changed(given: Given, entry: StrategyEntry, path: Path | None) -> str | None:
    """The warning for a strategy whose source differs from the sha256 the file recorded, if it does."""
    if given.sha256 is None or entry.sha256 is None or entry.sha256 == given.sha256:
        return None
    file = spec_file(given.written) if given.written is not None else None
    file = file or entry.name
    return (
        f"warning: {file} has changed since {path} was written (sha256 {given.sha256[:12]}... then, "
        f"{entry.sha256[:12]}... now); its results may differ."
    )


def _named_as_written(entry: StrategyEntry, given: Given) -> StrategyEntry:
    """A strategy named by its spec (its class has no name of its own) is named by the spec as the
    file wrote it, not as the current folder reaches it: its name stays the same from any folder."""
    if given.name is not None or given.written is None or given.written.strip() == given.spec.strip():
        return entry
    resolved_spec, written = split_spec(given.spec)[0], split_spec(given.written)[0]
    if not entry.name.startswith(resolved_spec):
        return entry
    return dataclasses.replace(entry, name=written + entry.name[len(resolved_spec) :])
