"""`shutbox explain` for people: the strategy's value, the best, the exact gap the rows add up to,
and the rows that carry most of it, each box drawn as tiles (open ones numbered, shut ones a dash,
as `play` draws them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from ..game import Rules, tiles_of
from .literal import literal
from .play.board import dice_count

if TYPE_CHECKING:
    from rich.console import Console

    from tournaments import Explanation, SampledExplanation

    from ..game.exact_regret import Decision


TOP = 10
"""The rows whose share of the loss is said, however many the table shows (the report's `top_share`)."""


def show_explanation(console: Console, found: Explanation | SampledExplanation, top: int) -> None:
    """The explanation's figures, then its first `top` rows as a table."""
    from tournaments import SampledExplanation

    from .describe import TURN_OPTIONS, rules_in_short
    from .sampled_view import show_sampled

    name = literal(found.strategy)
    if isinstance(found, SampledExplanation):
        show_sampled(console, found)
    elif found.opponents:
        rivals = ", ".join(literal(one) for one in found.opponents)
        console.print(f"[bold]{name}[/bold] against {rivals}: its chance of winning one game, exactly.")
        console.print(f"Rules: {rules_in_short(found.rules)}.")
    else:
        console.print(f"[bold]{name}[/bold] alone: its expected score over a turn, exactly.")
        console.print(f"Rules for a turn: {rules_in_short(found.rules, TURN_OPTIONS)}.")
    if not isinstance(found, SampledExplanation):
        console.print(_figures(found))
    if not found.rows:
        console.print(f"{name} plays perfectly: no state where its choice is not the best.")
        return
    states = f"{len(found.rows):,} state{'s' if len(found.rows) > 1 else ''}"
    console.print(f"{states} where its choice is not the best.")
    console.print(f"The rows add up to the gap: {_total(found)}, weighted costs summed.")
    shown = min(TOP, len(found.rows))
    console.print(f"The top {shown} row{'s' if shown > 1 else ''} carry {found.top_share(TOP):.1%} of the loss.")
    console.print("cost: its loss there; reach: how often it gets there; weighted: cost x reach.")
    if found.features:
        console.print(f"key: {', '.join(found.features)} (a dash: none).")
    console.print(_table(found, top))
    hidden = len(found.rows) - top
    if hidden > 0:
        console.print(f"{hidden:,} more row{'s' if hidden > 1 else ''} with --top or in the report (--report FILE).")


def _figures(found: Explanation) -> str:
    if found.measure == "expected-score":
        return (
            f"Expected score [bold]{found.value:.9g}[/bold]; best play (optimal) {found.best:.9g}; "
            f"gap [bold]{found.gap:.6g}[/bold] points."
        )
    seats = "each seat averaged" if len(found.seats) > 1 else f"seat {found.seats[0]}"
    return (
        f"Wins ({seats}) [bold]{_percent(found.value)}[/bold]; best play {_percent(found.best)}; "
        f"gap [bold]{_percent(found.gap)}[/bold]."
    )


def _table(found: Explanation | SampledExplanation, top: int) -> Table:
    table = Table(box=None, pad_edge=False, padding=(0, 1))
    columns = ["box", "roll", "plays", "best"]
    if found.seats:
        columns.insert(0, "seat")
    if found.features:
        columns.insert(1 if found.seats else 0, "key")
    for column in columns:
        table.add_column(column)
    for column in ("cost", "reach", "weighted"):
        table.add_column(column, justify="right", no_wrap=True)
    for row in found.rows[:top]:
        table.add_row(*_cells(found, row))
    return table


def _cells(found: Explanation | SampledExplanation, row: Decision) -> list[str | Text]:
    key = row.key
    cells: list[str | Text] = []
    if found.seats:
        cells.append(str(key[0]))
        key = key[1:]
    if found.features:
        cells.append(" ".join("-" if value is None else str(value) for value in key))
    cells.append(box_text(found.rules, row.mask))
    if row.throw is None:
        cells += ["how many", dice_count(row.played), dice_count(row.best)]
    else:
        cells += [_tiles(row.throw), _tiles(tiles_of(row.played)), _tiles(tiles_of(row.best))]
    return [*cells, _amount(found, row.cost), _percent(row.reach), _amount(found, row.loss)]


def box_text(rules: Rules, mask: int) -> Text:
    """The box as a row of tiles: open ones by number (bold), shut ones a dash (dim); narrow enough
    that a 12-tile box leaves room for the figures in 80 columns."""
    text = Text()
    for tile in range(1, rules.tiles + 1):
        if tile > 1:
            text.append(" ")
        if mask >> (tile - 1) & 1:
            text.append(str(tile), style="bold")
        else:
            text.append("-", style="dim")
    return text


def _tiles(tiles: Sequence[int]) -> str:
    """Tiles or dice as a short sum: `1+2+6`."""
    return "+".join(map(str, tiles))


def _total(found: Explanation | SampledExplanation) -> str:
    """The rows' total, to as many digits as the gap is shown."""
    return f"{found.total:.6g} points" if found.measure == "expected-score" else _percent(found.total)


def _amount(found: Explanation | SampledExplanation, amount: float) -> str:
    """A cost in the measure's units: points of expected score, or win chance."""
    return f"{amount:.4g}" if found.measure == "expected-score" else _percent(amount)


def _percent(chance: float) -> str:
    return f"{chance * 100:.3g}%" if chance < 0.001 else f"{chance * 100:.2f}%"
