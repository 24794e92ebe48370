"""typer's private pieces shutbox uses, in this one place, pinned (pyproject.toml bounds typer
below its next minor version) and tested (tests/face/test_typer_parts.py fails if one vanishes).

Why: typer checks every parameter of the command it runs with a validator of pydantic's, built
on first use (a tenth of a second of a short command's start; see `coercion`). shutbox converts
the plain values itself and builds typer's own coercion, with typer's own pieces, only where it
must: `analyze optimal` takes 0.30 CPU-s so, 0.40 without (benchmarks/typer_parts.py). A typer
without these pieces leaves its coercion to typer (`PINNED` is False and `coercion.defer_checks`
does nothing): slower, never wrong. Shell completion's classes are typer's too, registered by
`completion_init` (typer's public module only re-exports it)."""

from typing import Any

try:
    from typer._coercion import build_runtime_param
    from typer._param_types import coerce_cli_choice, coerce_cli_path
except ImportError:  # a typer that builds its coercion otherwise
    build_runtime_param = None  # type: ignore[assignment]
    coerce_cli_choice = coerce_cli_path = None  # type: ignore[assignment]

PINNED = build_runtime_param is not None and coerce_cli_choice is not None and coerce_cli_path is not None
"""Whether this typer has the pieces shutbox pins (else its coercion is left to it)."""

NOT_BUILT = object()
"""What `coercion` gives for a parameter typer keeps no coercion on (another kind, or typer)."""

__all__ = [
    "NOT_BUILT",
    "PINNED",
    "build_runtime_param",
    "coerce_cli_choice",
    "coerce_cli_path",
    "coercion",
    "completion_init",
    "keep",
]


def coercion(param: Any) -> Any:
    """The coercion typer keeps on a parameter (None until built), or NOT_BUILT if it keeps none."""
    return getattr(param, "_runtime_param", NOT_BUILT)


def keep(param: Any, coerce: Any) -> Any:
    """Keep `coerce` as the parameter's coercion, where typer looks for it; give it back."""
    param._runtime_param = coerce  # noqa: SLF001  # typer's own slot for it, pinned here
    return coerce


def completion_init() -> None:
    """Register typer's bash, zsh and fish completion classes (loaded only when a shell asks)."""
    try:
        from typer._completion_classes import completion_init as init
    except ImportError:  # a typer that keeps them elsewhere: its public module finds them
        from typer.completion import completion_init as init  # type: ignore[attr-defined]

    init()
