"""`shutbox replay [REPORT.toml] --game N`: watch one game of a tournament, turn by turn."""

from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import FAILURE, fail
from ..rule_options import with_rule_options
from .play import MAX_DELAY


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
            help="The tournament's report, or its config file (then give --seed). Options override it.",
        ),
    ] = None,
    game: Annotated[
        int,
        typer.Option(
            "--game", "-g", metavar="N", min=0, show_default=False, help="The game's number in its matchup, from 0."
        ),
    ] = ...,  # type: ignore[assignment]
    matchup: Annotated[
        str | None,
        typer.Option(
            "--matchup",
            "-m",
            metavar="'A vs B'",
            show_default=False,
            help="The matchup, as tournament messages name it; needed when the tournament has several.",
        ),
    ] = None,
    strategy: Annotated[
        list[str] | None,
        typer.Option(
            "--strategy",
            "-s",
            metavar="SPEC",
            show_default=False,
            help="A strategy of the tournament, as `shutbox tournament` takes it (repeat, in order).",
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", show_default=False, help="The tournament's seed.")] = None,
    games: Annotated[
        int | None, typer.Option("--games", "-n", show_default=False, help="Games per matchup (default: 2000).")
    ] = None,
    table: Annotated[
        int | None, typer.Option("--table", "-t", show_default=False, help="Players per table (default: 2).")
    ] = None,
    duplicate: Annotated[
        bool | None,
        typer.Option("--duplicate/--no-duplicate", show_default=False, help="As the tournament ran (default: on)."),
    ] = None,
    delay: Annotated[
        float | None,
        typer.Option(
            "--delay",
            metavar="SECONDS",
            min=0,
            max=MAX_DELAY,
            help="Seconds to pause before each roll \\[default: 0.6 on a terminal, else 0].",
        ),
    ] = None,
) -> None:
    """Watch one game of a tournament, turn by turn: the same dice, seats and moves as it was played.

    A failed tournament names the command that replays the game it failed in.
    Exit status: 0 when the game is shown, 1 if a strategy fails, 2 for a bad option or config, 130 on Ctrl-C.
    """
    from strategies.loading import StrategyLoadError
    from strategies.player import StrategyError
    from tournaments import ConfigError, Options, load_config
    from tournaments.replay import find_game

    from ..play.replay import replay_game
    from ..play.screen import Screen

    options = Options(
        strategies=tuple(strategy or ()), games=games, table=table, seed=seed, duplicate=duplicate, rules=rule_values
    )
    try:
        found = find_game(load_config(config_file, options), game, matchup)
    except ConfigError as error:
        fail(str(error))
    try:
        status = replay_game(Screen(delay), found)
    except (StrategyError, StrategyLoadError) as error:
        fail(str(error), FAILURE)
    raise typer.Exit(status)
