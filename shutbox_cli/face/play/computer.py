"""A computer seat: a strategy plays visibly, roll by roll, with a pause a watcher can follow."""

from __future__ import annotations

from typing import Protocol

from shutbox_cli.game.terms import GameNumber, Seed

from ...game import Chooser, Turn, TurnContext, TurnRecord, finish_turn
from .board import dice_text, mask_text, tile_rows
from .screen import Screen


class Player(Protocol):
    """A strategy at the table (`SeatedStrategy.player()`): told of each turn, then asked its questions."""

    def start_turn(self, context: TurnContext, seed: Seed, game: GameNumber) -> Chooser: ...


class ComputerSeat:
    """A seat played by a strategy's player (`SeatedStrategy.player`: in this process, or asked in
    its host), its every answer checked."""

    computer = True

    def __init__(self, name: str, player: Player) -> None:
        self.name = name
        self.player = player

    def play_turn(self, screen: Screen, turn: Turn, context: TurnContext, seed: Seed, game: GameNumber) -> TurnRecord:
        """Play a turn with the engine, writing each roll and shut as it happens."""

        def show(turn: Turn) -> None:
            roll = turn.history[-1]
            if not roll.shut:
                screen.say(f"{self.name} rolls {dice_text(roll.dice)}.")
                return
            joint = "," if len(roll.dice) == 1 else ""
            screen.say(f"{self.name} rolls {dice_text(roll.dice)}{joint} and shuts {mask_text(roll.shut)}.")
            if not turn.over:
                screen.say_rows(tile_rows(turn.rules, turn.open_mask, screen.width))
                screen.pause()

        screen.say_rows(tile_rows(turn.rules, turn.open_mask, screen.width))
        screen.pause()
        return finish_turn(turn, self.player.start_turn(context, seed, game), watch=show)
