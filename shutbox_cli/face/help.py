"""Help pages that read well at 60 and 80 columns and when piped: plain text, no framework
placeholders, one style of default (written in each option's help), a usage line in our words,
each option's help beside it when there is room and under it when not, the examples last.

A command's docstring is its help; a final paragraph `Examples:` followed by indented command
lines is printed as they are, after the options."""

import inspect
import textwrap
from collections.abc import Iterable
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from .coercion import defer_checks

EXAMPLES = "Examples:"
TERM_COLUMN = 28
"""The widest option name that still has its help beside it."""
BESIDE = 40
"""The narrowest help column worth putting beside the names; below it, help goes under them."""
OPTIONS = "Options"


def split_help(text: str) -> tuple[str, list[str]]:
    """A docstring's description and its example command lines."""
    description, _, examples = inspect.cleandoc(text).partition(f"\n{EXAMPLES}\n")
    return description.strip(), [line.strip() for line in examples.splitlines() if line.strip()]


def first_sentence(text: str) -> str:
    """What a command list says of a command: its help's first sentence, whole."""
    paragraph = " ".join(inspect.cleandoc(text).split("\n\n")[0].split())
    sentence, stop, _ = paragraph.partition(". ")
    return sentence + "." if stop else paragraph


def option_names(param: Any) -> str:
    """`-s, --strategy SPEC`, `--duplicate / --no-duplicate`: an option as typed."""
    shown = ", ".join(sorted(param.opts, key=len))
    if param.param_type_name == "argument":
        return str(param.metavar or param.name.upper())
    if param.secondary_opts:
        return f"{shown} / {', '.join(param.secondary_opts)}"
    if param.is_flag or param.count:
        return shown
    return f"{shown} {param.metavar or param.name.upper()}"


def usage_pieces(params: Iterable[Any]) -> list[str]:
    """`[OPTIONS] SPEC` or `[OPTIONS] [CONFIG.toml]`: required arguments bare, others in brackets."""
    pieces = ["[OPTIONS]"]
    for param in params:
        if param.param_type_name == "argument":
            name = str(param.metavar or param.name.upper())
            pieces.append(name if param.required else f"[{name}]")
    return pieces


class Page:
    """A help page being written at a given width."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.lines: list[str] = []

    def paragraph(self, text: str, indent: int = 2) -> None:
        for block in text.split("\n\n"):
            self.lines += [*_wrap(block, self.width, " " * indent, " " * indent), ""]

    def section(self, title: str, rows: list[tuple[str, str]]) -> None:
        """A titled list of names and their help, beside or under each other as the width allows."""
        if not rows:
            return
        self.lines.append(f"{title}:")
        column = min(max(len(name) for name, _ in rows), TERM_COLUMN) + 4
        beside = self.width - column >= BESIDE
        for name, text in rows:
            if beside and len(name) <= column - 4:
                wrapped = _wrap(text, self.width, " " * column, " " * column) or [""]
                self.lines.append(f"  {name.ljust(column - 2)}{wrapped[0][column:]}".rstrip())
                self.lines += wrapped[1:]
            else:
                indent = " " * (column if beside else 6)
                self.lines.append(f"  {name}")
                self.lines += _wrap(text, self.width, indent, indent)
        self.lines.append("")

    def examples(self, commands: list[str]) -> None:
        if commands:
            self.lines += [f"{EXAMPLES}", *(f"  {command}" for command in commands), ""]

    def text(self) -> str:
        return "\n".join(self.lines).rstrip() + "\n"


def _wrap(text: str, width: int, first: str, rest: str) -> list[str]:
    """Wrap between words only: an option name, a number or a path is never cut."""
    return textwrap.wrap(
        " ".join(text.split()),
        width,
        initial_indent=first,
        subsequent_indent=rest,
        break_long_words=False,
        break_on_hyphens=False,
    )


def _option_rows(params: Iterable[Any]) -> dict[str, list[tuple[str, str]]]:
    """Options by section, in declaration order; typer's help panel names the section."""
    sections: dict[str, list[tuple[str, str]]] = {OPTIONS: []}
    for param in params:
        if param.param_type_name == "option" and not param.hidden:
            title = getattr(param, "rich_help_panel", None) or OPTIONS
            sections.setdefault(title, []).append((option_names(param), param.help or ""))
    return sections


def _help_flag_false(option: Any) -> Any:
    """The help flag defaults to False, not None: a flag left unset then needs no type conversion,
    which keeps typer's validation library out of `--help` (a third of its time)."""
    if option is not None and option.default is None:
        option.default = False
    return option


class ShutboxCommand(TyperCommand):
    """A command whose help is written by `Page`, its parameters checked by typer's validators only
    where they have a value to check (`coercion`)."""

    def get_help_option(self, ctx: Any) -> Any:
        return _help_flag_false(super().get_help_option(ctx))

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return usage_pieces(self.get_params(ctx))

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        defer_checks(self.get_params(ctx))
        return super().parse_args(ctx, args)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        page = Page(formatter.width)
        description, examples = split_help(self.help or "")
        page.lines += [f"Usage: {ctx.command_path} {' '.join(self.collect_usage_pieces(ctx))}", ""]
        page.paragraph(description)
        params: list[Any] = self.get_params(ctx)
        arguments = [(option_names(param), param.help or "") for param in params if param.param_type_name == "argument"]
        page.section("Arguments", arguments)
        for title, rows in _option_rows(params).items():
            page.section(title, rows)
        page.examples(examples)
        formatter.write(page.text())


class ShutboxGroup(TyperGroup):
    """The `shutbox` command: its help lists every command with its first sentence, whole."""

    def get_help_option(self, ctx: Any) -> Any:
        return _help_flag_false(super().get_help_option(ctx))

    def format_help(self, ctx: Any, formatter: Any) -> None:
        page = Page(formatter.width)
        description, examples = split_help(self.help or "")
        page.lines += [f"Usage: {ctx.command_path} [OPTIONS] COMMAND [ARGS]", ""]
        page.paragraph(description)
        commands = [(name, self.commands[name]) for name in self.list_commands(ctx)]
        page.section("Commands", [(name, first_sentence(cmd.help or "")) for name, cmd in commands if not cmd.hidden])
        for title, rows in _option_rows(self.get_params(ctx)).items():
            page.section(title, rows)
        page.examples(examples)
        formatter.write(page.text())


def use_our_help(app: typer.Typer) -> None:
    """Every command of `app` (registered so far) writes its help with `Page`."""
    for info in app.registered_commands:
        if info.cls in (None, TyperCommand):
            info.cls = ShutboxCommand
