"""What a user's strategy file is made of: the file and the modules it imports from its own folder
(which the loader puts on the import path while it loads), found by reading their `import`
statements, never by importing them. A checkpoint records the sha256 of each, so that a resume
notices a helper module edited since the run began, as it notices the strategy file itself.

Imports that no `import` statement names (`importlib.import_module(name)`), and data files the
code reads, are not followed.
"""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

MAX_MODULES = 1000
"""Modules followed from one strategy file, at most: a folder of more is no strategy's."""


def module_digests(file: Path) -> dict[str, str]:
    """The sha256 of a strategy file and of each module it imports from its folder, transitively,
    by path relative to that folder (`helpers/__init__.py`); a file that cannot be read is left out."""
    file = file.resolve()
    root = file.parent
    found = [file]
    seen = {file}
    for current in found:  # grows as imports are found
        for module in _imports(current, root):
            for path in _module_files(root, module):
                if path not in seen and len(found) < MAX_MODULES:
                    seen.add(path)
                    found.append(path)
    digests = {}
    for path in found:
        try:
            digests[path.relative_to(root).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            continue
    return digests


def _imports(file: Path, root: Path) -> list[tuple[str, ...]]:
    """The modules a file imports, as dotted parts from `root`: `import a.b` and `from a import b`
    (both `a` and, if it is a module, `a.b`), relative imports read from the file's package."""
    try:
        tree = ast.parse(file.read_bytes(), str(file))
    except (OSError, SyntaxError, ValueError, RecursionError):
        return []
    package = file.parent.relative_to(root).parts
    modules: list[tuple[str, ...]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules += [tuple(alias.name.split(".")) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level > len(package):  # beyond the top package (or in the strategy file itself)
                continue
            base = package[: len(package) - node.level + 1] if node.level else ()
            named = base + (tuple(node.module.split(".")) if node.module else ())
            modules.append(named)
            modules += [(*named, alias.name) for alias in node.names if alias.name != "*"]
    return [module for module in modules if module]


def _module_files(root: Path, module: tuple[str, ...]) -> list[Path]:
    """The files under `root` that importing `module` from there runs: each package's
    `__init__.py` on the way, and the module's own file."""
    files = []
    folder = root
    for part in module:
        if not part.isidentifier():
            break
        if (folder / part / "__init__.py").is_file():
            folder = folder / part
            files.append((folder / "__init__.py").resolve())
        elif (folder / f"{part}.py").is_file():
            files.append((folder / f"{part}.py").resolve())
            break
        elif (folder / part).is_dir():  # a namespace package
            folder = folder / part
        else:
            break
    return [path for path in files if path.is_relative_to(root)]
