"""Finding a strategy from its spec: a registered name, `package.module:Class`, or
`path/to/file.py:Class`, each optionally with parameters: `target(margin=2)`.

Registered names are the built-ins and every entry point in the group `shutbox.strategies`
of the installed packages. Every failure is a `StrategyLoadError` of one sentence: a module
that raises anything while it loads (`sys.exit(0)` too), a constructor likewise, a class whose
name, description or declarations are not what the contract says.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import importlib
import importlib.util
import inspect
import os
import re
import sys
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .base import Strategy
from .guard import raised_by_strategy
from .keys import checked_key
from .shown import answer_text, cause, did_you_mean

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

ENTRY_POINT_GROUP = "shutbox.strategies"

BUILTINS: dict[str, str] = {
    "greedy-high": "strategies.builtin:GreedyHigh",
    "random": "strategies.builtin:RandomMove",
    "fewest-tiles": "strategies.builtin:FewestTiles",
    "most-tiles": "strategies.builtin:MostTiles",
    "lowest-first": "strategies.builtin:LowestFirst",
    "tips": "strategies.builtin:Tips",
    "optimal": "strategies.solved:Optimal",
    "max-shut": "strategies.solved:MaxShut",
    "target": "strategies.solved:Target",
    "below": "strategies.below:Below",
}
"""The built-in strategies by name (pyproject.toml declares the same as entry points)."""


class StrategyLoadError(ValueError):
    """A strategy spec that cannot be turned into a strategy; the message is one sentence."""


@dataclasses.dataclass(frozen=True)
class Registration:
    """What a strategy name stands for: a `module:Class` and where it comes from."""

    name: str
    target: str
    origin: str
    package: str | None = None
    """The installed package that declares it (None: built in, or a package of unknown name)."""

    @property
    def qualified(self) -> str | None:
        """PACKAGE:NAME, which names an installed strategy whatever else has its name."""
        return None if self.package is None else f"{self.package}:{self.name}"


@dataclasses.dataclass(frozen=True)
class LoadedStrategy:
    """A strategy class, the parameters it is built with, and the name it plays under.

    `origin` says where the class comes from: built-in, an installed package, a module or a file.
    """

    spec: str
    cls: type[Strategy]
    params: Mapping[str, Any]
    name: str
    origin: str = ""

    def make(self) -> Strategy:
        """A new instance, built with the parameters."""
        return build(self.cls, self.params, self.spec)


class StrategyNameClash(UserWarning):
    """An installed package's strategy has the name of a built-in one, or of another package's.
    Ignored unless a caller turns it on (the `shutbox` command does, in its own process only): a
    worker that loads the strategies again need not say it again."""


warnings.filterwarnings("ignore", category=StrategyNameClash, append=True)


def _normal(package: str) -> str:
    """A package's name as pip compares names: case and runs of `-`, `_` and `.` do not matter."""
    return re.sub(r"[-_.]+", "-", package).lower()


_DECLARED: dict[tuple[str, ...], tuple[Registration, ...]] = {}
"""What installed packages declare (`declared`), by the import path it was read on (the last few)."""
KEPT_PATHS = 4


def declared() -> tuple[Registration, ...]:
    """What installed packages declare in the entry-point group, by name then target; the built-ins
    (pyproject.toml declares them too) are left out. Read once per process for each import path
    (reading every installed package's metadata takes tens of milliseconds), unless told
    (`told_declared`)."""
    path = tuple(sys.path)
    found = _DECLARED.get(path)
    if found is None:
        from importlib.metadata import entry_points  # a host is told them: it never reads them

        found = _declared_by(entry_points(group=ENTRY_POINT_GROUP))
        if len(_DECLARED) >= KEPT_PATHS:
            _DECLARED.clear()
        _DECLARED[path] = found
    return found


def told_declared(found: tuple[Registration, ...]) -> None:
    """Take `found` for what installed packages declare on this import path, as read elsewhere: a
    strategy's host is told what its referee read on the import path it gives the host."""
    _DECLARED[tuple(sys.path)] = found


def _declared_by(points: Iterable[EntryPoint]) -> tuple[Registration, ...]:
    """The registrations the entry points make, by name then target; the built-ins left out."""
    found = []
    for point in sorted(points, key=lambda point: (point.name, point.value)):
        if BUILTINS.get(point.name) == point.value:
            continue
        dist = point.dist
        if dist is None:
            found.append(Registration(point.name, point.value, "an installed package"))
        else:
            found.append(Registration(point.name, point.value, f"package {dist.name} {dist.version}", dist.name))
    return tuple(found)


