"""Tamper detection: a strategy loaded in the referee's process must not change how other
matchups are played or counted, so the referee's code and data are fingerprinted before any
user's strategy is loaded and compared after each one loads and after each work unit.

The fingerprint holds every module of shutbox_cli, strategies and tournaments
loaded (and the bulk engine and the built-in strategies, imported first for the purpose), the
standard modules the engine relies on (random, hashlib, math, operator, itertools, dataclasses,
enum, functools, collections, array, json), builtins and numpy's namespace; each one's
`sys.modules` entry, namespace, the namespaces of the classes it defines (so a method patched
on `random.Random` shows), its functions' code, defaults and closures, and the contents of its
module-level dicts, lists and arrays. Per rule set: the rules' fields (also one set through
`object.__setattr__`) and the tables cached for them (scores, dice options, legal moves, tiles).
Per run: the turn tables exact strategies play from in bulk. A check is a few list and dict
comparisons in C (identity first), a few hundred microseconds; only a mismatch is described.
It catches a strategy that patches the referee, not one that patches this check itself: that
is what --isolate is for.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import operator
import sys
import types
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from shutbox_cli.game import Rules
from shutbox_cli.game import box as _box
from shutbox_cli.game import moves as _moves
from strategies import answers as _answers
from strategies.loading import BUILTINS, StrategyLoadError, split_spec

from ..errors import TournamentFailure, setting

REFEREE_PACKAGES = ("shutbox_cli", "strategies", "tournaments")
"""Every module of these packages loaded when the fingerprint is taken is watched."""
REFEREE_IMPORTS = ("tournaments.playing.bulk", *sorted({target.partition(":")[0] for target in BUILTINS.values()}))
"""Modules the referee may import only later (the bulk engine, the built-in strategies): imported
before the fingerprint, so that no strategy can be first to import (and patch) them."""
LAZY_PACKAGES = ("shutbox_cli.game", "strategies.runner", "tournaments")
"""Packages that load their names on first use: every name loaded before the fingerprint, so that
a strategy's import of one does not change their namespaces."""
STANDARD_MODULES = (
    "builtins",
    "random",
    "hashlib",
    "math",
    "operator",
    "itertools",
    "dataclasses",
    "enum",
    "functools",
    "collections",
    "array",
    "json",
    "numpy",
    "numpy.random",
)
"""Modules outside the project whose functions the engine, the dice and the tallies call."""
CHANGING = frozenset(
    {
        "strategies.table._kept",
        "strategies.testing._reports",
        "tournaments.backends.dask_cluster._loaded",
        "tournaments.referee.tamper._taken",
    }
)
"""Module-level caches that change during a run by design (none decides a result)."""
_EMPTY = object()
"""Stands for an empty closure cell."""
_SHOWN_CHANGES = 3
_IMMUTABLE_TYPE = 1 << 8
"""`Py_TPFLAGS_IMMUTABLETYPE`: a type defined in C whose attributes cannot be set."""


WatchedTable = tuple[str, Any, bytes]
"""A table built during a run (a strategy's turn table), its name and its contents when built."""


class Tampering(TournamentFailure, StrategyLoadError):
    """A strategy changed the referee's code or data. Also a `StrategyLoadError`, so that where
    loading failures are reported (a worker starting up) it is reported the same way."""


def builtin_spec(spec: str) -> bool:
    """Whether a spec names a built-in strategy (whose code the referee trusts)."""
    try:
        return split_spec(spec)[0] in BUILTINS
    except StrategyLoadError:
        return False


def _defined_in(value: object, module: str) -> bool:
    try:
        return getattr(value, "__module__", None) == module
    except Exception:  # an object with a `__getattr__` of its own may raise anything
        return False


def _functions_of(value: object) -> Iterable[types.FunctionType]:
    """The plain functions behind a namespace entry: a function, a method, a property, a cached function."""
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, property):
        for part in (value.fget, value.fset, value.fdel):
            yield from _functions_of(part)
        return
    try:
        wrapped = getattr(value, "__wrapped__", None)
    except Exception:  # an object with a `__getattr__` of its own may raise anything
        wrapped = None
    if isinstance(value, types.FunctionType):
        yield value
    if isinstance(wrapped, types.FunctionType):
        yield wrapped


