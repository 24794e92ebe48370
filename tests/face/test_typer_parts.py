"""typer's private pieces shutbox pins (`shutbox_cli.face.typer_parts`): every one is there in the
typer installed, where shutbox looks for it, and no other module of shutbox imports typer's
private modules. A typer that moved one fails here, not as a slower or a broken command."""

from __future__ import annotations

import ast
import importlib.metadata
import re

import typer.main

from shutbox_cli.face import cli, typer_parts

from helpers.paths import ROOT


def test_the_pinned_pieces_are_in_the_typer_installed() -> None:
    assert typer_parts.PINNED
    for name in ("build_runtime_param", "coerce_cli_choice", "coerce_cli_path"):
        assert callable(getattr(typer_parts, name)), name
    typer_parts.completion_init()  # imports typer's completion classes, as a shell's asking does


def test_typer_keeps_a_parameters_coercion_where_shutbox_looks_for_it() -> None:
    command = typer.main.get_command(cli.app)
    tournament = command.commands["tournament"]  # type: ignore[attr-defined]
    games = next(param for param in tournament.params if param.name == "games")
    built = typer_parts.build_runtime_param(games.type_descriptor)
    assert typer_parts.coercion(typer.Option()) is typer_parts.NOT_BUILT  # no parameter of a command
    assert typer_parts.keep(games, built) is built
    assert typer_parts.coercion(games) is built
    assert built.coerce("12", param=games, ctx=typer.Context(tournament)) == 12
    typer_parts.keep(games, None)


def test_the_typer_installed_is_within_the_pinned_bounds() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    low, high = re.search(r'"typer>=([0-9.]+),<([0-9.]+)"', text).groups()  # type: ignore[union-attr]

    def version(text: str) -> tuple[int, ...]:
        return tuple(int(part) for part in text.split(".")[:2])

    assert version(low) <= version(importlib.metadata.version("typer")) < version(high)


def test_no_other_module_of_shutbox_imports_typers_private_modules() -> None:
    importers = []
    for path in sorted((ROOT / "shutbox_cli").rglob("*.py")) + sorted((ROOT / "tournaments").rglob("*.py")):
        text = path.read_text()
        for node in ast.walk(ast.parse(text)) if "typer._" in text else ():
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if any(name.startswith("typer._") for name in names):
                importers.append(path.relative_to(ROOT).as_posix())
    assert set(importers) == {"shutbox_cli/face/typer_parts.py"}