def registrations() -> dict[str, Registration]:
    """Every strategy name a user can give, with what it stands for: the built-ins first, in their
    own order, then installed packages' strategies alphabetically. A built-in keeps its name: an
    installed strategy of the same name, or two packages' strategies of one name, go by their
    qualified names PACKAGE:NAME, with one StrategyNameClash warning naming both."""
    found = {name: Registration(name, target, "built-in") for name, target in BUILTINS.items()}
    for name, claimants in _by_name(declared()).items():
        if name in BUILTINS:
            _warn(
                f"{_listed(claimants)} {'has' if len(claimants) == 1 else 'have'} the name of the built-in "
                f"strategy {name!r}, which keeps it{_either(claimants, _FOR_THE_PACKAGE, '')}."
            )
        elif len({claimant.target for claimant in claimants}) > 1:
            _warn(f"{_listed(claimants)} have one name, {name!r}; {_either(claimants)}.")
        else:
            found[name] = claimants[0]
            continue
        for claimant in claimants:
            if claimant.qualified is not None:
                found[claimant.qualified] = claimant
    return found


def _by_name(installed: Iterable[Registration]) -> dict[str, list[Registration]]:
    """Installed strategies grouped by the name their packages give them."""
    grouped: dict[str, list[Registration]] = {}
    for registration in installed:
        grouped.setdefault(registration.name, []).append(registration)
    return grouped


def _listed(claimants: list[Registration]) -> str:
    """Installed strategies for a sentence: where each comes from and its class."""
    return " and ".join(f"the strategy of {claimant.origin} ({claimant.target})" for claimant in claimants)


_FOR_THE_PACKAGE = "; give {} for the package's"


def _either(claimants: list[Registration], how: str = "give {}", otherwise: str = "uninstall one") -> str:
    """How to give one of the strategies of one name: by its qualified name (`how`), or, where no
    package has a name to qualify it by, `otherwise`."""
    names = [repr(claimant.qualified) for claimant in claimants if claimant.qualified is not None]
    return how.format(" or ".join(names)) if names else otherwise


def _warn(message: str) -> None:
    """Warn of a clash, as said by `registrations` (the `shutbox` command shows each once)."""
    warnings.warn(message, StrategyNameClash, stacklevel=2)


def registry() -> dict[str, str]:
    """Every strategy name a user can give and the `module:Class` it stands for."""
    return {name: registration.target for name, registration in registrations().items()}


def split_name(text: str) -> tuple[str | None, str]:
    """`NAME=SPEC` names a strategy where it plays; a bare spec (even `target(margin=2)`) does not."""
    name, equals, spec = text.partition("=")
    if equals and "(" not in name and name.strip():
        return name.strip(), spec.strip()
    return None, text.strip()


def check_utf8(text: str, what: str) -> None:
    """A spec or name from the command line may hold bytes that are not UTF-8 (a file name in
    another encoding): refused, as reports and checkpoints, written in UTF-8, could not name it."""
    try:
        text.encode()
    except UnicodeEncodeError:
        shown = text.encode(errors="surrogateescape").decode(errors="backslashreplace")
        raise StrategyLoadError(
            f"{what} '{shown}' is not valid UTF-8, which reports are written in; "
            "rename the file or choose another name."
        ) from None


