"""Exact tournaments: for a field of exact strategies (their play depends only on the open tiles
and the dice) and keyed ones where their key allows it (`target` in a one-round game: each turn
played from its table for the key it sees, `shutbox_cli.game.exact_walk`), every seating of every
matchup is one exact game, so the ranking, the head-to-head table and the per-seat figures are
chances, not estimates.

A matchup's seatings are the rotations a simulated tournament deals (seat `s` of rotation `r` holds
player `(r + s) % table`), so the figures are what a simulated tournament tends to as its games
grow. Nothing is dealt: there is no seed, `games` does not apply, and neither do duplicate deals
(sharing dice only lowers a simulation's noise). Chances are fractions in a one-round game (about
as costly as tabulating the strategies) and floats over several rounds or in drop-out, where the
totals' convolutions make fractions slow; `arithmetic` says which.

Who finished ahead of whom (`tally.finished_ahead`) is computed exactly at a table of two, where it
is winning outright (level: sharing the win). At a larger table it needs the joint outcome of every
pair of seats, which the seat-by-seat walk of an exact game does not give: there the head-to-head
table keeps its win rates, and `ahead`, `tied`, `behind` and `ahead_rate` are None.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from shutbox_cli.game import GameOdds, Rules, Ties, TurnOdds, game_odds
from shutbox_cli.game.exact_odds import Arithmetic

from ..errors import ConfigError, setting
from ..field.config import TournamentConfig
from ..field.entries import StrategyEntry
from ..playing.fingerprints import field_fingerprints
from ..statistics.standings import HeadToHead, SeatStanding, Standing
from .cost import refuse_costly
from .turns import KeptTurns, Turns, entry_key, field_turns, refuse_inexact, uses_fractions

Chance = Fraction | float
"""An exact chance: a fraction, or a float where fractions cost too much."""
KEY_DIGITS = 12
"""Float figures are ranked on this many decimals, so rounding noise never orders equal strategies."""


def game(rules: Rules, turns: Sequence[Turns]) -> GameOdds[Any]:
    """One exact game; a game these rules never end (a playoff of seats that always score alike)
    is a ConfigError."""
    try:
        return game_odds(rules, turns)
    except ValueError as error:
        raise ConfigError(f"these rules cannot be computed exactly: {error}") from None


@dataclasses.dataclass(frozen=True)
class Seating:
    """One game of a matchup: the strategies in seat order (indices into the field) and its exact odds."""

    players: tuple[int, ...]
    odds: GameOdds[Any]


@dataclasses.dataclass(frozen=True)
class ExactSummary:
    """A finished exact tournament: the same ranking and head-to-head figures as a `Summary`, with
    chances in place of estimates and no intervals (a standing's intervals are its value, twice),
    and figures per seat.

    A "game" here is one seating computed exactly: a standing's `games` counts its seatings,
    `wins` its expected wins over them, `turns` its expected turns. `seatings[m][r]` is rotation
    `r` of matchup `m`; `arithmetic` says whether the chances were fractions or floats.
    """

    config: TournamentConfig
    seatings: tuple[tuple[Seating, ...], ...]
    ranking: tuple[Standing, ...]
    head_to_head: tuple[HeadToHead, ...]
    seats: tuple[SeatStanding, ...]
    arithmetic: Arithmetic
    fingerprints: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Each exact strategy's policy fingerprint under the rules, by name (`strategies.fingerprint`)."""

    @property
    def games(self) -> int:
        """The seatings computed: one exact game each."""
        return sum(len(matchup) for matchup in self.seatings)

    def __repr__(self) -> str:
        from ..briefly import brief, counted, ranked

        computed = (
            f"of {counted(len(self.ranking), 'strategy', 'strategies')}, {counted(self.games, 'seating')} computed"
        )
        return brief("ExactSummary", computed, ranked(self.ranking, self.solo))

    @property
    def solo(self) -> bool:
        return self.config.table == 1

    @property
    def exact(self) -> bool:
        return True

    @property
    def matchups(self) -> int:
        return len(self.seatings)

    @property
    def games_per_matchup(self) -> int:
        """The seatings of a matchup: one per rotation."""
        return self.config.table

    @property
    def seed(self) -> None:
        """Nothing is dealt: no seed."""
        return None

    @property
    def seed_drawn(self) -> bool:
        return False

    @property
    def unresolved(self) -> float:
        """The largest chance left unfollowed in any game (0 unless a drop-out game may last for ever)."""
        return max((float(seating.odds.unresolved) for matchup in self.seatings for seating in matchup), default=0.0)


@dataclasses.dataclass
class _Sums:
    """Expected figures added up over some seatings of one strategy."""

    games: int = 0
    wins: Chance = 0
    played: Chance = 0
    turns: Chance = 0
    total: Chance = 0
    ahead: Chance = 0
    tied: Chance = 0
    score: Chance = 0
    shuts: Chance = 0

    def add(self, odds: GameOdds[Any], seat: int) -> None:
        figures = odds.seats[seat]
        self.games += 1
        self.wins += figures.win
        self.played += figures.played
        self.turns += figures.turns
        self.total += figures.expected_total
        self.score += figures.turns * figures.expected_score
        self.shuts += figures.turns * figures.shut_probability
        if len(odds.seats) == 2:
            tied = odds.tie if odds.rules.ties is Ties.SHARE else 0
            self.ahead += figures.win - tied / 2
            self.tied += tied

    @property
    def win_rate(self) -> Chance:
        return self.wins / self.games if self.games else 0

    @property
    def mean_total(self) -> float | None:
        return float(self.total / self.played) if self.played else None

    def mean_rounds(self, rules: Rules) -> float | None:
        return float(self.turns / self.games) if rules.drop_out is not None and self.games else None


def _key(value: Chance) -> Chance:
    return round(value, KEY_DIGITS) if isinstance(value, float) else value


def run_exact(
    config: TournamentConfig,
    progress: Callable[[int, int], None] | None = None,
    *,
    gauntlet: int = 0,
    kept: KeptTurns | None = None,
) -> ExactSummary:
    """Compute an exact tournament in this process; `progress` is told the seatings done and their
    total. Given a `gauntlet`, only the matchups that seat one of its first `gauntlet` strategies are
    computed (the rest's figures are then of those games alone: a tune reads its candidate's). Given
    `kept`, the turns of the strategies after the first `gauntlet` (the field) are taken from it, or
    made and kept there for the next run (a tune's next candidate). Raises ConfigError for a
    strategy that cannot be computed exactly (or rules whose games never end) and TournamentFailure
    for a strategy that fails while answering."""
    rules, table = config.rules, config.table
    for entry in config.strategies:
        refuse_inexact(entry.name, entry.exact, entry.context_free, entry_key(entry, rules, table), rules, table)
    fractions = uses_fractions(rules)
    matchups = [
        one for one in itertools.combinations(range(len(config.strategies)), table) if not gauntlet or one[0] < gauntlet
    ]
    total = len(matchups) * table
    with contextlib.ExitStack() as stack:
        turns = field_turns(config, fractions, stack, gauntlet, kept)
        refuse_costly(
            rules,
            turns,
            matchups,
            table,
            f"computing these {total:,} games exactly",
            f"enter fewer strategies, or simulate them (without {setting('method', 'exact')})",
            hosted=[not entry.builtin for entry in config.strategies],
        )
        if progress is not None:
            progress(0, total)
        seatings: list[tuple[Seating, ...]] = []
        for players in matchups:
            found = []
            for rotation in range(table):
                order = tuple(players[(rotation + seat) % table] for seat in range(table))
                found.append(Seating(order, game(rules, [turns[player] for player in order])))
                if progress is not None:
                    progress(len(seatings) * table + rotation + 1, total)
            seatings.append(tuple(found))
    summary = _summarise(config, tuple(seatings), turns, "fraction" if fractions else "float")
    return dataclasses.replace(summary, fingerprints=field_fingerprints(config))


def _summarise(
    config: TournamentConfig,
    seatings: tuple[tuple[Seating, ...], ...],
    turns: Sequence[Turns],
    arithmetic: Arithmetic,
) -> ExactSummary:
    """Standings, ranking, head-to-head and per-seat figures from every seating's odds."""
    count, table, rules = len(config.strategies), config.table, config.rules
    sums = [_Sums() for _ in range(count)]
    by_seat = [[_Sums() for _ in range(table)] for _ in range(count)]
    pairs = [[[_Sums() for _ in range(table)] for _ in range(count)] for _ in range(count)]
    for matchup in seatings:
        for seating in matchup:
            for seat, player in enumerate(seating.players):
                sums[player].add(seating.odds, seat)
                by_seat[player][seat].add(seating.odds, seat)
                for other in seating.players:
                    if other != player:
                        pairs[player][other][seat].add(seating.odds, seat)
    solo = table == 1
    names = config.names
    per_turn = [_per_turn(seat, figures) for seat, figures in zip(turns, sums, strict=True)]

    def rank_key(index: int) -> tuple[Any, ...]:
        score, shut = per_turn[index]
        if solo:
            return (_key(score), -_key(shut), names[index])
        return (-_key(sums[index].win_rate), _key(score), names[index])

    order = sorted(range(count), key=rank_key)
    ranking = tuple(_standing(config.strategies[index], sums[index], per_turn[index], rules) for index in order)
    head_to_head = tuple(
        _head_to_head(names[a], names[b], pairs[a][b], pairs[b][a], table == 2)
        for a in order
        for b in order
        if a != b and pairs[a][b][0].games
    )
    seats = tuple(
        SeatStanding(
            names[index],
            seat + 1,
            figures.games,
            float(figures.wins),
            float(figures.win_rate),
            figures.mean_total,
            figures.mean_rounds(rules),
        )
        for index in order
        for seat, figures in enumerate(by_seat[index])
    )
    return ExactSummary(config, seatings, ranking, head_to_head, seats, arithmetic)


def _per_turn(seat: Turns, sums: _Sums) -> tuple[Chance, Chance]:
    """A strategy's expected score and shut-box chance per regular turn: an exact strategy's turn's,
    a keyed one's over the turns of its seatings (its keys' turns in proportion)."""
    if isinstance(seat, TurnOdds):
        return seat.expected_score, seat.shut_probability
    if not sums.turns:
        return 0, 0
    return sums.score / sums.turns, sums.shuts / sums.turns


def _standing(entry: StrategyEntry, sums: _Sums, per_turn: tuple[Chance, Chance], rules: Rules) -> Standing:
    rate, score, shut = float(sums.win_rate), float(per_turn[0]), float(per_turn[1])
    return Standing(
        name=entry.name,
        spec=entry.spec,
        games=sums.games,
        wins=float(sums.wins),
        win_rate=rate,
        win_interval=(rate, rate),
        turns=float(sums.turns),
        mean_score=score,
        score_interval=(score, score),
        mean_total=sums.mean_total,
        shut_rate=shut,
        shut_interval=(shut, shut),
        mean_rounds=sums.mean_rounds(rules),
    )


def _head_to_head(
    strategy: str, opponent: str, seats: Sequence[_Sums], against: Sequence[_Sums], finishes: bool
) -> HeadToHead:
    """The pair's figures from the sums of `strategy` (`seats`) and of `opponent` (`against`) over
    their seatings together; `finishes`: who finished ahead is known (a table of two)."""
    games = sum(figures.games for figures in seats)
    wins = sum(figures.wins for figures in seats)
    ahead = sum(figures.ahead for figures in seats)
    tied = sum(figures.tied for figures in seats)
    return HeadToHead(
        strategy=strategy,
        opponent=opponent,
        games=games,
        wins=float(wins),
        win_rate=float(wins / games),
        ahead=float(ahead) if finishes else None,
        tied=float(tied) if finishes else None,
        behind=float(sum(figures.ahead for figures in against)) if finishes else None,
        ahead_rate=float((ahead + tied / 2) / games) if finishes else None,
        by_seat=tuple(float(figures.win_rate) for figures in seats),
    )
