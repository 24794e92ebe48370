"""The line after a match's or a tournament's table that points to the exact command answering what
its games leave to chance (`tournaments.parts.exact_pointer`): `diff` of two strategies, `explain`
of one, spelled as a command line ready to copy; or that the two it would set side by side choose alike."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tournaments import ExactSummary, Summary

SAID = {
    ("diff", "match"): "says where they differ",
    ("diff", "tournament"): "says where the top two differ",
    ("explain", "tournament"): "says where the first loses",
}
"""What each command answers, after each kind of run."""

ALIKE = {
    "match": "exact: {} and {} choose alike in every state (one fingerprint): their games differ by luck.",
    "tournament": "exact: the top two, {} and {}, choose alike in every state (one fingerprint).",
}
"""Said instead of a pointer to `diff` where the two it would set side by side choose alike."""


def pointer_line(summary: "Summary | ExactSummary", run: str) -> str | None:
    """The pointer after the table of `run` (`match` or `tournament`), or None where none applies."""
    from tournaments.parts import alike, exact_pointer

    from .literal import literal
    from .settings import command_line

    command = exact_pointer(summary)
    if command is None:
        return None
    names = alike(summary) if command.name == "diff" else None
    if names is not None:
        return ALIKE[run].format(*map(literal, names))
    return f"exact: `{command_line(command)}` {SAID[command.name, run]}."
