"""How `explain` and `diff` draw the states where a strategy chooses otherwise: the box as its tiles,
the roll, the two choices, then the figures. Where the terminal has room for every column, a table,
a row a line; where it has not, each row stacked: its state and choices (as many as fit) on a line
under the header, then the rest by name on the next. No figure is cut short and no row wraps. `Widest`
does the same for solve's and fair's tables: the first of their drawings the terminal holds."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..game import tiles_of

SHUT = "·"
"""A shut tile."""
CHOOSING = "dice?"
"""The roll of a state before the roll, where the choice is of one die or two."""
INDENT = "  "
"""Where a stacked row's figures begin."""
GAP = 2
"""The spaces between a stacked row's cells."""

Cell = str | Text


@dataclass(frozen=True)
class Column:
    """A column of states: its title, and whether it holds a figure (right-aligned; by name when
    the rows are stacked)."""

    title: str
    figure: bool = False


def box_text(tiles: int, mask: int) -> Text:
    """The box as its tiles in their places, the open ones by number (bold), the shut ones a dot
    (dim): `··3456···`; tiles from 10 follow a space each, two cells wide: `123456789 10  · 12`."""
    text = Text()
    for tile in range(1, tiles + 1):
        if tile >= 10:
            text.append(" ")
        if mask >> (tile - 1) & 1:
            text.append(str(tile), style="bold")
        else:
            text.append(SHUT.rjust(len(str(tile))), style="dim")
    return text


def key_text(values: Sequence[object]) -> str:
    """A key's values, a dash for none: `-,0,1`."""
    return ",".join("-" if value is None else str(value) for value in values)


def roll_text(throw: Sequence[int] | None) -> str:
    """The dice thrown as a sum (`5+6`), or CHOOSING before the roll."""
    return CHOOSING if throw is None else "+".join(map(str, throw))


def choice_text(throw: Sequence[int] | None, choice: int) -> str:
    """A choice: the tiles shut as a sum (`3+8`, from a mask), or before the roll the dice rolled
    (`1 die`, `2 dice`)."""
    if throw is None:
        return "1 die" if choice == 1 else f"{choice} dice"
    return "+".join(map(str, tiles_of(choice)))


class StateRows:
    """Rows of states, drawn as a table where the width given holds every column, else `stacked`;
    then the caption, if any, as a line of its own."""

    def __init__(self, columns: Sequence[Column], rows: Sequence[Sequence[Cell]], caption: str | None = None) -> None:
        self.columns, self.rows, self.caption = columns, rows, caption

    def __repr__(self) -> str:
        return f"<StateRows {len(self.rows)} rows: {', '.join(column.title for column in self.columns)}>"

    def table(self) -> Table:
        """The rows as a table, a row a line."""
        table = Table(box=None, pad_edge=False, header_style="bold")
        for column in self.columns:
            table.add_column(column.title, justify="right" if column.figure else "left", no_wrap=True)
        for row in self.rows:
            table.add_row(*row)
        return table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[RenderableType]:
        table = self.table()
        yield table if _holds(console, options, table) else stacked(self.columns, self.rows, options.max_width)
        if self.caption is not None:
            yield Text(self.caption)


class Widest:
    """The first of several drawings of the same figures that the width given holds, widest first
    (the last where none does)."""

    def __init__(self, *drawings: RenderableType) -> None:
        self.drawings = drawings

    def __repr__(self) -> str:
        return f"<Widest of {len(self.drawings)} drawings>"

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[RenderableType]:
        yield next((one for one in self.drawings if _holds(console, options, one)), self.drawings[-1])


def _holds(console: Console, options: ConsoleOptions, drawing: RenderableType) -> bool:
    """Whether the width given holds a drawing at its widest, no cell wrapped."""
    return console.measure(drawing, options=options.update_width(10_000)).maximum <= options.max_width


def stacked(columns: Sequence[Column], rows: Sequence[Sequence[Cell]], width: int) -> Group:
    """Each row on two lines or more: the first cells that are no figure, as many as `width` holds,
    under their titles; then the other cells by name (`optimal 2 dice`, `cost +3.7064`), indented,
    as many to a line as `width` holds."""
    widths = [max(cell_len(column.title), *(_width(row[at]) for row in rows)) for at, column in enumerate(columns)]
    kept = 1
    while kept < len(columns) and not columns[kept].figure and sum(widths[: kept + 1]) + GAP * kept <= width:
        kept += 1
    lines = [_line([Text(column.title, style="bold") for column in columns[:kept]], widths[:kept])]
    for row in rows:
        lines.append(_line(row[:kept], widths[:kept]))
        named = [f"{column.title} {_plain(cell)}" for column, cell in zip(columns[kept:], row[kept:], strict=True)]
        lines += [Text(INDENT + line) for line in _packed(named, width - len(INDENT))]
    return Group(*lines)


def _width(cell: Cell) -> int:
    return cell.cell_len if isinstance(cell, Text) else cell_len(cell)


def _plain(cell: Cell) -> str:
    return cell.plain if isinstance(cell, Text) else cell


def _line(cells: Sequence[Cell], widths: Sequence[int]) -> Text:
    """Cells padded to their columns' widths, GAP apart, the trailing spaces dropped."""
    line = Text()
    for cell, width in zip(cells, widths, strict=True):
        line.append_text(cell if isinstance(cell, Text) else Text(cell))
        line.append(" " * (width - _width(cell) + GAP))
    line.rstrip()
    return line


def _packed(pieces: Sequence[str], width: int) -> list[str]:
    """Pieces GAP apart, as many to a line as `width` holds (one that is wider keeps a line whole)."""
    lines: list[str] = []
    for piece in pieces:
        if lines and len(lines[-1]) + GAP + len(piece) <= width:
            lines[-1] += " " * GAP + piece
        else:
            lines.append(piece)
    return lines
