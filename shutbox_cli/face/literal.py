"""Text from a strategy or a person (a name, a description, an error) as rich prints it: its
characters and nothing else. Control characters are written out (an escape sequence cannot
reach the terminal) and markup is escaped (`[bold]` in a name is text, not a style)."""

from rich.markup import escape

from strategies.runner import printable, printable_lines


def literal(text: str) -> str:
    """One line of text for rich markup: printable, its brackets escaped."""
    return escape(printable(text))


def literal_lines(text: str) -> str:
    """Text of several lines for rich markup: printable line by line, its brackets escaped."""
    return escape(printable_lines(text))
