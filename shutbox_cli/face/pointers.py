"""The line after a match's or a tournament's table that points to the exact command answering what
its games leave to chance (`tournaments.parts.exact_pointer`): `diff` of two strategies, `explain`
of one, spelled as a command line ready to copy."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tournaments import ExactSummary, Summary

SAID = {
    ("diff", "match"): "says where they differ",
    ("diff", "tournament"): "says where the top two differ",
    ("explain", "tournament"): "says where the first loses",
}
"""What each command answers, after each kind of run."""


def pointer_line(summary: "Summary | ExactSummary", run: str) -> str | None:
    """The pointer after the table of `run` (`match` or `tournament`), or None where none applies."""
    from tournaments.parts import exact_pointer

    from .settings import command_line

    command = exact_pointer(summary)
    if command is None:
        return None
    return f"exact: `{command_line(command)}` {SAID[command.name, run]}."
