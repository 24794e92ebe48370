"""`shutbox docs [PAGE]`: the project's own pages (docs/ in the source; shipped inside the package),
so that help can point to them wherever shutbox is installed."""

import os
import re
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from ..errors import FAILURE, fail


class Page(StrEnum):
    """The pages of docs/, in the order they are listed: the guides, then the reference."""

    PLAYING = "playing"
    TOURNAMENTS = "tournaments"
    STRATEGIES = "strategies"
    EXACT = "exact"
    SHEET = "sheet"
    VALUES = "values"
    STAKES = "stakes"
    LIBRARY = "library"
    HISTORY = "history"
    RL = "rl"
    COMMANDS = "commands"
    DEVELOPMENT = "development"
    RULES = "rules"
    REPORT = "report"
    DICE = "dice"
    STATISTICS = "statistics"
    TRUST = "trust"
    FILES = "files"
    ARCHITECTURE = "architecture"


_PACKAGE = Path(__file__).resolve().parents[2]  # shutbox_cli/face/commands/ -> shutbox_cli


def _folders() -> list[Path]:
    """Where the pages are: inside the installed package, else (an editable install, a run from the
    source) in the checkout's docs/; site-packages/docs, beside an installed package, would be another's."""
    folders = [_PACKAGE / "docs"]
    if (_PACKAGE.parent / "pyproject.toml").is_file():
        folders.append(_PACKAGE.parent / "docs")
    return folders


def page_path(page: Page) -> Path | None:
    """The file of a page, if this installation has it."""
    return next((path for folder in _folders() if (path := folder / f"{page.value}.md").is_file()), None)


def _title(path: Path) -> str:
    """A page's title: its first heading, without the `#`."""
    with path.open(encoding="utf-8") as file:
        return next((line.lstrip("#").strip() for line in file if line.startswith("#")), path.stem)


def register(app: typer.Typer) -> None:
    app.command("docs")(docs_command)


def docs_command(
    page: Annotated[
        Page | None,
        typer.Argument(metavar="PAGE", show_default=False, help="a page, such as playing or rules; none lists them."),
    ] = None,
) -> None:
    """Show one of shutbox's pages: the guides (playing, tournaments and CI, writing strategies, exact
    analysis, the cheat sheet, the value of the game, stakes and fair rules, the history of runs,
    reinforcement learning, the library, the command line, tests and benchmarks), the rules and every
    variant, the report schema, the dice scheme, the statistics (game pairs, Elo and nElo, the SPRT, ratings), what
    confines a strategy's host, the files shutbox keeps and the architecture. On a terminal it is
    rendered at the terminal's width, through the pager ($PAGER, else less) when long; piped, it is
    the page's Markdown with each paragraph on one line, for grep.

    Exit status: 0 done, 1 if this installation lacks the page, 2 for an unknown page.

    Examples:
      shutbox docs
      shutbox docs rules | grep -i "one die"
      shutbox docs strategies
    """
    pages = list(Page) if page is None else [page]
    paths = {shown: page_path(shown) for shown in pages}
    missing = [shown.value for shown, path in paths.items() if path is None]
    if missing:
        fail(
            f"this installation of shutbox lacks its page {missing[0]!r} (docs/{missing[0]}.md); reinstall shutbox.",
            FAILURE,
        )
    if page is None:
        width = max(len(shown.value) for shown in pages)
        for shown, path in paths.items():
            assert path is not None
            typer.echo(f"{shown.value.ljust(width)}  {_title(path)}")
        return
    path = paths[page]
    assert path is not None
    text = path.read_text(encoding="utf-8")
    if sys.stdout.isatty():
        _show(text)
    else:
        typer.echo(unwrapped(text), nl=False)


_STARTS_BLOCK = re.compile(r"#|\||>|```|[-*+] |\d+\. ")
"""How a line that starts a block of its own opens: a heading, a table's row, a quote, a fence, a list item."""


def unwrapped(markdown: str) -> str:
    """The page with each paragraph and list item on one line (so grep finds a sentence): a line
    break within one is a space; headings, tables and code stay as they are written."""
    lines: list[str] = []
    fenced = joinable = False
    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
        elif joinable and not fenced and stripped and not _STARTS_BLOCK.match(stripped):
            lines[-1] += " " + stripped
            continue
        lines.append(line)
        joinable = bool(stripped) and not fenced and not stripped.startswith(("#", "|", "```"))
    return "\n".join(lines) + "\n"


def _show(markdown: str) -> None:
    """The page rendered for the terminal at its width, through the pager ($PAGER, else less) when
    it is longer than the screen; printed, said once, when the pager cannot show it."""
    from rich.markdown import Markdown

    from ..console import results_console

    console = results_console()
    page = Markdown(markdown, hyperlinks=False)
    with console.capture() as captured:
        console.print(page)
    rendered = captured.get()
    if rendered.count("\n") <= console.height:
        console.print(page)
        return
    failed = _paged(rendered)
    if failed is not None:
        typer.echo(f"shutbox: the pager could not show the page ({failed}); here it is.", err=True)
        typer.echo(rendered, nl=False)


def _paged(rendered: str) -> str | None:
    """Pipe the rendered page to the pager ($PAGER, else less, run by the shell as a pager is); why it
    failed (it could not start, or ended with a status of failure), or None once it showed the page."""
    import subprocess

    command = os.environ.get("PAGER") or "less"
    os.environ.setdefault("LESS", "-R")  # less, the pager by default, shows the page's styles
    try:
        done = subprocess.run(command, shell=True, input=rendered.encode(), stderr=subprocess.PIPE, check=False)
    except OSError as error:
        return f"PAGER={command!r}: {error.strerror or error}"
    why = done.stderr.decode(errors="replace").strip().splitlines()
    if done.returncode <= 0:
        return None
    return f"PAGER={command!r} ended with status {done.returncode}" + (f": {why[-1]}" if why else "")