def split_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split `target(a=1, b="x")` into its target and parameters."""
    check_utf8(spec, "strategy spec")
    text = spec.strip()
    if not text:
        raise StrategyLoadError("a strategy spec is empty; give a name such as 'greedy-high' or 'module:Class'.")
    if not text.endswith(")"):
        return text, {}
    target, _, arguments = text[:-1].partition("(")
    params: dict[str, Any] | None = None
    try:
        call = ast.parse(f"f({arguments})", mode="eval").body
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and not call.args
            and all(keyword.arg for keyword in call.keywords)
        ):
            params = {str(keyword.arg): ast.literal_eval(keyword.value) for keyword in call.keywords}
    except (SyntaxError, ValueError, TypeError, RecursionError):
        pass
    if params is None:
        raise StrategyLoadError(
            f"the parameters in {spec!r} are not of the form name=value, with plain values such as 2, 0.5 or 'x'."
        )
    return target.strip(), params


def builtin_spec(spec: str) -> bool:
    """Whether a spec names a built-in strategy (whose code the referee trusts and runs in its own
    process), found without importing anything."""
    try:
        return split_spec(spec)[0] in BUILTINS
    except StrategyLoadError:
        return False


def builtin_class(cls: type[Strategy]) -> bool:
    """Whether a strategy class is one of shutbox's built-ins (whose code is known), not a
    subclass of one, nor a user's class that only gives itself a built-in's module or name."""
    module = sys.modules.get(cls.__module__)
    return f"{cls.__module__}:{cls.__qualname__}" in _BUILTIN_TARGETS and getattr(module, cls.__qualname__, None) is cls


_BUILTIN_TARGETS = frozenset(BUILTINS.values())


def _import_module(module_name: str, spec: str) -> Any:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name and (module_name + ".").startswith(error.name + "."):
            raise StrategyLoadError(f"no module named {module_name!r} for strategy {spec!r}.") from None
        raise StrategyLoadError(
            f"module {module_name!r} of strategy {spec!r} failed to import: {cause(error)}"
        ) from error
    except BaseException as error:  # a user's module may raise anything while it loads, or exit
        if not raised_by_strategy(error):
            raise
        raise StrategyLoadError(f"module {module_name!r} of strategy {spec!r} {_import_failure(error)}") from error


def _import_file(path_text: str, spec: str) -> Any:
    path = Path(path_text).expanduser().resolve()
    if not path.is_file():
        raise StrategyLoadError(f"no file {path_text!r} for strategy {spec!r}.")
    module_name = "shutbox_user_" + hashlib.sha1(os.fsencode(path)).hexdigest()[:12]
    if module_name in sys.modules:
        return sys.modules[module_name]
    module_spec = importlib.util.spec_from_file_location(module_name, path)
    if module_spec is None or module_spec.loader is None:
        raise StrategyLoadError(f"file {path_text!r} of strategy {spec!r} is not a Python module.")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_name] = module
    # While it loads, the file may import modules beside it, as a script could; its folder
    # goes last on the path, so nothing there can shadow an installed module.
    folder = str(path.parent)
    added = folder not in sys.path
    if added:
        sys.path.append(folder)
    try:
        module_spec.loader.exec_module(module)
    except BaseException as error:  # a user's file may raise anything while it loads, or exit
        sys.modules.pop(module_name, None)
        if not raised_by_strategy(error):
            raise
        raise StrategyLoadError(f"file {path_text!r} of strategy {spec!r} {_import_failure(error)}") from error
    finally:
        if added:
            sys.path.remove(folder)
    return module


def _import_failure(error: BaseException) -> str:
    """How an import ended, for the end of a sentence: an error, or an exit that is no success."""
    if isinstance(error, Exception):
        return f"failed to import: {cause(error)}"
    return f"ended the import with {cause(error)}"


def build(cls: type[Strategy], params: Mapping[str, Any], spec: str) -> Strategy:
    """An instance of a strategy class; StrategyLoadError if its constructor raises anything (or exits)."""
    try:
        return cls(**params)
    except BaseException as error:  # a user's constructor may raise anything, or call sys.exit
        if not raised_by_strategy(error):
            raise
        raise StrategyLoadError(f"strategy {spec!r} could not be built: {cause(error)}") from error


def tabulable(cls: type[Strategy], name: str) -> bool:
    """The class's `tabulable()`, which a strategy may override; StrategyLoadError if it raises
    or answers other than True or False."""
    try:
        answer = cls.tabulable()
    except BaseException as error:  # a strategy's own tabulable() may raise anything
        if not raised_by_strategy(error):
            raise
        raise StrategyLoadError(f"strategy {name!r} raised in tabulable(): {cause(error)}") from error
    if type(answer) is not bool:
        raise StrategyLoadError(f"strategy {name!r} answers tabulable() with something other than True or False.")
    return answer


def _find_class(target: str, spec: str) -> type[Strategy]:
    where, _, class_name = target.rpartition(":")
    if not where or not class_name:
        raise StrategyLoadError(
            f"strategy {spec!r} is neither a known name nor of the form module:Class or path/to/file.py:Class; "
            "`shutbox strategies` lists the names."
        )
    module = _import_file(where, spec) if _is_file(where) else _import_module(where, spec)
    try:
        found = getattr(module, class_name, None)
        if found is None:
            raise StrategyLoadError(f"{where!r} has no class {class_name!r} (strategy {spec!r}).")
        if not (isinstance(found, type) and issubclass(found, Strategy)):
            raise StrategyLoadError(f"{class_name!r} in {where!r} is not a subclass of strategies.Strategy.")
        if found.choose_move is Strategy.choose_move:
            raise StrategyLoadError(f"{class_name!r} in {where!r} does not define choose_move(self, view).")
        check_class(found, spec)
    except BaseException as error:  # a module's __getattr__, a metaclass may raise anything
        if isinstance(error, StrategyLoadError) or not raised_by_strategy(error):
            raise
        raise StrategyLoadError(f"class {class_name!r} in {where!r} cannot be read: {cause(error)}") from error
    return found


def check_class(cls: type[Strategy], spec: str) -> None:
    """Hold a strategy class's metadata to the contract: `name` and `description` strings of
    printable characters, `stochastic` and `reads_context` bools, a `key` of known features (and
    not on a stochastic one), `tabulable()` a bool, a
    docstring that is a string, a constructor whose signature can be read. StrategyLoadError
    (one sentence) if not."""
    for attribute in ("name", "description"):
        value = getattr(cls, attribute)
        if type(value) is not str:
            raise StrategyLoadError(f"strategy {spec!r} has a {attribute} that is not a string: {answer_text(value)}.")
        if not value.isprintable():
            raise StrategyLoadError(f"strategy {spec!r} has a {attribute} with control characters in it: {value!r}.")
    for attribute in ("stochastic", "reads_context"):
        value = getattr(cls, attribute)
        if type(value) is not bool:
            raise StrategyLoadError(
                f"strategy {spec!r} declares {attribute} = {answer_text(value)}; it must be True or False."
            )
    try:
        if checked_key(cls.key, spec) is not None and cls.stochastic:
            raise ValueError(
                f"strategy {spec!r} is stochastic: it cannot declare a key (a key's table holds one answer)."
            )
    except ValueError as error:
        raise StrategyLoadError(str(error)) from None
    tabulable(cls, spec)
    if not isinstance(cls.__doc__, str | None):
        raise StrategyLoadError(f"strategy {spec!r} has a docstring that is not a string: {answer_text(cls.__doc__)}.")
    try:
        inspect.signature(cls)
    except (TypeError, ValueError) as error:
        raise StrategyLoadError(f"the parameters of strategy {spec!r} cannot be read: {cause(error)}") from error


def _is_file(where: str) -> bool:
    return where.endswith(".py") or "/" in where or "\\" in where


def spec_file(spec: str) -> str | None:
    """The file a `path/to/file.py:Class` spec names, as written (None for a name or a module):
    found without importing anything."""
    target = split_spec(spec)[0]
    where = target.rpartition(":")[0]
    return where if where and _is_file(where) else None


def source_file(loaded: LoadedStrategy) -> Path | None:
    """The file a user's strategy class is defined in (None for a built-in one, or a class with no file)."""
    if loaded.origin == "built-in":
        return None
    try:
        found = inspect.getsourcefile(loaded.cls)
    except TypeError:
        return None
    return None if found is None else Path(found)


