"""Where a command's results go: a table for people, or a report for scripts (docs/report.md).

`--format table` (the default) prints the table on stdout; `--format json` or `toml` prints the
report there instead. `--report FILE` also writes the report to a file (JSON for a `.json` file,
else TOML). `--report -`, or a path that is this process's stdout (`/dev/stdout`), writes the report
to stdout, in TOML unless `--format json`, and the table then goes to stderr: stdout holds one
document a script can parse. Notes and the progress bar always go to stderr.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from shutbox_cli.game.terms import Seed

if TYPE_CHECKING:
    from rich.console import Console

STDOUT = "-"
"""The report path that means stdout."""


class Format(StrEnum):
    """How a command prints its results."""

    TABLE = "table"
    JSON = "json"
    TOML = "toml"


FormatOption = Annotated[
    Format,
    typer.Option(
        "--format",
        metavar="FORMAT",
        case_sensitive=False,
        help="How the results are printed: table (for people), json or toml (the report of `shutbox docs report`).",
    ),
]
"""The `--format` option, declared once for every command that has it."""


def is_stdout(path: Path) -> bool:
    """Whether a report path means this process's stdout: `-`, or a name for it (`/dev/stdout`,
    `/dev/fd/1`) whatever stdout is (a pipe, a terminal, a file)."""
    if str(path) == STDOUT:
        return True
    try:
        return os.path.samestat(os.stat(path), os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError):  # nothing there, a null character, a stdout without a descriptor
        return False


def print_document(table: dict[str, Any], form: Format) -> None:
    """A report (or any table) on stdout as JSON or TOML."""
    from tournaments.parts import dumps

    sys.stdout.write(dumps(table, "json" if form is Format.JSON else "toml"))
    sys.stdout.flush()


T = TypeVar("T")
"""What a command computes."""


@dataclasses.dataclass(frozen=True)
class Output:
    """Where one run's report and table go, from `--format` and `--report`."""

    form: Format
    report: Path | None

    @property
    def to_stdout(self) -> bool:
        """Whether the report goes to stdout."""
        return self.form is not Format.TABLE or (self.report is not None and is_stdout(self.report))

    @property
    def file(self) -> Path | None:
        """The report file to write, if any (not stdout)."""
        return None if self.report is None or is_stdout(self.report) else self.report

    @property
    def table(self) -> bool:
        """Whether the table is printed (on stdout, or on stderr when the report is there)."""
        return self.form is Format.TABLE

    def check(self) -> None:
        """Before long work: fail with a `FileWriteError` if the report file cannot be written."""
        from tournaments.parts import check_writable

        if self.file is not None:
            check_writable(self.file)

    def deliver(self, result: Any, written: bool = False) -> None:
        """Write the result's report to the file (unless it is `written` already) and to stdout, as asked."""
        if (self.file is None or written) and not self.to_stdout:
            return  # nothing to write: the report's modules stay unloaded
        from tournaments.parts import format_of, result_table, write_table_atomically

        if self.file is not None and not written:  # its strategy file paths are written relative to its folder
            write_table_atomically(self.file, result_table(result, self.file.parent), format_of(self.file))
        if self.to_stdout:
            print_document(result_table(result), Format.JSON if self.form is Format.JSON else Format.TOML)

    def computed(self, compute: Callable[[], T], show: Callable[[Console, T], None]) -> None:
        """A command that computes one result: the report file checked first, the result computed,
        delivered, `show`n as a table when asked and the file named; a ConfigError or a report that
        cannot be written is one sentence and exit status 2."""
        import tournaments

        from .errors import fail
        from .settings import said

        try:
            self.check()
            found = compute()
            self.deliver(found)
        except (tournaments.ConfigError, tournaments.FileWriteError) as error:
            fail(said(error))
        if self.table:
            show(self.console(), found)
        self.written()

    def console(self) -> Console:
        """Where the table is printed: stdout, or stderr when the report is on stdout."""
        from .console import results_console

        return results_console(stderr=self.to_stdout)

    def note(self, text: str) -> None:
        """A line for people: on stderr when stdout holds the report."""
        typer.echo(text, err=self.to_stdout)

    def drawn(self, seed: Seed) -> None:
        """A seed drawn for the run, said on stderr when no table shows it (the report has it too)."""
        if not self.table:
            typer.echo(f"Seed {seed} was drawn; repeat with --seed {seed}.", err=True)

    def written(self) -> None:
        """After the results: where the report file was written, on stderr."""
        from strategies.runner import printable

        if self.file is not None:
            typer.echo(f"Report written to {printable(str(self.file))}.", err=True)
