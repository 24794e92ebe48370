"""The values a command line gives, as shutbox reads them (`shutbox_cli.face.coercion`): the plain
ones converted without typer's validation library, to exactly what typer's own conversion gives;
every other value, and every bad one, left to typer's, with its message."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer
import typer.main

from shutbox_cli.face import cli, typer_parts
from shutbox_cli.face.coercion import defer_checks

VALUES = (
    "100", "0", "-1", "-0", "007", "2", "3", "60", "61", "1_000", " 5", "1e3", "0.5", "-0.5", "0.01",
    "0.001", "1.", "abc", "", "12345678901234567890123", "r.toml", "a/b/", "~/x", "json", "JSON",
    "table", "csv", "nope", "Table", "-", "--",
)  # fmt: skip
"""Texts a user may give: numbers in and out of bounds, plain and not, paths, choices good and bad."""


def parameters() -> Iterator[tuple[str, Any, Any]]:
    """A typer parameter of each kind (type, bounds, path checks, repeated or not) that a shutbox
    command has, with its command's context."""
    group = typer.main.get_command(cli.app)

    def walk(command: Any, path: str) -> Iterator[tuple[str, Any, Any]]:
        ctx = typer.Context(command, info_name=path)
        for param in command.params:
            if hasattr(param, "type_descriptor") and kind(param) not in kinds:
                kinds.add(kind(param))
                yield f"{path} {param.name}", param, ctx
        for name, sub in getattr(command, "commands", {}).items():
            yield from walk(sub, f"{path} {name}")

    kinds: set[str] = set()
    yield from walk(group, "shutbox")


def kind(param: Any) -> str:
    """What decides how a parameter's value is converted."""
    info = param.type_descriptor.parameter_info
    checks = (info.parser, info.min, info.max, info.clamp, info.exists, info.file_okay, info.dir_okay, info.path_type)
    return repr((param.type_descriptor.annotation, param.multiple, checks))


def outcome(coerce: Any, value: Any, param: Any, ctx: Any) -> tuple[str, Any]:
    """What a coercion gives for the value: ("value", it and its type) or ("error", the message)."""
    try:
        result = coerce(value, param=param, ctx=ctx)
    except typer.BadParameter as error:
        return "error", error.format_message()
    return "value", (result, type(result), [type(item) for item in result] if isinstance(result, list) else None)


def test_every_value_given_converts_as_typer_converts_it_and_fails_with_its_message() -> None:
    checked = 0
    for name, param, ctx in parameters():
        own = typer_parts.build_runtime_param(param.type_descriptor)
        given: list[Any] = [list(VALUES), ["optimal"], []] if param.multiple else list(VALUES)
        for value in given:
            defer_checks([param])
            deferred = typer_parts.coercion(param)
            assert outcome(deferred.coerce, value, param, ctx) == outcome(own.coerce, value, param, ctx), (
                name,
                value,
            )
            typer_parts.keep(param, None)
            checked += 1
    assert checked > 300
