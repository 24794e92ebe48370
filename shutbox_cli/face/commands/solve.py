"""`shutbox solve`: the value of a game, each seat's chance under perfect play and all optimal."""

from typing import TYPE_CHECKING, Any

import typer

from ..arguments import Report, SolvedTable
from ..output import Format, FormatOption, Output
from ..rule_options import rules_from_options, with_rule_options

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from tournaments import GameValue

TIES = {"share": "shared", "seat": "to the earlier seat", "playoff": "played off"}
"""How the tie rule settles a tie, in the table's words."""


def register(app: typer.Typer) -> None:
    app.command("solve")(solve_command)


@with_rule_options
def solve_command(
    rule_values: dict[str, Any],
    table: SolvedTable = 2,
    report: Report = None,
    form: FormatOption = Format.TABLE,
) -> None:
    """The value of a game: each seat's chance to win under perfect play and when every seat
    plays optimal, exactly.

    Perfect play: every seat plays to win, knowing that every later seat does too (the strategy
    `perfect`). A shared win counts as its part; the last seat's advantage is its chance less the
    first seat's. Over several rounds or in drop-out, a table of 2 only (what would take more than
    about 3 minutes is refused, saying what fits).

    Examples:
      shutbox solve
      shutbox solve --table 4 --tiles 12
      shutbox solve --drop-out 45 --format json | jq .perfect
    """
    import tournaments

    rules = rules_from_options(rule_values)
    Output(form, report).computed(lambda: tournaments.solve(rules, table), _show)


def _show(console: "Console", found: "GameValue") -> None:
    from ..describe import rules_in_short
    from ..state_view import Widest

    rules = found.rules
    game = (
        f"a drop-out game at {rules.drop_out}"
        if rules.drop_out is not None
        else f"a {rules.rounds}-round game"
        if rules.rounds > 1
        else "a one-round game"
    )
    console.print(f"The value of {game} of {found.table} seats, computed exactly (in floats).")
    console.print(f"Rules: {rules_in_short(found.rules)}.")
    console.print(Widest(_grid(found), _stacked(found)))
    if found.perfect.winnings is not None:
        console.print(
            f"Winnings: what a seat wins on average, in stakes: each loser pays the winner one stake, "
            f"{found.rules.shut_pays:g} if the winner shut the box; perfect play is for the winnings."
        )
    console.print(
        f"Seat 1 plays first; a seat's chance to win counts a shared win as its part; tie: the chance "
        f"that scores tie on the lowest ({TIES[found.rules.ties.value]}); last-first: the last seat's "
        "chance less the first's. Perfect play: every seat plays "
        f"{'for its winnings' if found.perfect.winnings else 'to win'} knowing the later seats do too "
        "(shutbox strategies perfect)."
    )


def _grid(found: "GameValue") -> "Table":
    """The figures a play a row, a seat a column."""
    from rich.table import Table

    grid = Table(box=None, pad_edge=False)
    grid.add_column("")
    for number in range(1, found.table + 1):
        grid.add_column(f"seat {number}", justify="right")
    grid.add_column("tie", justify="right")
    grid.add_column("last-first", justify="right")
    for name, play in (("perfect play", found.perfect), ("all optimal", found.optimal)):
        grid.add_row(name, *(f"{seat.win:.3%}" for seat in play.seats), f"{play.tie:.3%}", f"{play.advantage:+.3%}")
        if play.winnings is not None:
            won = play.winnings
            grid.add_row("  winnings", *(f"{seat:+.5f}" for seat in won.seats), "", f"{won.advantage:+.5f}")
    return grid


def _stacked(found: "GameValue") -> "Table":
    """The same figures for a narrow terminal: a play a block, a seat a row (its chance and its
    winnings side by side), then the tie and last-first."""
    from rich.table import Table

    winnings = found.perfect.winnings is not None
    grid = Table(box=None, pad_edge=False)
    grid.add_column("")
    grid.add_column("chance", justify="right")
    if winnings:
        grid.add_column("winnings", justify="right")
    for name, play in (("perfect play", found.perfect), ("all optimal", found.optimal)):
        won = play.winnings
        grid.add_row(name)
        for number, seat in enumerate(play.seats, 1):
            grid.add_row(
                f"  seat {number}", f"{seat.win:.3%}", *([] if won is None else [f"{won.seats[number - 1]:+.5f}"])
            )
        grid.add_row("  tie", f"{play.tie:.3%}")
        grid.add_row("  last-first", f"{play.advantage:+.3%}", *([] if won is None else [f"{won.advantage:+.5f}"]))
    return grid
