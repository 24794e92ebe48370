"""Arguments more than one command takes, declared once."""

from typing import Annotated

import typer

StrategySpec = Annotated[
    str,
    typer.Argument(
        metavar="SPEC",
        show_default=False,
        help="The strategy: a name, module:Class or path/file.py:Class, maybe with (k=v).",
    ),
]
"""A strategy given by its spec."""