def source_sha256(file: Path) -> str | None:
    """The sha256 of a strategy's source file, which reports and checkpoints record so that a
    re-run can tell an edited file; None if it cannot be read."""
    try:
        return hashlib.sha256(file.read_bytes()).hexdigest()
    except OSError:
        return None


def resolve(target: str, spec: str | None = None) -> tuple[type[Strategy], str]:
    """The class a spec without parameters names, and where it comes from (for messages, `spec`):
    a registered name, an installed strategy's qualified name PACKAGE:NAME, `module:Class` or
    `path/to/file.py:Class`."""
    spec = target if spec is None else spec
    names = registrations()
    found = registered(target, names)
    if found is not None:
        return _find_class(found.target, spec), found.origin
    if ":" in target:
        where = target.rpartition(":")[0]
        return _find_class(target, spec), f"file {where}" if _is_file(where) else f"module {where}"
    if _is_file(target):
        raise StrategyLoadError(f"strategy {spec!r} names a file but not its class: write {target}:ClassName.")
    claimants = _by_name(declared()).get(target)
    if claimants:
        raise StrategyLoadError(f"{len(claimants)} installed strategies are named {target!r}; {_either(claimants)}.")
    known = ", ".join(names)
    raise StrategyLoadError(f"no strategy named {target!r}{did_you_mean(target, names)}; known names: {known}.")


