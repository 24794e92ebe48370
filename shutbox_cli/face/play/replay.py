"""`shutbox replay`: one game of a tournament played again at the table, its strategies as computer
seats on the game's own dice and seating, paused like any computer seat so a writer can follow it."""

from __future__ import annotations

from tournaments import TournamentGame

from .computer import ComputerSeat
from .screen import Screen
from .table import Table, play_table


def replay_game(screen: Screen, game: TournamentGame) -> int:
    """Show the game, turn by turn, and its result; return the exit status."""
    config, slot = game.plan.config, game.slot
    seats = [ComputerSeat(entry.name, entry.load(), config.rules) for entry in game.strategies]
    table = Table(screen, config.rules, seats, game.plan.deal_seed)
    title = (
        f"Replay of {game.title} (tournament seed {config.seed}), dealt from seed {game.plan.deal_seed} "
        f"as game {slot.dice_game}."
    )

    def watch() -> None:
        table.header(title)
        table.finish(table.play(slot.dice_game, slot.first_seat))

    return play_table(table, watch)
