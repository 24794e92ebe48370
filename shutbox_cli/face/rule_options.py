"""The rule options of docs/rules.md as command-line options, defined once for every command.

`with_rule_options` adds `--tiles`, `--shut-rule`, ... to a Typer command and hands the
command the values given as a dict in its `rule_values` parameter; `rules_from_options`
turns them (over a base table, such as a tournament file's `[rules]`) into validated Rules.
"""

import copy
import functools
import inspect
from collections.abc import Callable
from enum import StrEnum
from typing import Annotated, Any, get_args

import typer

from ..game.rules import FirstRoll, OneDie, OneDieMode, Rules, RulesError, Scoring, ShutRule, Ties
from .errors import fail
from .settings import flag

_PANEL = "Rules (shutbox docs rules)"
GAME_PANEL = "Rules of a game (with --against only)"
"""Where a command of single turns (analyze) lists the options that shape a whole game."""


def _option(*names: str, help: str, metavar: str | None = None, **extra: Any) -> Any:
    """A rule option, in the help's rules section; its default is written in its help."""
    return typer.Option(*names, help=help, metavar=metavar, rich_help_panel=_PANEL, show_default=False, **extra)


def _choice(name: str, enum: type[StrEnum], metavar: str, help: str, default: str) -> Any:
    """An option with named values: a short metavar, the values spelled out in the help."""
    values = ", ".join(member.value for member in enum)
    text = f"{help}: {values} [default: {default}]."
    return Annotated[enum | None, _option(name, metavar=metavar, help=text)]


RULE_PARAMETERS = [
    inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation)
    for name, annotation in [
        ("tiles", Annotated[int | None, _option("--tiles", metavar="N", help="Box size, 2 to 12 tiles [default: 9].")]),
        ("shut_rule", _choice("--shut-rule", ShutRule, "RULE", "Which tiles a roll may shut", "any")),
        (
            "one_die",
            _choice("--one-die", OneDie, "WHEN", "When one die may be rolled", "high-tiles; low-sum on 11-12 tiles"),
        ),
        (
            "one_die_mode",
            _choice("--one-die-mode", OneDieMode, "MODE", "Whether one die is a choice or a must", "optional"),
        ),
        ("scoring", _choice("--scoring", Scoring, "HOW", "How open tiles score", "sum")),
        ("first_roll", _choice("--first-roll", FirstRoll, "RULE", "Tile the first shut must include", "none")),
        (
            "instant_win",
            Annotated[
                bool | None,
                _option(
                    "--instant-win/--no-instant-win",
                    help="Whether shutting the box wins at once [default: on for one round, off for several].",
                ),
            ],
        ),
        ("ties", _choice("--ties", Ties, "RULE", "How equal lowest scores are settled", "share")),
        (
            "rounds",
            Annotated[int | None, _option("--rounds", metavar="N", help="Rounds whose scores add up [default: 1].")],
        ),
        (
            "drop_out",
            Annotated[
                int | None,
                _option(
                    "--drop-out",
                    metavar="LIMIT",
                    help="Total at which a player is out; the last one left wins; 0: none [default: no drop-out].",
                ),
            ],
        ),
        (
            "shut_pays",
            Annotated[
                float | None,
                _option(
                    "--shut-pays",
                    metavar="K",
                    help="Stakes each loser pays a winner who shut the box (one for any other win) [default: 1].",
                ),
            ],
        ),
    ]
]
RULE_NAMES = tuple(parameter.name for parameter in RULE_PARAMETERS)


def rules_from_options(values: dict[str, Any], base: dict[str, Any] | None = None) -> Rules:
    """Rules from the options given on the command line, over an optional base table."""
    table = dict(base or {})
    table.update({name: value for name, value in values.items() if value is not None})
    try:
        return Rules.from_mapping(table)
    except RulesError as error:
        fail(error.spelled(lambda name: flag(name) if values.get(name) is not None else name))


def with_rule_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Give a command every rule option; it receives them as `rule_values` (a dict)."""
    return _with(command, RULE_PARAMETERS)


def with_turn_and_game_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """`with_rule_options` for a command of single turns that plays a game only when asked with
    --against (analyze): the options that shape a game are listed apart, under `GAME_PANEL`."""
    from .describe import TURN_OPTIONS

    return _with(
        command,
        [parameter if parameter.name in TURN_OPTIONS else _in_panel(parameter) for parameter in RULE_PARAMETERS],
    )


def _in_panel(parameter: inspect.Parameter) -> inspect.Parameter:
    """A rule parameter whose option the help lists under `GAME_PANEL`."""
    kind, option = get_args(parameter.annotation)
    moved = copy.copy(option)
    moved.rich_help_panel = GAME_PANEL
    return parameter.replace(annotation=Annotated[kind, moved])


def _with(command: Callable[..., Any], rule_parameters: list[inspect.Parameter]) -> Callable[..., Any]:
    signature = inspect.signature(command)
    kept = [parameter for parameter in signature.parameters.values() if parameter.name != "rule_values"]

    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> Any:
        rule_values = {name: kwargs.pop(name) for name in RULE_NAMES}
        return command(rule_values=rule_values, **kwargs)

    parameters = kept + rule_parameters
    wrapper.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {parameter.name: parameter.annotation for parameter in parameters}
    return wrapper
