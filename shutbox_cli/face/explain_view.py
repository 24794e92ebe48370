"""`shutbox explain` for people: the strategy's value, the best, the exact gap the rows add up to,
and the rows that carry most of it, each state drawn as diff draws it (`state_view`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from .literal import literal
from .state_view import Column, StateRows, box_text, choice_text, key_text, roll_text

if TYPE_CHECKING:
    from rich.console import Console

    from tournaments import Explanation, SampledExplanation

    from ..game.exact_regret import Decision


TOP = 10
"""The rows whose share of the loss is said, however many the table shows (the report's `top_share`)."""


def show_heading(console: Console, found: Explanation | SampledExplanation, how: str) -> None:
    """Who is explained against whom, in what measure, found `how`; then the rules."""
    from .describe import TURN_OPTIONS, rules_in_short

    name = f"[bold]{literal(found.strategy)}[/bold]"
    if found.opponents:
        rivals = ", ".join(literal(one) for one in found.opponents)
        console.print(f"{name} against {rivals}: its chance of winning one game, {how}.")
        console.print(f"Rules: {rules_in_short(found.rules)}.")
    else:
        console.print(f"{name} alone: its expected score over a turn, {how}.")
        console.print(f"Rules for a turn: {rules_in_short(found.rules, TURN_OPTIONS)}.")


def show_explanation(console: Console, found: Explanation | SampledExplanation, top: int) -> None:
    """The explanation's figures, then its first `top` rows as a table."""
    from tournaments import SampledExplanation

    from .sampled_view import sampled_how, show_sampled

    name = literal(found.strategy)
    if isinstance(found, SampledExplanation):
        show_heading(console, found, sampled_how(found))
        show_sampled(console, found)
    else:
        show_heading(console, found, "exactly")
        console.print(_figures(found))
    if not found.rows:
        console.print(f"{name} plays perfectly: no state where its choice is not the best.")
        return
    states = f"{len(found.rows):,} state{'s' if len(found.rows) > 1 else ''}"
    console.print(f"{states} where its choice is not the best.")
    console.print(f"The rows add up to the gap: {_total(found)}, weighted costs summed.")
    shown = min(TOP, len(found.rows))
    rows = "The top row carries" if shown == 1 else f"The top {shown} rows carry"
    console.print(f"{rows} {found.top_share(TOP):.1%} of the loss.")
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


def _table(found: Explanation | SampledExplanation, top: int) -> StateRows:
    columns = [Column("seat")] if found.seats else []
    columns += [Column("key")] if found.features else []
    columns += [Column(title) for title in ("box", "roll", "plays", "best")]
    columns += [Column(title, figure=True) for title in ("cost", "reach", "weighted")]
    return StateRows(columns, [_cells(found, row) for row in found.rows[:top]])


def _cells(found: Explanation | SampledExplanation, row: Decision) -> list[str | Text]:
    key = row.key
    cells: list[str | Text] = []
    if found.seats:
        cells.append(str(key[0]))
        key = key[1:]
    if found.features:
        cells.append(key_text(key))
    cells += [box_text(found.rules.tiles, row.mask), roll_text(row.throw)]
    cells += [choice_text(row.throw, row.played), choice_text(row.throw, row.best)]
    return [*cells, _amount(found, row.cost), _percent(row.reach), _amount(found, row.loss)]


def _total(found: Explanation | SampledExplanation) -> str:
    """The rows' total, to as many digits as the gap is shown."""
    return f"{found.total:.6g} points" if found.measure == "expected-score" else _percent(found.total)


def _amount(found: Explanation | SampledExplanation, amount: float) -> str:
    """A cost in the measure's units: points of expected score, or win chance."""
    return f"{amount:.4g}" if found.measure == "expected-score" else _percent(amount)


def _percent(chance: float) -> str:
    return f"{chance * 100:.3g}%" if chance < 0.001 else f"{chance * 100:.2f}%"
