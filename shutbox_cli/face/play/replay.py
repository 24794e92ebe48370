"""`shutbox replay`: one game of a tournament played again at the table, its strategies as computer
seats on the game's own dice and seating, paused like any computer seat so a writer can follow it."""

from __future__ import annotations

import contextlib
import io
from typing import Any

from tournaments import TournamentGame
from tournaments.parts import header, rules_table, seat_strategies

from ...game.match import GameRecord
from ..console import ShutboxConsole
from .computer import ComputerSeat
from .screen import Screen
from .table import Table, play_table


def replay_game(screen: Screen, game: TournamentGame, stack: contextlib.ExitStack) -> int:
    """Show the game, turn by turn, and its result; return the exit status. A user's strategy plays
    from a process of its own (ended with `stack`), each answer within the tournament's time limit."""
    table = _table(screen, game, stack)
    config, slot = game.plan.config, game.slot
    title = (
        f"Replay of {game.title} (tournament seed {config.seed}), dealt from seed {game.plan.deal_seed} "
        f"as game {slot.dice_game}."
    )

    def watch() -> None:
        table.header(title)
        table.finish(table.play(slot.dice_game, slot.first_seat))

    return play_table(table, watch)


def replay_document(game: TournamentGame, stack: contextlib.ExitStack) -> dict[str, Any]:
    """The game played again out of sight, as a document (docs/report.md, `kind = "replay"`)."""
    screen = Screen(0.0)
    screen.console = ShutboxConsole(file=io.StringIO(), highlight=False, markup=False)
    table = _table(screen, game, stack)
    record = table.play(game.slot.dice_game, game.slot.first_seat)
    return {
        **header("replay"),
        "matchup": game.title,
        "seed": game.plan.config.seed,
        "deal_seed": game.plan.deal_seed,
        "dice_game": game.slot.dice_game,
        "players": table.names,
        "rules": rules_table(game.plan.config.rules),
        **_record_table(table.names, record),
    }


def _record_table(names: list[str], record: GameRecord) -> dict[str, Any]:
    """A game's rounds (each turn: its player, rolls, tiles left open and score), totals and winners."""
    rounds = [
        {
            "number": one.number,
            "playoff": one.playoff,
            "turn": [
                {
                    "player": names[player],
                    "rolls": [{"dice": list(roll.dice), "shut": list(roll.shut_tiles)} for roll in turn.rolls],
                    "open": list(turn.open_tiles),
                    "score": turn.score,
                }
                for player, turn in enumerate(one.turns)
                if turn is not None
            ],
        }
        for one in record.rounds
    ]
    return {
        "round": rounds,
        "totals": list(record.totals),
        "winners": [names[player] for player in record.winners],
    }


def _table(screen: Screen, game: TournamentGame, stack: contextlib.ExitStack) -> Table:
    """The game's table: its strategies as computer seats, a user's in a process of its own."""
    config = game.plan.config
    given = [(entry.spec, entry.params, entry.name) for entry in game.strategies]
    seated = [stack.enter_context(one) for one in seat_strategies(given, config.rules, timeout=config.timeout)]
    seats = [ComputerSeat(one.name, one.player()) for one in seated]
    return Table(screen, config.rules, seats, game.plan.deal_seed)
