"""Finding a strategy from its spec: a registered name, `package.module:Class`, or
`path/to/file.py:Class`, each optionally with parameters: `target(margin=2)`.

Registered names are the built-ins and every entry point in the group `shutbox.strategies`
of the installed packages. Every failure is a `StrategyLoadError` of one sentence.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Mapping
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from .base import Strategy

ENTRY_POINT_GROUP = "shutbox.strategies"

BUILTINS: dict[str, str] = {
    "greedy-high": "strategies.builtin:GreedyHigh",
    "random": "strategies.builtin:RandomMove",
}
"""The built-in strategies by name (pyproject.toml declares the same as entry points)."""


class StrategyLoadError(ValueError):
    """A strategy spec that cannot be turned into a strategy; the message is one sentence."""


@dataclasses.dataclass(frozen=True)
class LoadedStrategy:
    """A strategy class, the parameters it is built with, and the name it plays under."""

    spec: str
    cls: type[Strategy]
    params: Mapping[str, Any]
    name: str

    def make(self) -> Strategy:
        """A new instance, built with the parameters."""
        try:
            return self.cls(**self.params)
        except Exception as error:  # a user's constructor may raise anything
            raise StrategyLoadError(
                f"strategy {self.spec!r} could not be built: {type(error).__name__}: {error}"
            ) from error


def registry() -> dict[str, str]:
    """Every registered strategy name and the `module:Class` it stands for."""
    names = dict(BUILTINS)
    conflicts: dict[str, set[str]] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        known = names.setdefault(point.name, point.value)
        if known != point.value:
            conflicts.setdefault(point.name, {known}).add(point.value)
    for name, targets in conflicts.items():
        names[name] = "|".join(sorted(targets))
    return names


def split_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split `target(a=1, b="x")` into its target and parameters."""
    text = spec.strip()
    if not text:
        raise StrategyLoadError("a strategy spec is empty; give a name such as 'greedy-high' or 'module:Class'.")
    if not text.endswith(")"):
        return text, {}
    target, _, arguments = text[:-1].partition("(")
    try:
        call = ast.parse(f"f({arguments})", mode="eval").body
        assert isinstance(call, ast.Call) and not call.args
        params = {keyword.arg: ast.literal_eval(keyword.value) for keyword in call.keywords}
        assert None not in params
    except (SyntaxError, ValueError, AssertionError):
        raise StrategyLoadError(
            f"the parameters in {spec!r} are not of the form name=value, with plain values such as 2, 0.5 or 'x'."
        ) from None
    return target.strip(), params  # type: ignore[return-value]


def _import_module(module_name: str, spec: str) -> Any:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name and module_name.startswith(error.name):
            raise StrategyLoadError(f"no module named {module_name!r} for strategy {spec!r}.") from None
        raise StrategyLoadError(f"module {module_name!r} of strategy {spec!r} failed to import: {error}") from error
    except Exception as error:  # a user's module may raise anything while it loads
        raise StrategyLoadError(
            f"module {module_name!r} of strategy {spec!r} failed to import: {type(error).__name__}: {error}"
        ) from error


def _import_file(path_text: str, spec: str) -> Any:
    path = Path(path_text).expanduser().resolve()
    if not path.is_file():
        raise StrategyLoadError(f"no file {path_text!r} for strategy {spec!r}.")
    module_name = "shutbox_user_" + hashlib.sha1(str(path).encode()).hexdigest()[:12]
    if module_name in sys.modules:
        return sys.modules[module_name]
    module_spec = importlib.util.spec_from_file_location(module_name, path)
    if module_spec is None or module_spec.loader is None:
        raise StrategyLoadError(f"file {path_text!r} of strategy {spec!r} is not a Python module.")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_name] = module
    try:
        module_spec.loader.exec_module(module)
    except Exception as error:  # a user's file may raise anything while it loads
        del sys.modules[module_name]
        raise StrategyLoadError(
            f"file {path_text!r} of strategy {spec!r} failed to import: {type(error).__name__}: {error}"
        ) from error
    return module


def _find_class(target: str, spec: str) -> type[Strategy]:
    where, _, class_name = target.rpartition(":")
    if not where or not class_name:
        raise StrategyLoadError(
            f"strategy {spec!r} is neither a known name nor of the form module:Class or path/to/file.py:Class; "
            "`shutbox strategies` lists the names."
        )
    is_file = where.endswith(".py") or "/" in where or "\\" in where
    module = _import_file(where, spec) if is_file else _import_module(where, spec)
    found = getattr(module, class_name, None)
    if found is None:
        raise StrategyLoadError(f"{where!r} has no class {class_name!r} (strategy {spec!r}).")
    if not (isinstance(found, type) and issubclass(found, Strategy)):
        raise StrategyLoadError(f"{class_name!r} in {where!r} is not a subclass of strategies.Strategy.")
    return found


def _check_params(cls: type[Strategy], params: Mapping[str, Any], spec: str) -> None:
    try:
        inspect.signature(cls).bind(**params)
    except TypeError as error:
        accepted = [name for name in inspect.signature(cls).parameters if name not in ("args", "kwargs")]
        takes = ", ".join(accepted) if accepted else "no parameters"
        raise StrategyLoadError(f"strategy {spec!r} got bad parameters ({error}); it takes: {takes}.") from None


def load_strategy(spec: str, params: Mapping[str, Any] | None = None, name: str | None = None) -> LoadedStrategy:
    """Resolve a spec (with parameters in it or given apart) to a loaded strategy."""
    target, spec_params = split_spec(spec)
    merged = {**spec_params, **(params or {})}
    names = registry()
    if ":" not in target or target in names:
        if target not in names:
            known = ", ".join(sorted(names))
            raise StrategyLoadError(f"no strategy named {target!r}; known names: {known}.")
        if "|" in names[target]:
            raise StrategyLoadError(
                f"two strategies are named {target!r} ({names[target].replace('|', ' and ')}); uninstall one."
            )
        cls = _find_class(names[target], spec)
    else:
        cls = _find_class(target, spec)
    _check_params(cls, merged, spec)
    display = name or (cls.name if not spec_params and cls.name else target if not merged else spec.strip())
    loaded = LoadedStrategy(spec.strip(), cls, merged, display)
    loaded.make()  # a constructor that fails should fail here, once, with a clear message
    return loaded
