"""Help pages of the command (run in this process as its console script runs it; the real one
prints the same) at 60 and 80 columns: nothing cut, no framework placeholders, one style of
default, the project's metavars, and examples at the bottom."""

from __future__ import annotations

import os
import re
import subprocess
from typing import Any

import pytest
import typer.main

from shutbox_cli.face.cli import app, command_line

from helpers.command import SHUTBOX, shutbox

COMMANDS = ["", *typer.main.get_command(app).commands]  # type: ignore[attr-defined]
"""The root and every command, as registered: a new command's help is held to the same."""
PLACEHOLDERS = re.compile(r"<(int|float|bool|path|str|text)|\{[A-Z.a-z]+\}|x[<>]=|\\\[|\(default:|\.\.\.|…")


def help_page(command: str, columns: int) -> str:
    args = [command] if command else []
    done = shutbox(*args, "--help", env={"COLUMNS": str(columns), "NO_COLOR": "1"})
    assert (done.returncode, done.stderr) == (0, "")
    return done.stdout


@pytest.mark.parametrize("command", ["", "tournament"])
def test_the_console_script_prints_the_help_written_here(command: str) -> None:
    env = {**os.environ, "COLUMNS": "60", "NO_COLOR": "1"}
    args = [command] if command else []
    done = subprocess.run([SHUTBOX, *args, "--help"], capture_output=True, text=True, env=env, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, help_page(command, 60), "")


@pytest.mark.parametrize("columns", [60, 80])
@pytest.mark.parametrize("command", COMMANDS)
def test_help_fits_and_speaks_our_words(command: str, columns: int) -> None:
    page = help_page(command, columns)
    assert max(len(line) for line in page.splitlines()) <= columns
    assert PLACEHOLDERS.findall(page) == []
    assert page.startswith(f"Usage: shutbox {command}".replace("  ", " "))


@pytest.mark.parametrize("command", COMMANDS)
def test_help_ends_with_real_examples(command: str) -> None:
    page = help_page(command, 60)
    examples = page.split("\nExamples:\n")[1].splitlines()
    assert 2 <= len(examples) <= 3
    assert all(re.match(r"  (shutbox |eval \"\$\(shutbox )", line) for line in examples)
    if command:
        assert all(f"shutbox {command}" in line for line in examples)


def test_an_option_help_is_whole_at_60_columns() -> None:
    """The `-s` help used to be cut ("file.py:Cla..."); each option's help now reads as written."""
    page = help_page("tournament", 60)
    words = " ".join(page.split())
    assert "-s, --strategy SPEC A strategy, in seat order (repeat for more): a name, module:Class or" in words
    assert "path/file.py:Class, with parameters as name(k=v); NAME=SPEC gives it a name of its own." in words
    assert "-n, --games N Games per matchup, rounded up to a multiple of the table size [default: 2000]." in words
    assert "--tiles N Box size, 2 to 12 tiles [default: 9]." in words


def test_the_command_list_says_each_command_whole() -> None:
    page = help_page("", 60)
    commands = page.split("\nCommands:\n")[1].split("\n\n")[0]
    for name in COMMANDS[1:]:
        assert re.search(rf"^  {name} ", commands, re.MULTILINE)
    assert "Print the shell completion script of shutbox, for your shell's start-up file." in " ".join(commands.split())


def test_a_command_built_alone_is_the_command_built_with_the_others() -> None:
    """A run of one command builds only that command (`cli.command_line`): its help and its
    parameters are those it has in the whole command line."""
    whole = typer.main.get_command(app)
    for name in COMMANDS[1:]:
        alone = typer.main.get_command(command_line((name,)))
        assert list(alone.commands) == [name]  # type: ignore[attr-defined]
        one, other = alone.commands[name], whole.commands[name]  # type: ignore[attr-defined]
        assert [settings(param) for param in one.params] == [settings(param) for param in other.params]
        assert (type(one), one.help, one.callback.__wrapped__) == (type(other), other.help, other.callback.__wrapped__)


def settings(param: Any) -> dict[str, Any]:
    """What a parameter is made with (its coercion made on its first use; its details and its
    completion's wrapper made anew, each time typer builds it)."""
    made = {key: value for key, value in vars(param).items() if key != "_runtime_param"}
    descriptor = made.pop("type_descriptor")
    made["type"] = (descriptor.annotation, vars(descriptor.parameter_info), descriptor.file_annotation)
    made["_custom_shell_complete"] = made.get("_custom_shell_complete") is not None
    return made
