"""What a worker counts: a few whole numbers per strategy and matchup, never the games.

Every count is an integer (a shared win counts in units of 1/`share_unit`), so adding
tallies is exact and gives the same totals in any order: results cannot depend on the
number of workers or on which unit finishes first.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Sequence

from shutbox_cli.game import GameRecord

NEVER_OUT = 2**62
"""The round a player who never dropped out is out in, for comparing who lasted longer."""


def share_unit(table: int) -> int:
    """The whole-number unit of a win: any split among up to `table` winners is a whole number of it."""
    return math.lcm(*range(1, table + 1))


@dataclasses.dataclass(slots=True)
class Tally:
    """One strategy's counts over some games of one matchup.

    `turns` counts turns of regular rounds (not playoffs) and, in drop-out games, the
    rounds a player lasted; `played` counts games in which it took a turn at all (a shut
    box can end a game before later seats play), and `total_sum` adds their final totals.
    `ahead[k]` and `tied[k]` count the games it finished ahead of, and level with, the
    matchup's player `k` (see `finished_ahead`; its own entry stays 0).
    At a table of two, `pairs[k]` counts the deals (a game pair: the seats swapped) in which it won
    `k` halves of a game in all (the pentanomial); `dealt` holds the shares of a deal not yet
    finished while its games are counted one by one, and is never sent.
    """

    games: int = 0
    win_shares: int = 0
    turns: int = 0
    score_sum: int = 0
    score_squares: int = 0
    shut_boxes: int = 0
    played: int = 0
    total_sum: int = 0
    ahead: list[int] = dataclasses.field(default_factory=list)
    tied: list[int] = dataclasses.field(default_factory=list)
    pairs: list[int] = dataclasses.field(default_factory=list)
    dealt: int = 0

    def add(self, other: Tally) -> None:
        """Add another tally's counts to this one."""
        for name in SCALARS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.ahead = _plus(self.ahead, other.ahead)
        self.tied = _plus(self.tied, other.tied)
        self.pairs = _plus(self.pairs, other.pairs)

    def counts(self, players: int) -> list[int]:
        """Every count in one list, as `of_counts` reads them back for a matchup of `players`."""
        return (
            [getattr(self, name) for name in SCALARS]
            + _plus(self.ahead, [0] * players)
            + _plus(self.tied, [0] * players)
            + _plus(self.pairs, [0] * pair_outcomes(players))
        )

    @classmethod
    def of_counts(cls, counts: Sequence[int], players: int) -> Tally:
        """The tally whose `counts(players)` these are (`count_length(players)` of them)."""
        scalars = len(SCALARS)
        named = dict(zip(SCALARS, counts[:scalars], strict=True))
        ahead, tied = scalars + players, scalars + 2 * players
        return cls(
            **named,
            ahead=list(counts[scalars:ahead]),
            tied=list(counts[ahead:tied]),
            pairs=list(counts[tied : tied + pair_outcomes(players)]),
        )


SCALARS = tuple(
    field.name for field in dataclasses.fields(Tally) if field.name not in ("ahead", "tied", "pairs", "dealt")
)


def pair_outcomes(players: int) -> int:
    """How many outcomes a deal's pair of games has for one player: five at a table of two (0 to 4
    halves of a game won), none counted at other tables."""
    return 5 if players == 2 else 0


def count_length(players: int) -> int:
    """How many counts a tally of a matchup of `players` holds."""
    return len(SCALARS) + 2 * players + pair_outcomes(players)


def _plus(counts: list[int], more: list[int]) -> list[int]:
    return [a + b for a, b in itertools.zip_longest(counts, more, fillvalue=0)]


@dataclasses.dataclass(frozen=True, slots=True)
class Finish:
    """What decides where one player finished in a game, in the order `finished_ahead` reads it.

    `out` is the round it dropped out in (`NEVER_OUT` if never), `turns` its regular turns,
    `playoff` the playoff rounds it stayed in, and `last` its score in the last of them (None if a
    shut box ended that round before its turn, or if it played no playoff).
    """

    won: bool
    out: int
    turns: int
    total: int
    playoff: int
    last: int | None


def finishes(record: GameRecord) -> list[Finish]:
    """Each player's finish in a game (indexed like the game's players)."""
    stayed = [0] * record.players
    last: list[int | None] = [None] * record.players
    still = list(record.tied)
    for round_ in record.rounds:
        if not round_.playoff:
            continue
        for player in still:
            stayed[player] += 1
            turn = round_.turns[player]
            last[player] = None if turn is None else turn.score
        scored = {player: score for player in still if (score := last[player]) is not None}
        best = min(scored.values(), default=None)
        still = [player for player, score in scored.items() if score == best]
    return [
        Finish(
            won=player in record.winners,
            out=NEVER_OUT if record.out_after[player] is None else record.out_after[player],  # type: ignore[arg-type]
            turns=sum(1 for round_ in record.rounds if not round_.playoff and round_.turns[player] is not None),
            total=record.totals[player],
            playoff=stayed[player],
            last=last[player],
        )
        for player in range(record.players)
    ]


def finished_ahead(one: Finish, other: Finish) -> int:
    """1 if `one` finished ahead of `other` in their game, -1 if behind, 0 if level.

    A winner is ahead of everyone who did not win (winners of a shared win are level). Then, in a
    drop-out game, whoever lasted longer is ahead. Then the lower total is ahead, between players
    whose totals cover the same turns: when a shut box ends the game at once, a player it stopped
    from playing that round is level with one who played it. Equal totals that a playoff settled:
    whoever stayed in the playoff longer is ahead, and of two knocked out in the same playoff
    round, the lower score in it (level again if a shut box stopped one of them from playing it).
    Everyone else is level: for instance two losers on equal totals, whichever tie rule applies.
    At a table of two, finishing ahead is winning outright, and level is sharing the win.
    """
    if one.won != other.won:
        return 1 if one.won else -1
    if one.won:
        return 0
    if one.out != other.out:
        return 1 if one.out > other.out else -1
    if one.turns != other.turns:
        return 0
    if one.total != other.total:
        return 1 if one.total < other.total else -1
    if one.playoff != other.playoff:
        return 1 if one.playoff > other.playoff else -1
    if one.last is None or other.last is None or one.last == other.last:
        return 0
    return 1 if one.last < other.last else -1


def count_game(record: GameRecord, tallies: list[Tally], unit: int) -> None:
    """Add one game to the tallies of its players (indexed like the game's players)."""
    win = unit // len(record.winners)
    finish = finishes(record)
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
        if len(tally.ahead) < len(tallies):
            tally.ahead = _plus(tally.ahead, [0] * len(tallies))
            tally.tied = _plus(tally.tied, [0] * len(tallies))
        for other in range(len(tallies)):
            if other != player:
                placed = finished_ahead(finish[player], finish[other])
                tally.ahead[other] += placed > 0
                tally.tied[other] += placed == 0
        _count_pair(record, tally, win if player in record.winners else 0)


def _count_pair(record: GameRecord, tally: Tally, won: int) -> None:
    """At a table of two, add the game's win shares (halves of a win) to its deal's, and count the
    deal once both of its games are in (a unit's games come deal by deal, each deal's two together)."""
    if record.players != 2:
        return
    tally.dealt += won
    if tally.games % 2 == 0:
        tally.pairs = _plus(tally.pairs, [0] * pair_outcomes(2))
        tally.pairs[tally.dealt] += 1
        tally.dealt = 0
