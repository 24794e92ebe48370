"""Showing what came from a strategy (an answer, an exception, a name) in a message: whatever
its `repr` or `str` does (raise, return garbage, run to megabytes), the result is a short line
with every control character written out, so it can neither break the message nor reach the
terminal as an escape sequence."""

from __future__ import annotations

import difflib
import reprlib
from collections.abc import Iterable

from .guard import raised_by_strategy

MOST_CHARACTERS = 300
"""The longest message of a strategy's exception shown; the rest is cut."""


def printable(text: str) -> str:
    """`text` with every character that is not printable (control, format, separator characters
    other than the space) written as its escape: `\\x1b`, `\\n`, `\\u202e`."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def printable_lines(text: str) -> str:
    """`printable` line by line: the line breaks are kept, as a message of several lines needs."""
    return "\n".join(printable(line) for line in text.split("\n"))


def did_you_mean(given: str, known: Iterable[str]) -> str:
    """` (did you mean 'x'?)`, naming the known words closest to a mistyped one (case aside), or
    nothing if none is close: for a message that then goes on to list every known word."""
    words = {word.casefold(): word for word in reversed(list(known))}
    close = [words[word] for word in difflib.get_close_matches(given.casefold(), words, n=3, cutoff=0.6)]
    if not close:
        return ""
    quoted = [repr(word) for word in close]
    either = ", ".join(quoted[:-1]) + f" or {quoted[-1]}" if len(quoted) > 1 else quoted[0]
    return f" (did you mean {either}?)"


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 3] + "..."


def type_name(value: object) -> str:
    """The name of a value's class, as a message may show it (a metaclass may make it raise)."""
    try:
        name = type(value).__name__
    except BaseException as error:
        if not raised_by_strategy(error):
            raise
        return "object"
    return printable(_cut(str.__str__(name), 80)) if isinstance(name, str) else "object"


class _ShortRepr(reprlib.Repr):
    """repr() of an answer, cut short where it is long; a repr that raises is named, not raised."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxtuple = self.maxlist = self.maxset = self.maxfrozenset = self.maxdeque = 16
        self.maxdict = 8
        self.maxstring = self.maxother = 80

    def repr_instance(self, x: object, level: int) -> str:
        try:
            text = repr(x)
        except BaseException as error:  # a strategy's own class may have a repr that raises anything
            if not raised_by_strategy(error):
                raise
            return f"<{type_name(x)} object>"
        return _cut(str.__str__(text), self.maxother)  # a str of the class's own, its methods overridden


_short_repr = _ShortRepr()


def answer_text(answer: object) -> str:
    """The answer as its repr, at most a line long and printable, whatever its repr does."""
    try:
        text = _short_repr.repr(answer)
    except BaseException as error:
        if not raised_by_strategy(error):
            raise
        return f"<{type_name(answer)} object>"
    return printable(text)


def cause(error: BaseException) -> str:
    """An exception as the end of a one-sentence message: `ValueError: margin must be positive.`,
    `SystemExit(0).`, `KeyboardInterrupt.`"""
    kind = type_name(error)
    if isinstance(error, SystemExit):
        return f"{kind}({answer_text(error.code)})."
    try:
        text = " ".join(_cut(str.__str__(str(error)), MOST_CHARACTERS).split())
    except BaseException as failure:  # a user's exception may have a __str__ that raises anything
        if not raised_by_strategy(failure):
            raise
        text = "(its message could not be shown)"
    if not text:
        return f"{kind}."
    return f"{kind}: {printable(text)}{'' if text.endswith(('.', '!', '?')) else '.'}"