def registered(target: str, names: Mapping[str, Registration] | None = None) -> Registration | None:
    """What a registered name (of `names`, by default `registrations()`) or an installed strategy's
    qualified name PACKAGE:NAME (the package's name as pip compares it) stands for, if anything."""
    found = (registrations() if names is None else names).get(target)
    package, colon, name = target.rpartition(":")
    if found is not None or not colon:
        return found
    return next(
        (
            claim
            for claim in declared()
            if claim.name == name and claim.package is not None and _normal(claim.package) == _normal(package)
        ),
        None,
    )


def _check_params(cls: type[Strategy], params: Mapping[str, Any], spec: str) -> None:
    try:
        inspect.signature(cls).bind(**params)
    except TypeError as error:
        accepted = parameter_names(cls)
        takes = ", ".join(accepted) if accepted else "no parameters"
        raise StrategyLoadError(f"strategy {spec!r} got bad parameters ({error}); it takes: {takes}.") from None


def parameter_names(cls: type[Strategy]) -> tuple[str, ...]:
    """The parameters a strategy's class takes by name."""
    return tuple(
        parameter.name
        for parameter in inspect.signature(cls).parameters.values()
        if parameter.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    )


def takes_any(cls: type[Strategy]) -> bool:
    """Whether a strategy's class takes parameters of any name (`**kwargs`)."""
    return any(
        parameter.kind is inspect.Parameter.VAR_KEYWORD for parameter in inspect.signature(cls).parameters.values()
    )


def display_name(cls: type[Strategy], target: str, params: Mapping[str, Any]) -> str:
    """The name a strategy plays under: its own name (or the spec), with any parameters: `target(margin=2)`."""
    base = cls.name or target
    if not params:
        return base
    return f"{base}({', '.join(f'{key}={value!r}' for key, value in params.items())})"


def load_strategy(spec: str, params: Mapping[str, Any] | None = None, name: str | None = None) -> LoadedStrategy:
    """Resolve a spec (with parameters in it or given apart) to a loaded strategy, built once to check it."""
    target, spec_params = split_spec(spec)
    if name is not None:
        check_utf8(name, "strategy name")
    merged = {**spec_params, **(params or {})}
    cls, origin = resolve(target, spec)
    _check_params(cls, merged, spec)
    loaded = LoadedStrategy(spec.strip(), cls, merged, name or display_name(cls, target, merged), origin)
    loaded.make()  # a constructor that fails should fail here, once, with a clear message
    return loaded


def _module_of(cls: type[Strategy]) -> str:
    """Where a class is loaded from by another process: its module, or for a class of the script
    being run (`__main__`), the script's file."""
    if cls.__module__ != "__main__":
        return cls.__module__
    script = getattr(sys.modules.get("__main__"), "__file__", None)
    if not isinstance(script, str) or not script.endswith(".py"):
        raise StrategyLoadError(
            f"strategy class {cls.__qualname__} is defined where no other process can load it (not in a "
            ".py file, nor in a module); define it in a file and give it as 'path/to/file.py:Class'."
        )
    return script


def spec_of(strategy: str | type[Strategy] | Strategy) -> str:
    """The spec that loads a strategy given as a spec (unchanged), a Strategy class (a built-in by
    its name, one of the script being run as `path/to/script.py:Class`, any other as
    `module:Class`) or an instance: its class with the constructor's
    parameters it keeps as attributes of the same name, where they differ from the defaults. An
    instance that spec does not build again (same attributes) is a StrategyLoadError."""
    if isinstance(strategy, str):
        return strategy
    cls = strategy if isinstance(strategy, type) else type(strategy)
    if not issubclass(cls, Strategy):
        raise StrategyLoadError(f"{strategy!r} is neither a strategy spec nor a Strategy class or instance.")
    target = f"{_module_of(cls)}:{cls.__qualname__}"
    target = next((name for name, builtin in BUILTINS.items() if builtin == target), target)
    if isinstance(strategy, type):
        return target
    params = {
        parameter.name: getattr(strategy, parameter.name)
        for parameter in inspect.signature(cls).parameters.values()
        if parameter.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        and hasattr(strategy, parameter.name)
        and getattr(strategy, parameter.name) != parameter.default
    }
    spec = f"{target}({', '.join(f'{key}={value!r}' for key, value in params.items())})" if params else target
    try:
        same = split_spec(spec)[1] == params and vars(build(cls, params, spec)) == vars(strategy)
    except (StrategyLoadError, TypeError):
        same = False
    if not same:
        raise StrategyLoadError(
            f"the {cls.__qualname__} instance given cannot be told as a spec ({spec!r} does not build it again); "
            f"give its class's spec with its parameters, such as '{target}(name=value)'."
        )
    return spec
