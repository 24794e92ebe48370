"""A computer seat: a strategy plays visibly, roll by roll, with a pause a watcher can follow."""

from __future__ import annotations

from strategies import LoadedStrategy, StrategyPlayer

from ..game import Rules, Turn, TurnContext, TurnRecord
from .board import dice_text, mask_text, tile_row
from .screen import Screen


class ComputerSeat:
    """A seat played by a loaded strategy, its every answer checked by `StrategyPlayer`."""

    computer = True

    def __init__(self, name: str, loaded: LoadedStrategy, rules: Rules) -> None:
        self.name = name
        self.player = StrategyPlayer(loaded.make(), rules, name)

    def play_turn(self, screen: Screen, turn: Turn, context: TurnContext, seed: int, game: int) -> TurnRecord:
        """Play a turn as `play_turn` would, writing each roll and shut as it happens."""
        player = self.player.start_turn(context, seed, game)
        screen.say(tile_row(turn.rules, turn.open_mask))
        while not turn.over:
            screen.pause()
            options = turn.dice_options
            count = player.choose_dice(turn.open_mask, turn.history) if len(options) > 1 else options[0]
            dice = turn.roll(count)
            if turn.over:
                screen.say(f"{self.name} rolls {dice_text(dice)}.")
                break
            moves = turn.moves
            move = moves[0] if len(moves) == 1 else player.choose_move(turn.open_mask, dice, moves, turn.history)
            turn.shut(move)
            joint = "," if len(dice) == 1 else ""
            screen.say(f"{self.name} rolls {dice_text(dice)}{joint} and shuts {mask_text(move)}.")
            if not turn.over:
                screen.say(tile_row(turn.rules, turn.open_mask))
        return turn.record()
