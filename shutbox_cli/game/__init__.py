"""The rules engine: pure Python, no I/O, no terminal. Everything else builds on it.

Its names load lazily, each from its own module on first use, so that a command which needs only
the rules (`shutbox --help`, `--version`) does not load the solver and the exact games."""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .box import dice_options, mask_of, one_die_allowed, score, tile_sum, tiles_of
    from .dice import DICE_SCHEME, derive_seed, draw_seed, turn_rolls
    from .exact_games import Duel, GameOdds, SeatOdds, TurnOdds, duel, exact_turn_odds, game_odds
    from .match import GameRecord, RoundRecord, TurnContext, TurnPlayer, play_game, seat_order
    from .moves import THROWS, MoveTable, legal_moves, move_table
    from .rules import FirstRoll, OneDie, OneDieMode, Rules, RulesError, Scoring, ShutRule, Ties
    from .solver import (
        Distribution,
        Solution,
        distribution,
        solution_distribution,
        solve_beat,
        solve_expected_score,
        solve_shut,
    )
    from .turn import Chooser, IllegalDecision, Roll, Turn, TurnRecord, finish_turn, play_turn

_MODULE_OF = {
    "Chooser": "turn",
    "DICE_SCHEME": "dice",
    "Distribution": "solver",
    "Duel": "exact_games",
    "FirstRoll": "rules",
    "GameOdds": "exact_games",
    "GameRecord": "match",
    "IllegalDecision": "turn",
    "MoveTable": "moves",
    "OneDie": "rules",
    "OneDieMode": "rules",
    "Roll": "turn",
    "RoundRecord": "match",
    "Rules": "rules",
    "RulesError": "rules",
    "Scoring": "rules",
    "SeatOdds": "exact_games",
    "ShutRule": "rules",
    "Solution": "solver",
    "THROWS": "moves",
    "Ties": "rules",
    "Turn": "turn",
    "TurnContext": "match",
    "TurnOdds": "exact_games",
    "TurnPlayer": "match",
    "TurnRecord": "turn",
    "derive_seed": "dice",
    "dice_options": "box",
    "distribution": "solver",
    "draw_seed": "dice",
    "duel": "exact_games",
    "exact_turn_odds": "exact_games",
    "finish_turn": "turn",
    "game_odds": "exact_games",
    "legal_moves": "moves",
    "mask_of": "box",
    "move_table": "moves",
    "one_die_allowed": "box",
    "play_game": "match",
    "play_turn": "turn",
    "score": "box",
    "seat_order": "match",
    "solution_distribution": "solver",
    "solve_beat": "solver",
    "solve_expected_score": "solver",
    "solve_shut": "solver",
    "tile_sum": "box",
    "tiles_of": "box",
    "turn_rolls": "dice",
}
"""Which module of the engine defines each public name."""
MODULES = tuple(sorted(set(_MODULE_OF.values())))
"""The engine's modules."""


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "DICE_SCHEME",
    "THROWS",
    "Chooser",
    "Distribution",
    "Duel",
    "FirstRoll",
    "GameOdds",
    "GameRecord",
    "IllegalDecision",
    "MoveTable",
    "OneDie",
    "OneDieMode",
    "Roll",
    "RoundRecord",
    "Rules",
    "RulesError",
    "Scoring",
    "SeatOdds",
    "ShutRule",
    "Solution",
    "Ties",
    "Turn",
    "TurnContext",
    "TurnOdds",
    "TurnPlayer",
    "TurnRecord",
    "derive_seed",
    "dice_options",
    "distribution",
    "draw_seed",
    "duel",
    "exact_turn_odds",
    "finish_turn",
    "game_odds",
    "legal_moves",
    "mask_of",
    "move_table",
    "one_die_allowed",
    "play_game",
    "play_turn",
    "score",
    "seat_order",
    "solution_distribution",
    "solve_beat",
    "solve_expected_score",
    "solve_shut",
    "tile_sum",
    "tiles_of",
    "turn_rolls",
]
