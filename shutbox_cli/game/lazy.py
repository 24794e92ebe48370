"""Public names loaded on first use (PEP 562), so that `shutbox --help` does not load what a
command does not need. A package lists its names by the module that defines each (`_NAMES`);
`lazy_names` gives it its `__all__` and the module `__getattr__` that imports on first use, and
sets its `__dir__` (`dir(tournaments)` lists the names before they load)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping


def lazy_names(
    module: str, names: Mapping[str, tuple[str, ...]], anchor: str | None = None
) -> tuple[list[str], Callable[[str], object]]:
    """`__all__` and `__getattr__` for `module`, whose names come from the modules `names` gives
    (relative to `anchor`, the module's own package when not given)."""
    module_of = {name: where for where, found in names.items() for name in found}

    def __getattr__(name: str) -> object:
        where = module_of.get(name)
        if where is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(where, anchor or module), name)
        setattr(sys.modules[module], name, value)
        return value

    package = sys.modules[module]
    setattr(package, "__dir__", lambda: sorted({*vars(package), *module_of}))  # noqa: B010  # PEP 562's hook
    return sorted(module_of), __getattr__
