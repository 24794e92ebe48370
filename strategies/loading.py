"""Finding a strategy from its spec: a registered name, `package.module:Class`, or
`path/to/file.py:Class`, each optionally with parameters: `target(margin=2)`.

Registered names are the built-ins and every entry point in the group `shutbox.strategies`
of the installed packages (`names.py`). Every failure is a `StrategyLoadError` of one sentence:
a module that raises anything while it loads (`sys.exit(0)` too), a constructor likewise, a
class whose name, description or declarations are not what the contract says.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .base import Strategy
from .errors import StrategyLoadError as StrategyLoadError
from .guard import raised_by_strategy
from .keys import checked_key
from .names import BUILTINS, ambiguous, registered, registrations
from .shown import answer_text, cause, did_you_mean


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
        if callable(found) and not isinstance(found, type):
            from .policy import callable_policy  # a trained policy's function: numpy loads only for one

            return callable_policy(found, spec)
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


MODEL_SUFFIXES = (".onnx", ".zip")
"""The files a spec names a trained policy's model by (`strategies.policy`): ONNX, a saved SB3 agent."""


def model_file(target: str) -> bool:
    """Whether a spec's target (without parameters) names a model file, by its suffix."""
    return target.lower().endswith(MODEL_SUFFIXES)


def spec_file(spec: str) -> str | None:
    """The file a `path/to/file.py:Class` spec (or a model file's) names, as written (None for a
    name or a module): found without importing anything."""
    target = split_spec(spec)[0]
    if model_file(target):
        return target
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
    if model_file(target):
        from .policy import model_policy  # a trained policy's model: its libraries load only for one

        return model_policy(target, spec), f"model {target}"
    if ":" in target:
        where = target.rpartition(":")[0]
        return _find_class(target, spec), f"file {where}" if _is_file(where) else f"module {where}"
    if _is_file(target):
        raise StrategyLoadError(f"strategy {spec!r} names a file but not its class: write {target}:ClassName.")
    clash = ambiguous(target)
    if clash is not None:
        raise StrategyLoadError(clash)
    known = ", ".join(names)
    raise StrategyLoadError(f"no strategy named {target!r}{did_you_mean(target, names)}; known names: {known}.")


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
    if "reads_context" in merged:
        from .policy import declared  # a trained policy's declaration: its class is made for it

        cls = declared(cls, merged["reads_context"])
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
