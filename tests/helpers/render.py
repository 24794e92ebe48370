"""A view rendered in this process: a rich `Console` on a `StringIO` at a fixed width, no colour."""

from __future__ import annotations

import io
from collections.abc import Callable

from rich.console import Console

WIDTH = 80


def rendered(show: Callable[..., None], *args: object, width: int = WIDTH) -> list[str]:
    """The lines `show(console, *args)` prints, trailing spaces dropped."""
    out = io.StringIO()
    show(Console(file=out, width=width, no_color=True, highlight=False, emoji=False), *args)
    return [line.rstrip() for line in out.getvalue().splitlines()]
