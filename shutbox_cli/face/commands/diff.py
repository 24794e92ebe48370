"""`shutbox diff A B`: the states where two strategies choose differently, each with its exact cost
and the chance A's play reaches it; the rows add up to the exact difference between them."""

import contextlib
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..arguments import STRATEGY_TIMEOUT, Report, StrategyTimeout, seat_option
from ..completion import complete_strategy
from ..errors import FAILURE, fail
from ..output import Format, FormatOption, Output
from ..rule_options import rules_from_options, with_rule_options
from ..settings import said

if TYPE_CHECKING:
    from rich.console import Console

    from tournaments import DiffRow, PolicyDiff

TOP = 10
"""Rows shown by default (the report has them all)."""


class MeasureChoice(StrEnum):
    """What a difference is measured in."""

    SCORE = "score"
    WIN = "win"


def register(app: typer.Typer) -> None:
    app.command("diff")(diff_command)


@with_rule_options
def diff_command(
    spec: Annotated[
        str,
        typer.Argument(
            metavar="A",
            show_default=False,
            autocompletion=complete_strategy,
            help="The strategy whose choices are weighed: a name, module:Class or path/file.py:Class, maybe "
            "with (k=v).",
        ),
    ],
    against: Annotated[
        str,
        typer.Argument(
            metavar="B",
            show_default=False,
            autocompletion=complete_strategy,
            help="The strategy A is set beside (the reference), spelled as A.",
        ),
    ],
    rule_values: dict[str, Any],
    measure: Annotated[
        MeasureChoice,
        typer.Option(
            "--measure",
            metavar="WHAT",
            show_default=False,
            help="score: a turn's expected score, alone; win: the chance of winning one round at a table of "
            "two against B (ties share or seat) [default: score].",
        ),
    ] = MeasureChoice.SCORE,
    seat: Annotated[
        int | None,
        seat_option(
            2,
            help="With --measure win: A's seat at the table of two, 1 (plays first) or 2 "
            "[default: both, each half the games].",
        ),
    ] = None,
    top: Annotated[
        int,
        typer.Option("--top", metavar="N", min=0, show_default=False, help=f"Rows shown, 0 for all [default: {TOP}]."),
    ] = TOP,
    report: Report = None,
    form: FormatOption = Format.TABLE,
    timeout: StrategyTimeout = STRATEGY_TIMEOUT,
) -> None:
    """Where strategy A chooses differently from B, and what each difference costs A, exactly.

    Each row is a state (the box, the roll, a keyed strategy's key) where A's choice is not B's,
    with its cost (B's value of its own choice less B's value of A's, B playing on: above 0 where
    A's is the worse), the chance A's own play reaches it, and the product, the loss; ranked by
    loss. The losses add up to the exact difference between A and B. A and B must choose alike
    every time (exact, or keyed as target is in a one-round game). When they choose the same in
    every state, diff says they are identical: a match between them is unnecessary.

    Examples:
      shutbox diff greedy-high optimal
      shutbox diff mine.py:Mine optimal --top 20
      shutbox diff target optimal --measure win --format json
    """
    import tournaments
    from strategies.runner import StrategyError, StrategyLoadError
    from tournaments.parts import seat_strategies

    output = Output(form, report)
    rules = rules_from_options(rule_values)
    try:
        with contextlib.ExitStack() as stack:
            given: list[tuple[str, dict[str, Any], str | None]] = [(spec, {}, None), (against, {}, None)]
            a, b = (stack.enter_context(one) for one in seat_strategies(given, rules, timeout=timeout))
            output.check()
            found = tournaments.diff(a, b, measure.value, seat)
        output.deliver(found)
    except (StrategyLoadError, tournaments.ConfigError, tournaments.FileWriteError) as error:
        fail(said(error))
    except (StrategyError, tournaments.TournamentFailure) as error:
        fail(said(error), FAILURE)
    if output.table:
        _show(output.console(), found, top)
    output.written()


