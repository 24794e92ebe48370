"""What a worker counts: a few whole numbers per strategy and matchup, never the games.

Every count is an integer (a shared win counts in units of 1/`share_unit`), so adding
tallies is exact and gives the same totals in any order: results cannot depend on the
number of workers or on which unit finishes first.
"""

from __future__ import annotations

import dataclasses
import math

from shutbox_cli.game import GameRecord


def share_unit(table: int) -> int:
    """The whole-number unit of a win: any split among up to `table` winners is a whole number of it."""
    return math.lcm(*range(1, table + 1))


@dataclasses.dataclass(slots=True)
class Tally:
    """One strategy's counts over some games of one matchup.

    `turns` counts turns of regular rounds (not playoffs) and, in drop-out games, the
    rounds a player lasted; `played` counts games in which it took a turn at all (a shut
    box can end a game before later seats play), and `total_sum` adds their final totals.
    """

    games: int = 0
    win_shares: int = 0
    turns: int = 0
    score_sum: int = 0
    score_squares: int = 0
    shut_boxes: int = 0
    played: int = 0
    total_sum: int = 0

    def add(self, other: Tally) -> None:
        """Add another tally's counts to this one."""
        for field in dataclasses.fields(self):
            setattr(self, field.name, getattr(self, field.name) + getattr(other, field.name))


def count_game(record: GameRecord, tallies: list[Tally], unit: int) -> None:
    """Add one game to the tallies of its players (indexed like the game's players)."""
    win = unit // len(record.winners)
    for player, tally in enumerate(tallies):
        tally.games += 1
        if player in record.winners:
            tally.win_shares += win
        turns = 0
        for round_ in record.rounds:
            turn = round_.turns[player]
            if turn is None or round_.playoff:
                continue
            turns += 1
            tally.score_sum += turn.score
            tally.score_squares += turn.score * turn.score
            tally.shut_boxes += turn.shut_box
        if turns:
            tally.turns += turns
            tally.played += 1
            tally.total_sum += record.totals[player]
