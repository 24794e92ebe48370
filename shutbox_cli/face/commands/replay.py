"""`shutbox replay [REPORT.toml] --game N`: watch one game of a tournament, turn by turn."""

from pathlib import Path
from typing import Annotated, Any

import typer

from ..arguments import STRATEGY_TIMEOUT, Delay, Duplicate, Games, Strategies, StrategyTimeout, Table, field_options
from ..errors import FAILURE, fail
from ..output import Format, FormatOption, print_document
from ..rule_options import with_rule_options
from ..settings import said


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)


@with_rule_options
def replay_command(
    rule_values: dict[str, Any],
    config_file: Annotated[
        Path | None,
        typer.Argument(
            metavar="REPORT.toml",
            show_default=False,
            help="The tournament's report, or its config file (then give --seed), TOML or JSON (.json); options "
            "override it.",
        ),
    ] = None,
    game: Annotated[
        int,
        typer.Option(
            "--game",
            "-g",
            metavar="N",
            min=0,
            show_default=False,
            help="The game's number in its matchup, from 0 (required).",
        ),
    ] = ...,  # type: ignore[assignment]
    matchup: Annotated[
        str | None,
        typer.Option(
            "--matchup",
            "-m",
            metavar="MATCHUP",
            show_default=False,
            help="The matchup, as tournament messages name it ('A vs B'); needed when the tournament has several.",
        ),
    ] = None,
    strategy: Strategies = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", metavar="SEED", min=0, show_default=False, help="The tournament's seed."),
    ] = None,
    games: Games = None,
    table: Table = None,
    duplicate: Duplicate = None,
    delay: Delay = None,
    timeout: StrategyTimeout = STRATEGY_TIMEOUT,
    form: FormatOption = Format.TABLE,
) -> None:
    """Watch one game of a tournament, turn by turn: the same dice, seats and moves as it was played.

    A failed tournament names the command that replays the game it failed in. The options
    that shape the tournament (-s, --seed, --games, --table, the rules) must be as it ran.

    A user's strategy plays from a process of its own: one that stops answering for --timeout
    seconds, or ends that process, fails.

    --format json (or toml) plays it out of sight and prints it as a document, every roll of every
    turn (`kind = "replay"`: shutbox docs report).

    Exit status: 0 when the game is shown, 1 if a strategy fails, 2 for a bad option or config,
    130 on Ctrl-C.

    Examples:
      shutbox replay run.toml --game 12
      shutbox replay run.toml -g 3 -m 'optimal vs tips'
      shutbox replay -s optimal -s tips --seed 7 -g 0
    """
    import contextlib
    import dataclasses

    from strategies.runner import StrategyError, StrategyLoadError
    from tournaments import ConfigError, TournamentFailure, find_game, load_config

    from ..play.replay import replay_document, replay_game
    from ..play.screen import Screen

    field = field_options(strategy, games, table, seed, duplicate, rule_values)
    options = dataclasses.replace(field, timeout=timeout, isolate=True)
    try:
        found = find_game(load_config(config_file, options), game, matchup)
    except ConfigError as error:
        fail(said(error))
    with contextlib.ExitStack() as stack:
        try:
            if form is not Format.TABLE:
                print_document(replay_document(found, stack), form)
                return
            status = replay_game(Screen(delay), found, stack)
        except (StrategyError, StrategyLoadError, TournamentFailure) as error:
            fail(said(error), FAILURE)
    raise typer.Exit(status)
