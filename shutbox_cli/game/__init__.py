"""The rules engine: pure Python, no I/O, no terminal. Everything else builds on it."""

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
