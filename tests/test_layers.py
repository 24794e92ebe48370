"""Layers, by package: shutbox_cli.game -> strategies -> tournaments -> shutbox_cli.face, each
importing only those before it. The engine imports nothing of ours outside itself, the strategies
only the engine, the tournaments only the engine and the strategies, none of them a terminal
library, and none prints or exits; the face uses only the public names of the strategies and the
tournaments. Each lazy package keeps one list of its names, and docs/architecture.md names every
folder there is. Inside the tournaments, each room imports only the rooms below it in that page's
table of folders; and no module of ours imports itself back, by any path."""

from __future__ import annotations

import ast
import functools
import importlib
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TERMINAL = {"typer", "rich", "click"}
LAYERS = {
    "shutbox_cli/game": ("shutbox_cli.game",),
    "strategies": ("shutbox_cli.game", "strategies"),
    "tournaments": ("shutbox_cli.game", "strategies", "tournaments"),
}
"""Each package below the face, and the packages of ours it may import."""
PUBLIC = ("tournaments", "tournaments.parts", "strategies", "strategies.runner")
"""What the face may import of the strategies and the tournaments."""
LAZY = ("shutbox_cli.game", "tournaments", "tournaments.parts", "strategies.runner")
"""The packages whose names load lazily from one list (`_NAMES`)."""


@functools.cache
def parsed(path: Path) -> ast.Module:
    """A source file's syntax tree, parsed once for all the tests here (which only read it)."""
    return ast.parse(path.read_text(), filename=str(path))


def dotted(path: Path) -> str:
    """The module a source file under ROOT is."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def statements(tree: ast.Module) -> Iterator[ast.AST]:
    """Every statement of a module, however nested (an import is one; the expressions, most of the
    tree, need not be walked to find them)."""
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            stack.extend(getattr(node, field, ()))


def is_module(name: str) -> bool:
    """Whether a dotted name is one of our modules or packages (a file under ROOT)."""
    place = ROOT.joinpath(*name.split("."))
    return place.with_suffix(".py").is_file() or (place / "__init__.py").is_file()


def imports(path: Path) -> list[tuple[int, str]]:
    """Every module a source file imports (relative imports resolved), with its line, wherever the
    statement is (a function's, under TYPE_CHECKING); `from package import name` imports
    `package.name` where that is a module of ours, else `package`."""
    tree = parsed(path)
    package = dotted(path) if path.stem == "__init__" else dotted(path).rpartition(".")[0]
    found = []
    for node in statements(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            modules = [f"{module}.{alias.name}" for alias in node.names if is_module(f"{module}.{alias.name}")]
            found += [(node.lineno, name) for name in modules]
            if len(modules) < len(node.names):
                found.append((node.lineno, module))
    return found


def ours(module: str) -> bool:
    return module.split(".")[0] in {"shutbox_cli", "strategies", "tournaments"}


def parts(package: str) -> list[str]:
    """A package's own modules (".") and each of its folders: a test each, none of them long."""
    return [".", *sorted(found.name for found in (ROOT / package).iterdir() if (found / "__init__.py").exists())]


def sources(package: str, part: str) -> list[Path]:
    folder = ROOT / package
    return sorted(folder.glob("*.py") if part == "." else (folder / part).rglob("*.py"))


@pytest.mark.parametrize(("package", "part"), [(one, part) for one in sorted(LAYERS) for part in parts(one)])
def test_each_package_imports_only_the_layers_below_it_and_no_terminal_library(package: str, part: str) -> None:
    allowed = LAYERS[package]
    for path in sources(package, part):
        for line, module in imports(path):
            where = f"{path.relative_to(ROOT)}:{line} imports {module}"
            assert module.split(".")[0] not in TERMINAL, where
            if ours(module) and module != "shutbox_cli":
                assert any(module == layer or module.startswith(layer + ".") for layer in allowed), where


def test_the_face_uses_only_the_public_names_of_the_strategies_and_the_tournaments() -> None:
    for path in sorted((ROOT / "shutbox_cli" / "face").rglob("*.py")):
        for line, module in imports(path):
            if module.split(".")[0] in {"strategies", "tournaments"}:
                assert module in PUBLIC, f"{path.relative_to(ROOT)}:{line} reaches into {module}"


def test_no_module_of_the_face_takes_a_private_name_of_another() -> None:
    """What commands share has a public home (a command's helpers stay its own)."""
    for path in sorted((ROOT / "shutbox_cli" / "face").rglob("*.py")):
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                taken = [
                    name
                    for name in (alias.name for alias in node.names)
                    if name.startswith("_") and not name.endswith("__")
                ]
                assert not taken, f"{path.relative_to(ROOT)}:{node.lineno} takes {', '.join(taken)}"


def test_the_top_of_shutbox_cli_imports_only_the_face() -> None:
    """entry.py, __main__.py and __init__.py sit above every layer: they import the face (and each other)."""
    for path in sorted((ROOT / "shutbox_cli").glob("*.py")):
        for line, module in imports(path):
            if ours(module):
                top = module in {"shutbox_cli", "shutbox_cli.entry"}
                assert top or module.startswith("shutbox_cli.face"), f"{path.name}:{line}"


@pytest.mark.parametrize("package", LAZY)
def test_a_lazy_package_keeps_one_list_of_its_names(package: str) -> None:
    """The imports for type checkers say what `_NAMES` says, and each name is where it says."""
    module = importlib.import_module(package)
    path = Path(module.__file__ or "")
    checked: dict[str, tuple[str, ...]] = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom)
                assert all(alias.asname == alias.name for alias in statement.names)
                checked["." * statement.level + (statement.module or "")] = tuple(a.name for a in statement.names)
    assert checked == module._NAMES
    assert module.__all__ == sorted(name for names in checked.values() for name in names)
    base = package if path.stem == "__init__" else package.rpartition(".")[0]
    for where, names in checked.items():
        defined = importlib.import_module(where, base)
        for name in names:
            assert getattr(module, name) is getattr(defined, name)


