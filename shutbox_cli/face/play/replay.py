"""`shutbox replay`: one game of a tournament played again at the table, its strategies as computer
seats on the game's own dice and seating, paused like any computer seat so a writer can follow it."""

from __future__ import annotations

import contextlib

from tournaments import TournamentGame, seat_strategies

from .computer import ComputerSeat
from .screen import Screen
from .table import Table, play_table


def replay_game(screen: Screen, game: TournamentGame, stack: contextlib.ExitStack) -> int:
    """Show the game, turn by turn, and its result; return the exit status. A user's strategy plays
    from a process of its own (ended with `stack`), each answer within the tournament's time limit."""
    config, slot = game.plan.config, game.slot
    given = [(entry.spec, entry.params, entry.name) for entry in game.strategies]
    seated = [stack.enter_context(one) for one in seat_strategies(given, config.rules, timeout=config.timeout)]
    seats = [ComputerSeat(one.name, one.player()) for one in seated]
    table = Table(screen, config.rules, seats, game.plan.deal_seed)
    title = (
        f"Replay of {game.title} (tournament seed {config.seed}), dealt from seed {game.plan.deal_seed} "
        f"as game {slot.dice_game}."
    )

    def watch() -> None:
        table.header(title)
        table.finish(table.play(slot.dice_game, slot.first_seat))

    return play_table(table, watch)
