"""`shutbox explain SPEC`: where a strategy loses, exactly, in expected score alone, or in its chance
of winning one game against another strategy (`--against`) or a field (`-s`)."""

import contextlib
from typing import Annotated, Any

import typer

from ..arguments import STRATEGY_TIMEOUT, Report, Seed, StrategySpec, StrategyTimeout, seat_option, spec_option
from ..errors import FAILURE, fail
from ..output import Format, FormatOption, Output
from ..plotting import PlotOption, check_plot, plot_result
from ..rule_options import rules_from_options, with_turn_and_game_options
from ..settings import said

DEFAULT_TOP = 10
DEFAULT_GAMES = 20_000
"""What the help says; the library's `tournaments.exact.sampled.DEFAULT_GAMES` decides (a test holds them equal)."""
MOST_RIVALS = 3
"""What the help says; the library's `tournaments.exact.explain.MOST_RIVALS` decides."""


def register(app: typer.Typer) -> None:
    app.command("explain")(explain_command)


@with_turn_and_game_options
def explain_command(
    spec: StrategySpec,
    rule_values: dict[str, Any],
    against: Annotated[
        str | None,
        spec_option(
            "--against", help="A rival: weigh each choice by the chance of beating it in one game (a table of two)."
        ),
    ] = None,
    field: Annotated[
        list[str] | None,
        spec_option(
            "--strategy",
            "-s",
            help=f"A rival, in seat order (repeat, up to {MOST_RIVALS}): weigh each choice by the chance of "
            "winning one game at their table.",
        ),
    ] = None,
    seat: Annotated[
        int | None,
        seat_option(
            MOST_RIVALS + 1,
            help="With rivals: the strategy's seat, 1 (plays first) and up [default: each seat, averaged].",
        ),
    ] = None,
    top: Annotated[
        int | None,
        typer.Option(
            "--top",
            metavar="N",
            min=0,
            show_default=False,
            help=f"Rows the table shows, 0 for all [default: {DEFAULT_TOP}].",
        ),
    ] = None,
    sheet: Annotated[
        bool,
        typer.Option(
            "--sheet",
            help="A cheat sheet instead: the best short rule and the exceptions toward SPEC's play (normally "
            "optimal) that gain most, as a Markdown page (-o FILE.md writes it).",
        ),
    ] = False,
    exceptions: Annotated[
        int | None,
        typer.Option(
            "--exceptions",
            metavar="N",
            min=0,
            max=100,
            show_default=False,
            help="With --sheet: at most N [default: 5].",
        ),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            "-n",
            metavar="N",
            min=2,
            show_default=False,
            help="Games to sample the states from (against rivals, from each seat), for a strategy that reads "
            f"the context without a key or plays at random [default: {DEFAULT_GAMES:,}].",
        ),
    ] = None,
    seed: Seed = None,
    report: Report = None,
    plot: PlotOption = None,
    form: FormatOption = Format.TABLE,
    timeout: StrategyTimeout = STRATEGY_TIMEOUT,
) -> None:
    """Where a strategy loses, exactly: every state where its choice is not the best.

    Each row is a decision state (the box, the roll or the choice of dice, and the seat and key in
    a game) with the cost of its choice, how often its own play gets there, and the two multiplied;
    the rows add up to its exact gap to the best play. Alone, in expected score (against optimal);
    with --against or -s, in its chance of winning one game, in each seat.

    For exact strategies and keyed ones (target); the report (--report FILE) has every row, and --plot
    draws where the loss lies, by open total and by tiles left. A strategy that reads the context
    without a key, or plays at random, is explained on the states it meets in seeded games (--games,
    --seed; against rivals, one round from each seat): each cost exact, the gap estimated with its
    95% interval.

    Examples:
      shutbox explain greedy-high
      shutbox explain tips --against optimal --seat 2 --top 20
      shutbox explain random -n 5000 --seed 7 --plot loss.png
    """
    import tournaments
    from strategies.runner import StrategyLoadError
    from tournaments.parts import seat_strategies

    from ..explain_view import show_explanation
    from ..progress import progress_bar

    if sheet or exceptions is not None:
        from ..sheet_view import show_sheet

        if top is not None:
            fail("--top counts an explanation's rows; a sheet lists --exceptions N.")

        asked = (sheet, bool(field) or seat is not None)
        show_sheet(spec, against, rule_values, exceptions, asked, Output(form, report), timeout)
        return
    rivals = _rivals(against, field, seat, rule_values)
    rules = rules_from_options(rule_values)
    output = Output(form, report)
    if plot is not None:
        check_plot(plot)
    given: list[tuple[str, dict[str, Any], str | None]] = [(one, {}, None) for one in (spec, *rivals)]
    try:
        with contextlib.ExitStack() as stack:
            seated = [stack.enter_context(one) for one in seat_strategies(given, rules, timeout=timeout)]
            output.check()
            with progress_bar(unit="games") as progress:
                found = tournaments.explain(
                    seated[0], seated[1:] or None, seat, games=games, seed=seed, progress=progress
                )
        output.deliver(found)
    except (StrategyLoadError, tournaments.ConfigError, tournaments.FileWriteError) as error:
        fail(said(error))
    except tournaments.TournamentFailure as error:
        fail(said(error), FAILURE)
    sampled = isinstance(found, tournaments.SampledExplanation)
    if not sampled and (games is not None or seed is not None):
        typer.echo("shutbox: --games and --seed apply to sampled states; this strategy is explained exactly.", err=True)
    if isinstance(found, tournaments.SampledExplanation) and found.seed_drawn:
        output.drawn(found.seed)
    if output.table:
        shown = DEFAULT_TOP if top is None else top or max(len(found.rows), 1)  # 0: every row
        show_explanation(output.console(), found, shown)
    output.written()
    if plot is not None:
        plot_result(found, plot)


def _rivals(against: str | None, field: list[str] | None, seat: int | None, rule_values: dict[str, Any]) -> list[str]:
    """The rivals asked for; a usage error for options that do not go together."""
    from ..describe import TURN_OPTIONS
    from ..settings import flag

    if against is not None and field:
        fail("give one rival with --against or a field with -s, not both.")
    rivals = [against] if against is not None else list(field or [])
    if len(rivals) > MOST_RIVALS:
        fail(f"explain plays tables of up to {MOST_RIVALS + 1}: give at most {MOST_RIVALS} rivals with -s.")
    if seat is not None and seat > len(rivals) + 1:
        where = (
            "it applies to a game (--against SPEC or -s SPEC)" if not rivals else f"seats are 1 to {len(rivals) + 1}"
        )
        fail(f"--seat {seat} is not a seat at this table: {where}.")
    game = [name for name, value in rule_values.items() if name not in TURN_OPTIONS and value is not None]
    if game and not rivals:
        given = ", ".join("--no-instant-win" if rule_values[name] is False else flag(name) for name in game)
        verb = "shapes" if len(game) == 1 else "shape"
        fail(f"explain alone weighs single turns; {given} {verb} a game: add --against SPEC or -s SPEC to play one.")
    return rivals