def modules_after_import(module: str) -> set[str]:
    """The top-level and project modules loaded by importing `module` in a fresh interpreter."""
    code = f"import json, sys; import {module}; print(json.dumps(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return set(json.loads(result.stdout))


def test_the_engine_imports_no_terminal_library_and_nothing_of_ours_outside_itself() -> None:
    loaded = modules_after_import("shutbox_cli.game")
    assert not {name for name in loaded if name.split(".")[0] in TERMINAL}
    ours = {name for name in loaded if name.split(".")[0] in {"shutbox_cli", "strategies", "tournaments"}}
    assert ours
    assert all(name in {"shutbox_cli", "shutbox_cli.game"} or name.startswith("shutbox_cli.game.") for name in ours)


def test_strategies_import_only_the_engine() -> None:
    loaded = modules_after_import("strategies")
    assert not {name for name in loaded if name.split(".")[0] in TERMINAL}
    assert not {name for name in loaded if name.split(".")[0] == "tournaments"}
    ours = {name for name in loaded if name.startswith("shutbox_cli")}
    assert all(name in {"shutbox_cli", "shutbox_cli.game"} or name.startswith("shutbox_cli.game.") for name in ours)


def test_our_strategies_package_is_the_one_imported() -> None:
    """An unrelated `strategies` distribution exists on PyPI; ours must win."""
    code = "import shutbox_cli, strategies; print(shutbox_cli.__file__); print(strategies.__file__)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd="/")
    ours, imported = (Path(line).resolve() for line in result.stdout.splitlines())
    # Installed or editable, our packages sit side by side; PyPI's `strategies` would not.
    assert imported == ours.parent.parent / "strategies" / "__init__.py"


@pytest.mark.slow
def test_tournaments_import_only_the_engine_and_the_strategies() -> None:
    modules = sorted(dotted(path) for path in (ROOT / "tournaments").rglob("*.py"))
    loaded = modules_after_import(", ".join(modules))
    assert set(modules) <= loaded
    assert not {name for name in loaded if name.split(".")[0] in TERMINAL}
    ours = {name for name in loaded if name.startswith("shutbox_cli")}
    assert all(name in {"shutbox_cli", "shutbox_cli.game"} or name.startswith("shutbox_cli.game.") for name in ours)