class _Watched:
    """What the fingerprint covers, chosen once: modules, namespaces, functions, containers."""

    def __init__(self, module_names: Sequence[str]) -> None:
        self.modules: list[tuple[str, types.ModuleType]] = []
        self.namespaces: list[tuple[str, Mapping[str, Any]]] = []
        self.functions: list[tuple[str, types.FunctionType]] = []
        self.containers: list[tuple[str, Any]] = []
        self.arrays: list[tuple[str, Any]] = []
        seen: set[int] = set()
        for name in module_names:
            module = sys.modules.get(name)
            if module is not None:
                self._add_module(name, module, seen)

    def _add_module(self, name: str, module: types.ModuleType, seen: set[int]) -> None:
        self.modules.append((name, module))
        namespace = vars(module)
        self.namespaces.append((name, namespace))
        for key, value in list(namespace.items()):
            label = f"{name}.{key}"
            if name == "builtins":
                continue  # its namespace is watched; its types cannot be changed
            if isinstance(value, type):
                if _defined_in(value, name) and not value.__flags__ & _IMMUTABLE_TYPE and id(value) not in seen:
                    seen.add(id(value))
                    self._add_class(label, value, seen)
            elif _defined_in(value, name) or isinstance(value, types.FunctionType):
                self._add_functions(label, value, seen)
            elif label not in CHANGING and not key.startswith("__"):
                self._add_container(label, value)

    def _add_class(self, label: str, cls: type, seen: set[int]) -> None:
        self.namespaces.append((label, cls.__dict__))
        for key, value in list(cls.__dict__.items()):
            self._add_functions(f"{label}.{key}", value, seen)
        if issubclass(cls, enum.Enum):
            for member in cls:
                self.containers.append((f"{label}.{member.name}", vars(member)))

    def _add_functions(self, label: str, value: object, seen: set[int]) -> None:
        for function in _functions_of(value):
            if id(function) not in seen:
                seen.add(id(function))
                self.functions.append((label, function))

    def _add_container(self, label: str, value: object) -> None:
        if isinstance(value, (dict, list, set)):
            self.containers.append((label, value))
        elif isinstance(value, (bytearray, array)) or type(value).__name__ == "ndarray":
            self.arrays.append((label, value))

    def fix(self) -> None:
        """Gather what the fast check reads, once everything is added: the functions, the cells of
        their closures (a cell's contents can be set), their keyword defaults (a dict)."""
        self._module_names = [name for name, _ in self.modules]
        self._maps = [namespace for _, namespace in self.namespaces]
        self._maps += [container for _, container in self.containers if isinstance(container, dict)]
        self._maps += [keywords for _, function in self.functions if (keywords := function.__kwdefaults__)]
        self._sequences = [container for _, container in self.containers if not isinstance(container, dict)]
        self._functions = [function for _, function in self.functions]
        self._cells = [cell for function in self._functions for cell in function.__closure__ or () if _full(cell)]

    def state(self) -> list[object]:
        """What the fast check compares, built from lists and copies by loops in C."""
        functions = self._functions
        return [
            list(map(sys.modules.get, self._module_names)),
            [dict(mapping) for mapping in self._maps],
            [sequence.copy() for sequence in self._sequences],
            list(map(_INSIDE, functions)),
            list(map(_CONTENTS, self._cells)),
        ]

    def same(self, state: list[object]) -> bool:
        """Whether everything watched is as in `state`: a few hundred microseconds. Lists and dicts
        compare by identity first, so only a changed entry is compared by value; an object made to
        claim it equals the one it replaced is a deliberate attack on this check (see --isolate)."""
        functions = self._functions
        modules, maps, sequences, insides, contents = state
        try:
            return bool(
                list(map(sys.modules.get, self._module_names)) == modules
                and self._maps == maps
                and self._sequences == sequences
                and list(map(_INSIDE, functions)) == insides
                and list(map(_CONTENTS, self._cells)) == contents
            )
        except Exception:  # a replaced value may refuse to compare (a numpy array): look closer
            return False

    def contents(self) -> list[bytes]:
        """The contents of module-level arrays (compared by value)."""
        return [_contents(value) for _, value in self.arrays]

    def labelled(self) -> dict[str, object]:
        """The same, each under a name a message can show: the slow path, after a mismatch."""
        found: dict[str, object] = {}
        for name, _ in self.modules:
            found[f"sys.modules[{name!r}]"] = sys.modules.get(name)
        for label, namespace in self.namespaces:
            for key, value in list(namespace.items()):
                found[f"{label}.{key}"] = value
        for label, function in self.functions:
            found[f"{label}'s code"] = function.__code__
            found[f"{label}'s defaults"] = function.__defaults__
            found[f"{label}'s keyword defaults"] = function.__kwdefaults__
            for key, value in (function.__kwdefaults__ or {}).items():
                found[f"{label}'s default {key}"] = value
            for cell, free in zip(function.__closure__ or (), function.__code__.co_freevars, strict=False):
                found[f"{label}'s {free}"] = _cell(cell)
        for label, container in self.containers:
            items: Iterable[tuple[Any, Any]]
            if isinstance(container, dict):
                items = container.items()
            elif isinstance(container, set):
                items = ((value, value) for value in container)
            else:
                items = enumerate(container)
            for key, value in list(items):
                found[f"{label}[{key!r}]"] = value
        return found


