"""Arguments and options more than one command takes, declared once. Defaults are written in the
help as `[default: ...]`, since most are decided past the command line (a file, the machine)."""

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .completion import complete_strategy

if TYPE_CHECKING:
    from tournaments import Options

MAX_DELAY = 60.0
"""The longest pause a watcher may ask for (time.sleep overflows on huge values)."""


def spec_option(*flags: str, help: str) -> Any:
    """An option that takes a strategy's spec (`--against`, `-s`), completed from the strategies' names."""
    return typer.Option(*flags, metavar="SPEC", show_default=False, autocompletion=complete_strategy, help=help)


def seat_option(most: int, help: str) -> Any:
    """`--seat`: a seat at the table, 1 (plays first) to `most`, none by default."""
    return typer.Option("--seat", metavar="SEAT", min=1, max=most, show_default=False, help=help)


def sprt_option(stronger: str, each: str = "", then: str = "") -> Any:
    """`--sprt`: the sequential test whose H1 is that `stronger` is elo1 Elo stronger; a knockout's
    says what it stops (`each` tie) and more at its end (`then`)."""
    stop = f"Stop {each} once" if each else "Stop once"
    return typer.Option(
        "--sprt",
        metavar="SETTINGS",
        show_default=False,
        help=f'{stop} a sequential test decides, such as "elo0=0 elo1=5 alpha=0.05 beta=0.05" (each setting '
        f'optional, those its defaults; "" for all of them): H1, {stronger} is elo1 Elo stronger, against H0, '
        f'elo0; "model=normalized elo0=0 elo1=2" for bounds in normalized Elo{then}.',
    )


StrategySpec = Annotated[
    str,
    typer.Argument(
        metavar="SPEC",
        show_default=False,
        autocompletion=complete_strategy,
        help="The strategy: a name, module:Class or path/file.py:Class, maybe with (k=v).",
    ),
]
"""A strategy given by its spec."""

Strategies = Annotated[
    list[str] | None,
    typer.Option(
        "--strategy",
        "-s",
        metavar="SPEC",
        show_default=False,
        autocompletion=complete_strategy,
        help="A strategy, in seat order (repeat for more): a name, module:Class or path/file.py:Class, with "
        "parameters as name(k=v); NAME=SPEC gives it a name of its own.",
    ),
]
"""The strategies of a tournament, in order."""

Seed = Annotated[
    int | None,
    typer.Option(
        "--seed", metavar="SEED", min=0, show_default=False, help="Seed of the dice; drawn and printed when not given."
    ),
]
"""The seed of every die rolled; the same seed gives the same games."""

Games = Annotated[
    int | None,
    typer.Option(
        "--games",
        "-n",
        metavar="N",
        show_default=False,
        help="Games per matchup, rounded up to a multiple of the table size [default: 2000].",
    ),
]

Table = Annotated[
    int | None,
    typer.Option(
        "--table",
        "-t",
        metavar="N",
        show_default=False,
        help="Players per table; 1 plays solo tables for score statistics [default: 2].",
    ),
]

SolvedTable = Annotated[
    int,
    typer.Option(
        "--table",
        "-t",
        metavar="N",
        min=2,
        max=4,
        show_default=False,
        help="Seats at the table, 2 to 4 (each plays one turn) [default: 2].",
    ),
]
"""The table `solve` and `fair` work out: 2 to 4 seats of one turn each."""

Duplicate = Annotated[
    bool | None,
    typer.Option(
        "--duplicate/--no-duplicate",
        show_default=False,
        help="Replay each deal with the seats rotated, so every strategy meets the same dice in the same seat "
        "[default: on].",
    ),
]

Delay = Annotated[
    float | None,
    typer.Option(
        "--delay",
        metavar="SECONDS",
        min=0,
        max=MAX_DELAY,
        show_default=False,
        help=f"Seconds to pause before each computer roll, 0 to {MAX_DELAY:g} [default: 0.6 on a terminal, else 0].",
    ),
]

Report = Annotated[
    Path | None,
    typer.Option(
        "--report",
        "-o",
        metavar="FILE",
        show_default=False,
        help="Also write the results and everything needed to repeat them to this TOML file (JSON for "
        "FILE.json; - for stdout; every key: shutbox docs report).",
    ),
]

Quiet = Annotated[
    bool,
    typer.Option(
        "--quiet",
        "-q",
        help="No progress, and the results in one line (a report is written whole as ever).",
    ),
]
"""`-q`, one meaning on every command that runs something long: no progress on stderr, and a one-line
summary in place of the results' table or lines."""

Workers = Annotated[
    int | None,
    typer.Option("--workers", "-j", metavar="N", show_default=False, help="Worker processes [default: one per core]."),
]
"""How many processes play (a tournament's own help says more)."""


class OnFailure(StrEnum):
    """What a run does when a user's strategy fails (the library's `on_failure`)."""

    STOP = "stop"
    FORFEIT = "forfeit"
    DISQUALIFY = "disqualify"


def on_failure_option(help: str) -> Any:
    """`--on-failure`: stop, forfeit or disqualify, none by default (the file's, else stop)."""
    return typer.Option("--on-failure", metavar="WHAT", case_sensitive=False, show_default=False, help=help)


Scheduler = Annotated[
    str | None,
    typer.Option("--scheduler", metavar="ADDRESS", show_default=False, help="Play on this Dask scheduler."),
]
"""A Dask scheduler to play on."""

STRATEGY_TIMEOUT = 120.0
"""What the help says; the library's `tournaments.STRATEGY_TIMEOUT` decides (a test holds them equal)."""

StrategyTimeout = Annotated[
    float,
    typer.Option(
        "--timeout",
        metavar="SECONDS",
        min=0.1,
        show_default=False,
        help="Seconds a user's strategy may take to load, and to answer each request (a turn, its table), "
        f"before it is stopped and named [default: {STRATEGY_TIMEOUT:g}].",
    ),
]
"""The time limit on a user's strategy, which runs in a process of its own."""


def field_options(
    strategy: list[str] | None,
    games: int | None,
    table: int | None,
    seed: int | None,
    duplicate: bool | None,
    rule_values: dict[str, Any],
) -> "Options":
    """What `tournament` and `replay` both take of a tournament (-s, --games, --table, --seed,
    --duplicate and the rule options) as the library's settings; each command adds its own
    (`dataclasses.replace`)."""
    from tournaments import Options

    return Options(
        strategies=tuple(strategy or ()), games=games, table=table, seed=seed, duplicate=duplicate, rules=rule_values
    )
