"""What a summary holds of each strategy: its standing over the whole tournament, its head to head
against each opponent, and its figures by seat; simulated (`tournaments.results.aggregate`) or
computed exactly (`tournaments.exact.tournament`)."""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Standing:
    """One strategy's results over the whole tournament.

    `wins` counts a shared win as a fraction; `win_interval` is the 95% Wilson interval of
    the win rate; `score_interval` the 95% normal interval of the mean score per turn
    (regular rounds only), `shut_interval` the 95% Wilson interval of the shut rate. Every
    matchup plays the same deals, so a strategy's games in different matchups share their dice:
    the intervals count each deal once (as if the strategy had played one matchup's worth of
    games), which makes them conservative.
    `mean_rounds` is only set for drop-out games: the rounds a strategy lasted, the one it
    went out in included. In an exact tournament (`tournaments.exact.tournament`) the figures are chances
    and expectations: `wins` and `turns` are expected over its seatings, and an interval is its
    value twice.
    """

    name: str
    spec: str
    games: int
    wins: float
    win_rate: float
    win_interval: tuple[float, float]
    turns: float
    mean_score: float | None
    score_interval: tuple[float, float] | None
    mean_total: float | None
    shut_rate: float | None
    shut_interval: tuple[float, float] | None
    mean_rounds: float | None
    rating: float | None = None
    """Its Bradley-Terry rating on the Elo scale, the field's mean 0 (`ratings`); None solo or exact."""
    rating_interval: tuple[float, float] | None = None
    superiority: float | None = None
    """The likelihood, from the ratings, that it is truly stronger than the next in the ranking."""


@dataclasses.dataclass(frozen=True)
class HeadToHead:
    """`strategy` against `opponent` over the games in which both sat at the same table.

    `wins` and `win_rate` are its own wins there (a shared win as a fraction). `ahead`, `tied` and
    `behind` count the games it finished ahead of, level with and behind `opponent`
    (`tournaments.playing.tally.finished_ahead`), and `ahead_rate` is (ahead + tied / 2) / games: the
    chance it finished ahead, a level finish counting half. At a table of two, ahead is winning
    outright. In an exact tournament the counts are expected counts (floats), None at a table of
    three or more (not computed exactly, `tournaments.exact.tournament`), and `by_seat` holds its win rate
    from each seat (`by_seat[0]`: seat 1).
    """

    strategy: str
    opponent: str
    games: int
    wins: float
    win_rate: float
    ahead: float | None
    tied: float | None
    behind: float | None
    ahead_rate: float | None
    by_seat: tuple[float, ...] = ()


@dataclasses.dataclass(frozen=True)
class SeatStanding:
    """One strategy's figures in one seat (1 plays first), over every matchup it plays: `games` is
    the number of its seatings there, `wins` the expected wins over them (a shared win in part),
    `mean_total` its expected final total over the games it played in, and `mean_rounds` the
    rounds it lasted (drop-out)."""

    name: str
    seat: int
    games: int
    wins: float
    win_rate: float
    mean_total: float | None
    mean_rounds: float | None