_INSIDE = operator.attrgetter("__code__", "__defaults__", "__kwdefaults__")
"""What a function's behaviour hangs on, besides its globals and closure, that can be set."""
_CONTENTS = operator.attrgetter("cell_contents")


def _full(cell: Any) -> bool:
    """Whether a closure cell holds a value (an empty one raises when read)."""
    return _cell(cell) is not _EMPTY


def _cell(cell: Any) -> object:
    try:
        return cell.cell_contents
    except ValueError:
        return _EMPTY


def _contents(value: Any) -> bytes:
    """An array's contents as bytes (a numpy array, an `array.array`, a bytearray)."""
    return value.tobytes() if hasattr(value, "tobytes") else bytes(value)


_CACHES = frozenset({"__warningregistry__", "__slotnames__"})
"""Names Python itself sets as it runs: a module's warning registry, a class's slots cached for pickling."""


def _legitimate(label: str, value: object) -> bool:
    """A change Python itself makes: a submodule imported since (set on its package), a cache."""
    key = label.rpartition(".")[2]
    return key in _CACHES or (isinstance(value, types.ModuleType) and value.__name__ == label)


class _RulesWatch:
    """A rule set's fields, copied before any strategy loaded, and the tables the engine caches for it."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.turn_rules = rules.turn_rules
        self.fields = [(field.name, getattr(rules, field.name)) for field in dataclasses.fields(Rules)]
        self.turn_fields = [(field.name, getattr(self.turn_rules, field.name)) for field in dataclasses.fields(Rules)]
        self.tables = [(label, make, make()) for label, make in self._tables(rules)]

    @staticmethod
    def _tables(rules: Rules) -> list[tuple[str, Callable[[], object]]]:
        score_table, dice_table, move_table, tiles_by_mask = (
            _box._score_table,
            _box.dice_table,
            _moves.move_table,
            _answers.tiles_by_mask,
        )
        return [
            ("the score table", lambda: score_table(rules.tiles, rules.scoring)),
            ("the dice options table", lambda: dice_table(rules)),
            ("the legal moves table", lambda: move_table(rules)),
            ("the legal moves table's rows", lambda: move_table(rules)._table),
            ("the table of tiles by box", lambda: tiles_by_mask(rules.tiles)),
            ("the cached rules of a turn", lambda: rules.turn_rules),
        ]

    def changes(self, rules: Rules) -> list[str]:
        found = []
        if rules is not self.rules:
            found.append("the tournament's rules were replaced")
        for prefix, watched, fields in (("", self.rules, self.fields), ("turn ", self.turn_rules, self.turn_fields)):
            for name, value in fields:
                now = getattr(watched, name)
                if type(now) is not type(value) or now != value:
                    found.append(f"the {prefix}rules' {name} was changed from {_plain(value)} to {_plain(now)}")
        for label, make, value in self.tables:
            try:
                same = make() is value
            except Exception:  # a poisoned cache may fail in any way
                same = False
            if not same:
                found.append(f"{label} was replaced")
        return found


def _plain(value: object) -> str:
    if isinstance(value, enum.Enum):
        value = value.value
    try:
        return repr(value)
    except Exception:  # a tamperer's object may fail to show
        return f"a {type(value).__name__}"


class Fingerprint:
    """The referee's code and data as they were before any strategy loaded in this process."""

    def __init__(self) -> None:
        for name in REFEREE_IMPORTS:
            importlib.import_module(name)
        for package in LAZY_PACKAGES:  # they load their names lazily: all of them, before the fingerprint
            lazy = importlib.import_module(package)
            for name in lazy.__all__:
                getattr(lazy, name)
        names = [
            name
            for name in sorted(sys.modules)
            if any(name == package or name.startswith(package + ".") for package in REFEREE_PACKAGES)
        ]
        self._watched = _Watched([*names, *STANDARD_MODULES])
        self._watched.fix()
        self._state = self._watched.state()
        self._contents = self._watched.contents()
        self._labelled = self._watched.labelled()
        self._rules: dict[int, _RulesWatch] = {}

    def watch_rules(self, rules: Rules) -> None:
        """Watch a rule set too (call before any strategy loads)."""
        if id(rules) not in self._rules:
            self._rules[id(rules)] = _RulesWatch(rules)

    def changes(self, tables: Iterable[WatchedTable] = ()) -> list[str]:
        """What differs from the fingerprint, and which of `tables` changed, each said in a few words."""
        found = [change for watch in self._rules.values() for change in watch.changes(watch.rules)]
        found += [f"{label} was changed" for label, table, before in tables if _contents(table) != before]
        for (label, _), before, now in zip(self._watched.arrays, self._contents, self._watched.contents(), strict=True):
            if before != now:
                found.append(f"{label} was changed")
        if not self._watched.same(self._state):
            code = self._code_changes()
            if code:
                found += code
            else:  # only what the import system does: take it as the new normal
                self._state = self._watched.state()
        return found

    def _code_changes(self) -> list[str]:
        now = self._watched.labelled()
        found = []
        for label, value in self._labelled.items():
            if label not in now:
                found.append(f"{label} was removed")
            elif now[label] is not value:
                found.append(f"{label} was replaced")
        for label, value in now.items():
            if label not in self._labelled:
                if _legitimate(label, value):
                    self._labelled[label] = value
                else:
                    found.append(f"{label} was set")
        return found

    def verify(self, suspects: str, when: str, tables: Iterable[WatchedTable] = ()) -> None:
        """Raise `Tampering`, naming the suspects, when (`as it loaded`, `in matchup ...`) and what
        changed, if anything did."""
        changes = self.changes(tables)
        if not changes:
            return
        shown = "; ".join(changes[:_SHOWN_CHANGES])
        more = len(changes) - _SHOWN_CHANGES
        if more > 0:
            shown += f"; and {more} more change{'s' if more > 1 else ''}"
        raise Tampering(
            f"{suspects} tampered with the referee {when}: {shown}; other matchups' results could no longer be "
            f"trusted, so the run stops (run strategies you do not trust with {setting('isolate', True)})."
        )


def watched_table(label: str, table: Any) -> WatchedTable:
    """Watch a table (a numpy array) from now on: its contents as they are."""
    return label, table, _contents(table)


_taken: dict[str, Fingerprint] = {}
"""This process's fingerprint, once taken."""


def fingerprint(rules: Rules) -> Fingerprint:
    """This process's fingerprint, taken on the first call (before any user's strategy loads),
    watching `rules` too."""
    taken = _taken.get("referee")
    if taken is None:
        taken = _taken["referee"] = Fingerprint()
    taken.watch_rules(rules)
    return taken


def suspects(names: Iterable[str]) -> str:
    """The strategies a change may come from, as the start of a sentence."""
    found = list(dict.fromkeys(names))
    if len(found) == 1:
        return f"strategy {found[0]!r}"
    return "one of the strategies " + ", ".join(map(repr, found[:-1])) + f" and {found[-1]!r}"
