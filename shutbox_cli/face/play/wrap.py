"""Breaking a long line for a terminal: between words and after commas, never inside a group of tiles.

Left to itself rich breaks at any space, so a list of combinations could end a line with
`2 + 3 +` and go on with `4.`. Here a line breaks only at a space that is neither next to a
`+` or `=` (a sum of tiles or a throw: `1 + 3 + 5`, `3 + 6 = 9`) nor a single space between
two numbers (tiles as typed: `3 6`); the lines after the first keep the first one's indent.
(A row of tiles is laid out by `board.tile_rows`, which breaks it between tiles.)
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.text import Text

_GAP = re.compile(r"(?<=\S) +(?=\S)")


def _breakable(plain: str, start: int, end: int) -> bool:
    """Whether the spaces plain[start:end] (between two non-spaces) may end a line."""
    before, after = plain[start - 1], plain[end]
    if before in "+=" or after in "+=":
        return False
    return not (end - start == 1 and before.isdigit() and after.isdigit())


def break_offsets(plain: str, width: int, indent: int) -> list[int]:
    """Where to start each new line so that lines fit in `width` cells, those after the first
    behind `indent` cells of spaces (a group wider than that stands alone)."""
    offsets: list[int] = []
    start, last = 0, None
    for gap in _GAP.finditer(plain):
        if not _breakable(plain, gap.start(), gap.end()):
            continue
        used = cell_len(plain[start : gap.start()]) + (indent if offsets else 0)
        if last is not None and used > width:
            offsets.append(last)
            start = last
        last = gap.end()
    if last is not None and last > start and cell_len(plain[start:]) + (indent if offsets else 0) > width:
        offsets.append(last)
    return offsets


def wrap(line: Text, width: int) -> list[Text]:
    """The line as lines of at most `width` cells, broken only where `_breakable` allows, styles kept."""
    plain = line.plain
    indent = plain[: len(plain) - len(plain.lstrip(" "))]
    offsets = break_offsets(plain, width, len(indent))
    if not offsets:
        return [line]
    first, *rest = line.divide(offsets)
    for piece in (first, *rest[:-1]):
        piece.rstrip()
    return [first] + [Text(indent) + piece for piece in rest]
