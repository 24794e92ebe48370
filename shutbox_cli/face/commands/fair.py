"""`shutbox fair`: which tie rule, first-roll rule and shut payout make the seats equal under perfect play."""

from typing import TYPE_CHECKING, Any

import typer

from ..arguments import Report, SolvedTable
from ..errors import fail
from ..output import Format, FormatOption, Output
from ..rule_options import rules_from_options, with_rule_options

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from tournaments import FairRules


TITLES = ("ties", "first roll", "last-first", "fair payout")
"""The table's column titles; NARROW_TITLES on two lines each, for a narrow terminal."""
NARROW_TITLES = ("ties", "first\nroll", "last-\nfirst", "fair\npayout")


def register(app: typer.Typer) -> None:
    app.command("fair")(fair_command)


@with_rule_options
def fair_command(
    rule_values: dict[str, Any],
    table: SolvedTable = 2,
    report: Report = None,
    form: FormatOption = Format.TABLE,
) -> None:
    """Fair rules: how much the last seat wins more than the first under perfect play for a stake,
    by tie rule and first-roll rule, and the shut payout that makes them equal, exactly.

    It tries every tie rule and first-roll rule (so --ties and --first-roll are refused); the
    other rule options are kept; --shut-pays sets the payout the advantages are taken at.
    Each loser pays the winner one stake, K stakes if the winner shut the box (shutbox docs
    stakes). The fair payout is found by bisection, from 0 to 1,000 stakes. Over several rounds
    or in drop-out it is refused. A box of 9 tiles with digit scores takes a minute or two.

    Examples:
      shutbox fair --table 3
      shutbox fair --scoring digits --shut-pays 2
      shutbox fair --format json | jq .fairest
    """
    import tournaments

    if rule_values.get("ties") is not None or rule_values.get("first_roll") is not None:
        fail("fair tries every tie rule and first-roll rule: leave out --ties and --first-roll.")
    rules = rules_from_options(rule_values)
    Output(form, report).computed(lambda: tournaments.fair_rules(rules, table), _show)


def _show(console: "Console", found: "FairRules") -> None:
    from shutbox_cli.game.fair import SETTLED

    from ..describe import rules_in_short
    from ..state_view import Widest

    pays = found.rules.shut_pays
    console.print(f"Fair rules for a one-round game of {found.table} seats under perfect play, for a stake.")
    console.print(f"Rules: {rules_in_short(found.rules)}.")
    grids = [_grid(found, titles) for titles in (TITLES, NARROW_TITLES)]
    console.print(Widest(*grids))
    jumps = any(variant.fair_left is not None and abs(variant.fair_left) > SETTLED for variant in found.variants)
    best = found.fairest
    console.print(
        f"Fairest at a shut payout of {pays:g}: ties {best.rules.ties.value}, first roll "
        f"{best.rules.first_roll.value} (last-first {best.advantage:+.5f})."
    )
    console.print(
        f"last-first: what the last seat wins on average less the first, in stakes, when a shut box pays "
        f"{pays:g}; fair payout: the shut payout that makes it 0 (none: no payout from 0 to 1,000 does, "
        "or ties are played off, whose payout is not defined). Perfect play: every seat plays for its "
        "winnings knowing the later seats do too (shutbox strategies perfect)."
    )
    if jumps:
        console.print(
            "*: no payout makes the seats quite equal: at this one a seat's play switches, and the "
            "advantage jumps across 0 (the report's advantage_left says by how much)."
        )


def _grid(found: "FairRules", titles: tuple[str, ...]) -> "Table":
    """A variant a row: its tie rule, first-roll rule, last-first and fair payout (starred where the
    advantage jumps across 0 there), under `titles`."""
    from rich.table import Table

    from shutbox_cli.game.fair import SETTLED

    grid = Table(box=None, pad_edge=False)
    for title, justify in zip(titles, ("left", "left", "right", "right"), strict=True):
        grid.add_column(title, justify=justify)  # type: ignore[arg-type]
    for variant in found.variants:
        fair = "none" if variant.fair_pays is None else f"{variant.fair_pays:.3f}"
        if variant.fair_left is not None and abs(variant.fair_left) > SETTLED:
            fair += "*"
        grid.add_row(variant.rules.ties.value, variant.rules.first_roll.value, f"{variant.advantage:+.5f}", fair)
    return grid
