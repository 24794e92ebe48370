"""Layers: the engine imports nothing of ours outside itself and no terminal library, the
strategies import only the engine, the tournaments only the engine and the strategies, and
none of them prints or exits."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.paths import ROOT

TERMINAL = {"typer", "rich", "click"}


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
    modules = [path.stem for path in (ROOT / "tournaments").glob("*.py") if path.stem != "__init__"]
    loaded = modules_after_import(", ".join(f"tournaments.{module}" for module in sorted(modules)))
    assert {f"tournaments.{module}" for module in modules} <= loaded
    assert not {name for name in loaded if name.split(".")[0] in TERMINAL}
    ours = {name for name in loaded if name.startswith("shutbox_cli")}
    assert all(name in {"shutbox_cli", "shutbox_cli.game"} or name.startswith("shutbox_cli.game.") for name in ours)


@pytest.mark.parametrize(
    ("package", "above"),
    [("shutbox_cli/game", {"strategies", "tournaments"}), ("strategies", {"tournaments"}), ("tournaments", set())],
)
def test_below_the_face_nothing_prints_or_exits(package: str, above: set[str]) -> None:
    forbidden = {"print", "input", "exit", "quit"}
    for path in sorted((ROOT / package).glob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                function = node.func
                name = function.id if isinstance(function, ast.Name) else getattr(function, "attr", None)
                assert name not in forbidden, f"{path.name}:{node.lineno} calls {name}"
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                assert not any(name.split(".")[0] in TERMINAL | above for name in names), path.name
