"""The questions a strategy is checked on: the decisions of games played, legally and at random,
under random rule sets (every box size, shut rule, one-die rule, scoring, first roll and game
format), each with the turn so far and the game's context as they stood."""

from __future__ import annotations

import dataclasses
import random

from shutbox_cli.game import (
    FirstRoll,
    OneDie,
    OneDieMode,
    Roll,
    Rules,
    Scoring,
    ShutRule,
    Ties,
    Turn,
    TurnContext,
    TurnRecord,
    play_game,
    tiles_of,
    turn_rolls,
)
from shutbox_cli.game.terms import GameNumber, Mask, Seed

MOST_PER_GAME = 40
"""The most questions kept from one game (a long drop-out game would crowd out the others)."""


@dataclasses.dataclass(frozen=True)
class Question:
    """One decision of a sampled game: how many dice (`dice` None) or which move."""

    rules: Rules
    open_mask: Mask
    dice: tuple[int, ...] | None
    moves: tuple[Mask, ...]
    history: tuple[Roll, ...]
    context: TurnContext
    seed: Seed

    def where(self) -> str:
        tiles = " ".join(map(str, tiles_of(self.open_mask)))
        dice = "not rolled yet" if self.dice is None else "+".join(map(str, self.dice))
        return f"open tiles {tiles} and dice {dice}"


def random_rules(rng: random.Random) -> Rules:
    """Any rule set: every option drawn, the game format too (one round, rounds, drop-out)."""
    tiles = rng.randint(2, 12)
    game_format = rng.choice(["one round", "rounds", "drop-out"])
    return Rules(
        tiles=tiles,
        shut_rule=rng.choice(list(ShutRule)),
        one_die=rng.choice([None, *OneDie]),
        one_die_mode=rng.choice(list(OneDieMode)),
        scoring=rng.choice(list(Scoring)),
        first_roll=rng.choice([roll for roll in FirstRoll if (roll.tile or 0) <= tiles]),
        instant_win=rng.choice([None, True, False]),  # type: ignore[arg-type]  # None: the format's default
        ties=rng.choice(list(Ties)),
        rounds=rng.randint(2, 4) if game_format == "rounds" else 1,
        drop_out=rng.randint(10, 80) if game_format == "drop-out" else None,
    )


def _sample_game(rules: Rules, rng: random.Random, seed: Seed, game: GameNumber) -> list[Question]:
    """The decisions of one game of 1 to 4 players under these rules, each choice made at random."""
    found: list[Question] = []

    def play(context: TurnContext) -> TurnRecord:
        turn = Turn(rules, turn_rolls(seed, game, context.round, context.seat))
        while not turn.over:
            options = turn.dice_options
            if len(options) > 1:
                found.append(Question(rules, turn.open_mask, None, (), tuple(turn.history), context, 0))
            turn.roll(rng.choice(options))
            if turn.dice is not None:
                if len(turn.moves) > 1:
                    dice = tuple(sorted(turn.dice))
                    found.append(Question(rules, turn.open_mask, dice, turn.moves, tuple(turn.history), context, 0))
                turn.shut(rng.choice(turn.moves))
        return turn.record()

    play_game(rules, rng.randint(1, 4), play)
    return found[:MOST_PER_GAME]


def sample_questions(seed: Seed, samples: int) -> tuple[list[Question], int]:
    """The decisions of `samples` games, each under its own random rule set, played by a random
    legal player, each numbered by its seed; and the number of distinct rule sets."""
    rng = random.Random(seed)
    rule_sets = [random_rules(rng) for _ in range(samples)]
    found = [question for game, rules in enumerate(rule_sets) for question in _sample_game(rules, rng, seed, game)]
    return [dataclasses.replace(question, seed=number) for number, question in enumerate(found)], len(set(rule_sets))