def _show(console: "Console", found: "PolicyDiff", top: int) -> None:
    from ..describe import rules_in_short
    from ..literal import literal

    a, b = literal(found.strategy), literal(found.against)
    what = "a turn's expected score" if found.measure == "score" else "the chance of winning one round against B"
    console.print(f"[bold]{a}[/bold] beside [bold]{b}[/bold], exactly, in {what}.")
    console.print(f"Rules: {rules_in_short(found.rules)}.")
    if found.identical:
        console.print(
            f"identical: they choose the same move in every state under these rules (fingerprint "
            f"{found.fingerprint}); a match between them is unnecessary."
        )
        return
    console.print(f"Fingerprints: {a} {found.fingerprint}, {b} {found.against_fingerprint}.")
    console.print(_total(found, a, b))
    if found.rows:
        console.print(_verdict(found, a, b))
    if not found.rows:
        elsewhere = "another key (--measure win weighs a game)" if found.measure == "score" else "another key"
        console.print(
            "They choose alike in every state this measure reaches; their fingerprints differ where it "
            f"does not: a state neither one's play reaches, or {elsewhere}."
        )
        return
    shown = found.rows if top == 0 else found.rows[:top]
    console.print(_table(found, shown, a, b))
    if len(shown) < len(found.rows):
        share = sum(row.loss for row in shown) / sum(row.loss for row in found.rows) if found.rows_total else 0.0
        console.print(
            f"{_top_rows(len(shown))} of {len(found.rows):,} {'carries' if len(shown) == 1 else 'carry'} "
            f"{share:.1%} of the difference "
            "(--top N shows more; the report has every row)."
        )


def _top_rows(shown: int) -> str:
    return "The top row" if shown == 1 else f"The top {shown} rows"


def _figure(found: "PolicyDiff", value: float, signed: bool = False) -> str:
    """A value in the measure's units: points, or a chance in percent."""
    sign = "+" if signed else ""
    return f"{value:{sign}.6g}" if found.measure == "score" else f"{value * 100:{sign}.4g}%"


def _total(found: "PolicyDiff", a: str, b: str) -> str:
    values = f"{a} {_value(found, found.a_value)}, {b} {_value(found, found.b_value)}"
    if found.measure == "score":
        return f"Expected score (lower is better): {values}."
    return f"Chance of winning: {values} (A against B, B against itself)."


def _verdict(found: "PolicyDiff", a: str, b: str) -> str:
    """What A gains or loses beside B, said in words: the rows' losses added up."""
    lost = found.rows_total
    unit = " points a turn" if found.measure == "score" else " of its chance of winning"
    amount = _figure(found, abs(lost)) + unit
    verb = "loses" if lost > 0 else "gains"
    rows = f"the {len(found.rows):,} rows' losses add up to" if len(found.rows) > 1 else "the 1 row's loss is"
    return (
        f"{a} {verb} {amount} beside {b}: {rows} {_figure(found, lost, True)} "
        f"(a loss above 0 is {a}'s loss, below 0 its gain)."
    )


def _value(found: "PolicyDiff", value: float) -> str:
    """A value of A's or B's, each to the same digits: points, or a chance in percent."""
    return f"{value:.4f}" if found.measure == "score" else f"{value:.4%}"


def _table(found: "PolicyDiff", rows: "tuple[DiffRow, ...]", a: str, b: str) -> Any:
    from ..state_view import Cell, Column, StateRows, box_text, choice_text, key_text, roll_text

    seats = any(row.seat is not None for row in rows)
    keys = any(row.key for row in rows)
    columns = [Column("seat")] if seats else []
    columns += [Column("key")] if keys else []
    columns += [Column(title) for title in ("box", "roll", a, b)]
    columns += [Column(title, figure=True) for title in ("cost", "reach", "loss")]
    cells: list[list[Cell]] = []
    for row in rows:
        line: list[Cell] = [str(row.seat)] if seats else []
        line += [key_text([value for _, value in row.key])] if keys else []
        line += [box_text(found.rules.tiles, row.mask), roll_text(row.throw)]
        line += [choice_text(row.throw, row.a_choice), choice_text(row.throw, row.b_choice)]
        cells.append([*line, _figure(found, row.cost, True), f"{row.reach:.4%}", _figure(found, row.loss, True)])
    caption = None
    if keys:
        features = next(row.key for row in rows if row.key)
        caption = "key: " + ", ".join(feature for feature, _ in features) + " (a dash: none)."
    return StateRows(columns, cells, caption)
