"""The rules engine: pure Python, no I/O, no terminal. Everything else builds on it.

Its names load lazily, each from its own module on first use, so that a command which needs only
the rules (`shutbox --help`, `--version`) does not load the solver and the exact games. `_NAMES` is
the one list of them; the imports for type checkers repeat it (tests/test_layers.py checks they agree).
"""

from typing import TYPE_CHECKING

from .lazy import lazy_names

if TYPE_CHECKING:  # `name as name`: each re-exported, one statement per module
    # isort: off
    from .box import (
        dice_options as dice_options,
        mask_of as mask_of,
        one_die_allowed as one_die_allowed,
        score as score,
        tile_sum as tile_sum,
        tiles_of as tiles_of,
    )
    from .dice import (
        DICE_SCHEME as DICE_SCHEME,
        derive_seed as derive_seed,
        draw_seed as draw_seed,
        turn_rolls as turn_rolls,
    )
    from .exact_odds import (
        Duel as Duel,
        GameOdds as GameOdds,
        SeatOdds as SeatOdds,
        TurnOdds as TurnOdds,
        exact_turn_odds as exact_turn_odds,
    )
    from .exact_walk import duel as duel, game_odds as game_odds
    from .match import (
        GameInPlay as GameInPlay,
        GameRecord as GameRecord,
        RoundRecord as RoundRecord,
        TurnContext as TurnContext,
        TurnPlayer as TurnPlayer,
        play_game as play_game,
        seat_order as seat_order,
    )
    from .moves import THROWS as THROWS, MoveTable as MoveTable, legal_moves as legal_moves, move_table as move_table
    from .rules import (
        FirstRoll as FirstRoll,
        OneDie as OneDie,
        OneDieMode as OneDieMode,
        Rules as Rules,
        RulesError as RulesError,
        Scoring as Scoring,
        ShutRule as ShutRule,
        Ties as Ties,
    )
    from .solver import (
        Distribution as Distribution,
        Solution as Solution,
        distribution as distribution,
        solution_distribution as solution_distribution,
        solve_beat as solve_beat,
        solve_expected_score as solve_expected_score,
        solve_shut as solve_shut,
    )
    from .turn import (
        Chooser as Chooser,
        IllegalDecision as IllegalDecision,
        Roll as Roll,
        Turn as Turn,
        TurnRecord as TurnRecord,
        finish_turn as finish_turn,
        play_turn as play_turn,
    )
    # isort: on

_NAMES: dict[str, tuple[str, ...]] = {
    ".box": ("dice_options", "mask_of", "one_die_allowed", "score", "tile_sum", "tiles_of"),
    ".dice": ("DICE_SCHEME", "derive_seed", "draw_seed", "turn_rolls"),
    ".exact_odds": ("Duel", "GameOdds", "SeatOdds", "TurnOdds", "exact_turn_odds"),
    ".exact_walk": ("duel", "game_odds"),
    ".match": ("GameInPlay", "GameRecord", "RoundRecord", "TurnContext", "TurnPlayer", "play_game", "seat_order"),
    ".moves": ("THROWS", "MoveTable", "legal_moves", "move_table"),
    ".rules": ("FirstRoll", "OneDie", "OneDieMode", "Rules", "RulesError", "Scoring", "ShutRule", "Ties"),
    ".solver": (
        "Distribution",
        "Solution",
        "distribution",
        "solution_distribution",
        "solve_beat",
        "solve_expected_score",
        "solve_shut",
    ),
    ".turn": ("Chooser", "IllegalDecision", "Roll", "Turn", "TurnRecord", "finish_turn", "play_turn"),
}
"""The engine's public names, by the module that defines each."""
__all__, _load = lazy_names(__name__, _NAMES)

if not TYPE_CHECKING:  # type checkers read the imports above, and flag a name not among them
    __getattr__ = _load