@pytest.mark.parametrize(
    ("package", "above"),
    [("shutbox_cli/game", {"strategies", "tournaments"}), ("strategies", {"tournaments"}), ("tournaments", set())],
)
def test_below_the_face_nothing_prints_or_exits(package: str, above: set[str]) -> None:
    forbidden = {"print", "input", "exit", "quit"}
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = parsed(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                function = node.func
                name = function.id if isinstance(function, ast.Name) else getattr(function, "attr", None)
                assert name not in forbidden, f"{path.name}:{node.lineno} calls {name}"
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                assert not any(name.split(".")[0] in TERMINAL | above for name in names), path.name


def test_the_architecture_page_names_only_what_exists_and_every_folder_there_is() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text()
    named = set(re.findall(r"`((?:shutbox_cli|strategies|tournaments)/[\w/.]*)`", page))
    assert named
    for path in named:
        assert (ROOT / path).exists(), f"docs/architecture.md names {path}, which does not exist"
    folders = [ROOT / "shutbox_cli" / "game", ROOT / "shutbox_cli" / "face", ROOT / "strategies"]
    folders += [path.parent for path in (ROOT / "tournaments").glob("*/__init__.py")]
    folders += [path.parent for path in (ROOT / "shutbox_cli" / "face").glob("*/__init__.py")]
    for folder in folders:
        assert f"`{folder.relative_to(ROOT)}/`" in page, (
            f"docs/architecture.md does not name {folder.relative_to(ROOT)}/"
        )


ROOM_ROW = re.compile(r"^\| `tournaments/(?:(\w+)/)?` \| (\d+) \|", re.MULTILINE)
"""A row of the folders' table naming a room of the tournaments and its level (its top: `.`, 0)."""


def room_levels() -> dict[str, int]:
    """Each room of the tournaments (`.`: its top-level modules) and its level, from the folders'
    table in docs/architecture.md, which lists them bottom to top."""
    page = (ROOT / "docs" / "architecture.md").read_text()
    rows = [(room or ".", int(level)) for room, level in ROOM_ROW.findall(page)]
    levels = dict(rows)
    assert len(levels) == len(rows), "docs/architecture.md names a room of the tournaments twice"
    assert [level for _, level in rows] == sorted(levels.values()), "docs/architecture.md lists the rooms out of order"
    return levels


def room_of(module: str) -> str | None:
    """The room of the tournaments a module is in (`.`: a top-level module), None outside them or
    for the package itself (its public names, above every room)."""
    parts = module.split(".")
    if parts[0] != "tournaments" or len(parts) == 1:
        return None
    return parts[1] if (ROOT / "tournaments" / parts[1] / "__init__.py").is_file() else "."


def test_the_architecture_page_gives_each_room_of_the_tournaments_a_level() -> None:
    rooms = {"."} | {path.parent.name for path in (ROOT / "tournaments").glob("*/__init__.py")}
    levels = room_levels()
    assert not rooms - set(levels), f"docs/architecture.md gives no level to tournaments/{sorted(rooms - set(levels))}"
    assert not set(levels) - rooms, f"docs/architecture.md names rooms that do not exist: {sorted(set(levels) - rooms)}"
    assert levels["."] == 0 and min(level for room, level in levels.items() if room != ".") > 0


@pytest.mark.parametrize("room", sorted(room_levels()))
def test_each_room_of_the_tournaments_imports_only_the_rooms_below_it(room: str) -> None:
    """Anywhere in a module: at its top, in a function, for type checkers."""
    levels = room_levels()
    faults = []
    for path in sources("tournaments", room):
        if path != ROOT / "tournaments" / "__init__.py":
            for line, module in imports(path):
                other = room_of(module) if module.split(".")[0] == "tournaments" else room
                if other != room and (other not in levels or levels[other] >= levels[room]):
                    where = "beside" if other in levels and levels[other] == levels[room] else "above"
                    faults.append(f"{path.relative_to(ROOT)}:{line} imports {module}, {where} its room")
    assert not faults, "\n".join(faults)


def import_graph() -> dict[str, set[str]]:
    """Each module of ours and the modules of ours it imports (see `imports`)."""
    modules = {
        dotted(path): path
        for package in ("shutbox_cli", "strategies", "tournaments")
        for path in (ROOT / package).rglob("*.py")
    }
    return {
        module: {other for _, other in imports(path) if other in modules and other != module}
        for module, path in modules.items()
    }


def circle(graph: dict[str, set[str]]) -> list[str]:
    """A circle of imports in `graph` (the first module again at its end), or none."""
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        path, stack = [start], [iter(sorted(graph[start]))]
        while stack:
            following = next(stack[-1], None)
            if following is None:
                done.add(path.pop())
                stack.pop()
            elif following in path:
                return [*path[path.index(following) :], following]
            elif following not in done:
                path.append(following)
                stack.append(iter(sorted(graph[following])))
    return []


def test_circle_finds_a_circle_and_none_where_there_is_none() -> None:
    assert circle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


@pytest.mark.slow
def test_no_module_of_ours_imports_itself_back() -> None:
    """By any path of imports, wherever in a module they are (a function-local import too); slow
    where it is the first here to parse every module of ours."""
    found = circle(import_graph())
    assert not found, "an import circle: " + " -> ".join(found)
