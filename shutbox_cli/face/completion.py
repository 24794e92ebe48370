"""Shell completion: `shutbox completion bash|zsh|fish` prints the script a shell sources, and
strategy options complete with the registered strategy names. Typer completes the commands,
the options and the values of choice options itself."""

from enum import StrEnum
from typing import Annotated

import typer

PROGRAM = "shutbox"
COMPLETE_VARIABLE = "_SHUTBOX_COMPLETE"
"""The variable the completion scripts set to ask `shutbox` for completions."""


class Shell(StrEnum):
    BASH = "bash"
    ZSH = "zsh"
    FISH = "fish"


def complete_strategy(incomplete: str) -> list[str]:
    """Registered strategy names (built-in and installed) that start with what was typed."""
    from strategies.runner import BUILTINS, registry

    names = sorted({*BUILTINS, *registry()})
    return [name for name in names if name.startswith(incomplete)]


def wanted() -> bool:
    """Whether a shell is asking for completions (then typer's completion classes must be set up)."""
    import os

    return COMPLETE_VARIABLE in os.environ


def set_up() -> None:
    """Register typer's bash, zsh and fish completion (only `add_completion=True` does it otherwise)."""
    from .typer_parts import completion_init

    completion_init()


def register(app: typer.Typer) -> None:
    app.command("completion")(completion_command)


def completion_command(
    ctx: typer.Context,
    shell: Annotated[Shell, typer.Argument(metavar="SHELL", help="bash, zsh or fish.", show_default=False)],
) -> None:
    """Print the shell completion script of shutbox, for your shell's start-up file.

    Completes commands, options, the values of rule options and strategy names.

    Examples:
      eval "$(shutbox completion bash)"
      eval "$(shutbox completion zsh)"
      shutbox completion fish | source
    """
    from typer.completion import shell_complete

    set_up()
    root = ctx.find_root().command
    raise typer.Exit(shell_complete(root, {}, PROGRAM, COMPLETE_VARIABLE, f"source_{shell.value}"))
