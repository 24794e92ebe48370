"""`shutbox play`: play at the prompt, alone, with friends on one keyboard, or against computer seats."""

from typing import Annotated, Any

import typer

from ..arguments import STRATEGY_TIMEOUT, Delay, Seed, StrategyTimeout
from ..completion import complete_strategy
from ..errors import FAILURE, fail
from ..rule_options import rules_from_options, with_rule_options


def register(app: typer.Typer) -> None:
    app.command("play")(play_command)


@with_rule_options
def play_command(
    rule_values: dict[str, Any],
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player",
            metavar="NAME",
            help='A person at the keyboard, by name; repeat for hot-seat play [default: one, "You"].',
        ),
    ] = None,
    computer: Annotated[
        list[str] | None,
        typer.Option(
            "--computer",
            metavar="SPEC",
            autocompletion=complete_strategy,
            help="A computer seat by strategy spec (greedy-high, module:Class, file.py:Class, name(k=v)); "
            "NAME=SPEC names it. Repeatable; computers sit after the people, and with no --player they play "
            "while you watch.",
        ),
    ] = None,
    seed: Seed = None,
    delay: Delay = None,
    no_save: Annotated[
        bool, typer.Option("--no-save", help="Neither read nor write the solo best scores and record.")
    ] = False,
    coach: Annotated[
        bool,
        typer.Option("--coach", help="Show the coach after each of your turns too, not only after each game."),
    ] = False,
    no_coach: Annotated[
        bool, typer.Option("--no-coach", help="No coach: neither after your turns nor after each game.")
    ] = False,
    timeout: StrategyTimeout = STRATEGY_TIMEOUT,
) -> None:
    """Play Shut the Box at the prompt; q quits.

    The same --seed and the same answers replay a game.

    Exit status: 0 when play stops, 1 if input ends mid-game or a strategy fails, 2 for a bad
    option, 130 on Ctrl-C (143 on SIGTERM, 129 on SIGHUP).

    Examples:
      shutbox play
      shutbox play --player Ann --player Bob --tiles 12
      shutbox play --computer optimal --seed 7
    """
    import contextlib

    from strategies.runner import StrategyError

    from ...game import draw_seed
    from ..play.best import BestScores, data_dir
    from ..play.coach import Coaching
    from ..play.record import SoloRecord
    from ..play.screen import Screen
    from ..play.seats import SeatError, SeatFailure, make_seats
    from ..play.table import Table, play_table
    from ..settings import said

    if coach and no_coach:
        fail("--coach and --no-coach cannot be used together; give one of them.")
    rules = rules_from_options(rule_values)
    with contextlib.ExitStack() as stack:
        try:
            seats = make_seats(rules, player or [], computer or [], stack, timeout)
        except SeatFailure as error:
            fail(str(error), FAILURE)
        except SeatError as error:
            fail(str(error))
        best = None if no_save else BestScores(data_dir())
        record = None if no_save else SoloRecord(data_dir())
        coaching = Coaching.OFF if no_coach else Coaching.TURN if coach else Coaching.GAME
        table = Table(Screen(delay), rules, seats, draw_seed() if seed is None else seed, best, record, coaching)
        try:
            status = play_table(table)
        except StrategyError as error:
            fail(said(error), FAILURE)
    raise typer.Exit(status)
