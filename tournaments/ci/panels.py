"""A report's figures as data (`shutbox plot`): each panel a figure holds, and the figures of one
report; `figures` reads them from a report's table. No drawing library is used here."""

from __future__ import annotations

import dataclasses

from shutbox_cli.game import Rules


@dataclasses.dataclass(frozen=True)
class WinRates:
    """Each strategy's win rate in the ranking's order, best first, with its 95% interval (None:
    computed exactly); a solo tournament (a table of one) ranks by mean score instead."""

    names: tuple[str, ...]
    rates: tuple[float, ...]
    intervals: tuple[tuple[float, float], ...] | None
    even: float | None
    """The win rate of a strategy as strong as the rest: 1 / the table's seats (None: solo)."""
    key: str = "win_rate"
    """The ranking's figure: `win_rate`, or `mean_score` when solo."""


@dataclasses.dataclass(frozen=True)
class HeadToHeadGrid:
    """How often the row's strategy beat the column's (`ahead`: finished ahead of it, at a table of
    three or more); None where they did not meet (the diagonal, a gauntlet's own side)."""

    names: tuple[str, ...]
    rates: tuple[tuple[float | None, ...], ...]
    ahead: bool
    even: float
    """The rate of two as strong: 50% finishing ahead, else 1 / the table's seats."""


@dataclasses.dataclass(frozen=True)
class SeatRates:
    """An exact tournament's win rate of each strategy in each seat (seat 1 plays first)."""

    names: tuple[str, ...]
    seats: tuple[int, ...]
    rates: tuple[tuple[float, ...], ...]
    """By strategy, then by seat."""


@dataclasses.dataclass(frozen=True)
class Distribution:
    """Chances of whole values (a turn's score, a duel's margin), in order of value."""

    what: str
    """`score` or `margin`."""
    label: str
    """What a value is, in words for an axis."""
    values: tuple[int, ...]
    chances: tuple[float, ...]
    mean: float | None
    """The mean value, where the report gives it."""
    intervals: tuple[tuple[float, float], ...] | None
    """Each chance's 95% interval, for a simulation (None: exact)."""


@dataclasses.dataclass(frozen=True)
class DuelChances:
    """A duel's exact chances, by A's seat (None: both seats' average): A wins, B wins, and the
    chance the tie rule decided (a shared win counts half in each win chance)."""

    strategy: str
    opponent: str
    seats: tuple[int | None, ...]
    wins: tuple[float, ...]
    losses: tuple[float, ...]
    ties: tuple[float, ...]


@dataclasses.dataclass(frozen=True)
class SprtPath:
    """A match's sequential test: the games played and the LLR at each look, in order (empty in a
    report written before shutbox kept the path), its end, its bounds (fixed), settings and verdict."""

    strategy: str
    baseline: str
    games: tuple[int, ...]
    llrs: tuple[float, ...]
    end: tuple[int, float]
    """The games played and the LLR when the match stopped."""
    bounds: tuple[float, float]
    elo0: float
    elo1: float
    alpha: float
    beta: float
    verdict: str


@dataclasses.dataclass(frozen=True)
class MatchScore:
    """A match's score of NEW against BASELINE, with its 95% interval from the pairs and from the
    games taken one by one."""

    strategy: str
    baseline: str
    pairs: int
    score: float
    paired: tuple[float, float]
    unpaired: tuple[float, float]


@dataclasses.dataclass(frozen=True)
class Confirmed:
    """A simulated tune's confirmation: the best's figure and the starting values', each with its
    95% interval, and their difference with its interval (None where the report gives none)."""

    best: float
    best_interval: tuple[float, float] | None
    start: float
    start_interval: tuple[float, float] | None
    difference: float | None
    difference_interval: tuple[float, float] | None
    games: int
    seed: int


@dataclasses.dataclass(frozen=True)
class TuneCurve:
    """A tune of one parameter: each value tried, in order, with its figure (a value tried in several
    rounds of a halving: its last, on the most games) and, simulated, the figure's 95% interval;
    the best value, the starting one (None: the strategy's default, which the report does not say),
    and the confirmation."""

    parameter: str
    objective: str
    goal: str
    """`max`, or `min` (the mean score)."""
    values: tuple[float, ...]
    figures: tuple[float, ...]
    intervals: tuple[tuple[float, float], ...] | None
    best: float | None
    best_figure: float | None
    start: float | None
    start_figure: float | None
    confirmed: Confirmed | None


@dataclasses.dataclass(frozen=True)
class TuneGrid:
    """A tune of two parameters: the figure at each point of their grid (rows: the second's values,
    columns: the first's; None where no trial was played), the best point and the starting one."""

    parameters: tuple[str, str]
    objective: str
    goal: str
    columns: tuple[float, ...]
    rows: tuple[float, ...]
    figures: tuple[tuple[float | None, ...], ...]
    best: tuple[float, float] | None
    start: tuple[float | None, float | None]


@dataclasses.dataclass(frozen=True)
class TuneRanking:
    """A tune of three parameters or more: each point tried, best first, named by its values, with its
    figure (and its 95% interval, simulated); `shown` of `points` when there are too many to draw."""

    objective: str
    goal: str
    labels: tuple[str, ...]
    figures: tuple[float, ...]
    intervals: tuple[tuple[float, float], ...] | None
    points: int


@dataclasses.dataclass(frozen=True)
class LossBars:
    """Where an explanation's loss lies: the states where the strategy's choice is not the best,
    grouped `by` the box before the choice (`open total`: its open tiles added up; `tiles left`: how
    many are open), each group's loss (reach * cost added up), in the explanation's `unit`."""

    by: str
    groups: tuple[int, ...]
    losses: tuple[float, ...]
    unit: str
    """`points` (expected score) or `chance` (a chance of winning)."""


Panel = (
    WinRates
    | HeadToHeadGrid
    | SeatRates
    | Distribution
    | MatchScore
    | SprtPath
    | DuelChances
    | TuneCurve
    | TuneGrid
    | TuneRanking
    | LossBars
)


@dataclasses.dataclass(frozen=True)
class Figures:
    """Everything one report shows, in order of value, and how it was made."""

    kind: str
    """`tournament`, `match`, `analysis`, `duel`, `tune` or `explanation`."""
    subject: str
    """What was studied, in a few words (`3 strategies`, `tips against greedy-high`)."""
    rules: Rules
    method: str
    """`exact`, `simulate` or `sampled` (an explanation's states, met in simulated turns)."""
    seed: int | None
    """The dice's seed of a simulation (None: computed exactly)."""
    size: str
    """How much was played or computed (`1,200 games`, `20,000 turns`, `exact`)."""
    panels: tuple[Panel, ...]
