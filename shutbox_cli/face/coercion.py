"""Typer checks every parameter of the command it runs with a validator of pydantic's, built on
first use, whether the command line gives the parameter a value or not: a command with options
left at their defaults loads pydantic (a tenth of a second) to hand back None, one given `-n 100`
to read a number. `defer_checks` builds each validator where a value is to be checked that shutbox
does not convert itself, exactly as typer's would: no value, an enum parameter's default member, a
number parameter's default number, text for a text parameter (a list of them for a repeatable one),
a plainly written number within its bounds, a path, an enum's choice (by typer's own matching).
typer's private pieces it uses are pinned in `typer_parts`."""

from __future__ import annotations

import contextlib
import re
from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

from .typer_parts import PINNED, build_runtime_param, coerce_cli_choice, coerce_cli_path, coercion, keep

PLAIN = {int: re.compile(r"-?[0-9]{1,18}"), float: re.compile(r"-?[0-9]{1,15}(\.[0-9]{1,15})?")}
"""Numbers written as the validator reads them, to the same number, by `int` or `float`."""


NOT_PLAIN = object()
"""What `_plain` gives for a value it leaves to typer's coercion."""


class _Deferred:
    """A parameter's coercion, typer's own built on the first value shutbox does not convert."""

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        """What typer's coercion gives for `value`: None (or () for many values) where none is
        given; a plain value (`_plain`) converted here; anything else through typer's."""
        if value is None:
            return () if param.multiple or param.nargs == -1 else None
        descriptor = param.type_descriptor
        if descriptor.parameter_info.parser is None and descriptor.file_annotation is None:
            plain = _plain(value, descriptor.annotation, descriptor.parameter_info, param, ctx)
            if plain is not NOT_PLAIN:
                return plain
        return keep(param, build_runtime_param(descriptor)).coerce(value, param=param, ctx=ctx)


def _plain(value: Any, annotation: Any, info: Any, param: Any, ctx: Any) -> Any:
    """What typer's coercion gives for a plain value, as it would give it (its checks of a path or
    a choice are typer's own): an enum member of the parameter's enum, or text for text, as it is;
    a number of the parameter's type, or one plainly written (`PLAIN`), within its bounds; a path;
    a choice of an enum; texts for a list of texts, as a list. NOT_PLAIN for anything else."""
    enum = isinstance(annotation, type) and issubclass(annotation, Enum)
    if type(value) is annotation and (annotation is str or enum):
        return value
    if type(value) is str and annotation in PLAIN and not info.clamp and PLAIN[annotation].fullmatch(value):
        value = annotation(value)
    if type(value) is annotation and annotation in PLAIN and _within(value, info):
        return value
    if type(value) is str and enum:
        with contextlib.suppress(ValueError):  # not one of the choices: said by typer's
            return coerce_cli_choice(value, choices=list(annotation), case_sensitive=info.case_sensitive, ctx=ctx)
    if type(value) is str and annotation is Path and info.path_type is None:
        return coerce_cli_path(Path(value), info, path_type=Path, param=param, ctx=ctx)
    texts = get_origin(annotation) is list and get_args(annotation) == (str,)
    if texts and isinstance(value, (list, tuple)) and all(type(item) is str for item in value):
        return list(value)
    return NOT_PLAIN


def _within(number: float, info: Any) -> bool:
    """Whether a number is within its option's bounds (a default always is)."""
    return (info.min is None or number >= info.min) and (info.max is None or number <= info.max)


def defer_checks(params: list[Any]) -> None:
    """Give each typer parameter whose coercion is not built yet the deferred one (a parameter of
    another kind, or of a typer that builds its coercion otherwise, is left as it is)."""
    if not PINNED:
        return
    for param in params:
        if coercion(param) is None and hasattr(param, "type_descriptor"):
            keep(param, _Deferred())
