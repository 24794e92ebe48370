"""Typer checks every parameter of the command it runs with a validator of pydantic's, built on
first use, whether the command line gives the parameter a value or not: a command with options
left at their defaults loads pydantic (a tenth of a second) to hand back None. `defer_checks`
builds each validator where a value is to be checked, and hands back unchecked what typer's
would hand back unchanged: no value, an enum parameter's default member, a number parameter's
default number, text for a text parameter (a list of them for a repeatable one)."""

from __future__ import annotations

from enum import Enum
from typing import Any, get_args, get_origin

import typer._coercion


class _Deferred:
    """A parameter's coercion, typer's own built on the first value it would change."""

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        """What typer's coercion gives for `value`: None (or () for many values) where none is
        given; an enum member of the parameter's enum, text for text, a number of the parameter's
        type within its bounds, as it is; texts for a list of texts as a list; anything else
        through typer's."""
        if value is None:
            return () if param.multiple or param.nargs == -1 else None
        descriptor = param.type_descriptor
        annotation = descriptor.annotation
        if descriptor.parameter_info.parser is None:
            if type(value) is annotation and (annotation is str or issubclass(annotation, Enum)):
                return value
            if type(value) is annotation and annotation in (int, float) and _within(value, descriptor.parameter_info):
                return value
            texts = get_origin(annotation) is list and get_args(annotation) == (str,)
            if texts and isinstance(value, tuple) and all(type(item) is str for item in value):
                return list(value)
        param._runtime_param = typer._coercion.build_runtime_param(descriptor)
        return param._runtime_param.coerce(value, param=param, ctx=ctx)


def _within(number: float, info: Any) -> bool:
    """Whether a number is within its option's bounds (a default always is)."""
    return (info.min is None or number >= info.min) and (info.max is None or number <= info.max)


def defer_checks(params: list[Any]) -> None:
    """Give each typer parameter whose coercion is not built yet the deferred one (a parameter of
    another kind, or of a typer that builds its coercion otherwise, is left as it is)."""
    if not hasattr(typer._coercion, "build_runtime_param"):
        return
    for param in params:
        if getattr(param, "_runtime_param", ...) is None and hasattr(param, "type_descriptor"):
            param._runtime_param = _Deferred()
