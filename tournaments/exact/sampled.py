"""Where a strategy that reads the game's context without a key (or plays at random) loses, on
sampled states: the decisions it met in seeded simulated games, each choice's cost computed exactly
(`sampled_costs`), the rows aggregated by state with how often each was met. Alone, in expected
score: solo games of one turn (`analysis.solo_turns`, the dice and seeds of `analyze`'s
simulation), each choice against `optimal`'s values. Against rivals, in the chance of winning one
round: `sampled_games`, each choice against the best play for the situation it saw. A user's
strategy plays in its host, a thousand games a round trip.

The loss is estimated game by game: a game's loss is the sum of the costs of the choices it made.
Its expectation is the exact gap between the strategy and the best play, whatever the strategy
reads or draws (the performance-difference identity holds for any way of choosing, the state being
the box and the roll and the situation), so the mean over the games estimates the gap, with its 95%
interval; the best play's own luck with the dice is not in it, so the interval is narrower than a
simulation of the results alone would give.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from shutbox_cli.game import DICE_SCHEME, Rules, draw_seed, solve_expected_score
from shutbox_cli.game.terms import Seed
from strategies.loading import StrategyLoadError
from strategies.player import StrategyError

from ..errors import ConfigError, TournamentFailure, marked
from ..statistics.stats import Interval
from .analysis import solo_turns
from .explained import TOP, report_head, report_row, top_share
from .sampled_costs import ChoiceCosts, SampledDecision, mean_interval
from .sampled_games import SITUATION, play_games

if TYPE_CHECKING:  # a user's strategy is seated in a host: only a run of one loads that code
    from ..referee.seated import SeatedStrategy

DEFAULT_GAMES = 20_000
"""Games a sampled explanation plays (from each seat asked) when none are given."""


@dataclasses.dataclass(frozen=True)
class SampledExplanation:
    """Where a strategy loses, on the states met in `games` seeded simulated games (from each seat
    of `seats`; `seed`, drawn for this run when `seed_drawn`), as `Explanation` says it exactly, in
    `measure`: its expected score alone, or its chance of winning one round against `opponents`
    (specs `field`), seats averaged. `best` is the best play's figure, exactly; `value` the
    strategy's, estimated as the best less the loss (`gap`, with its 95% interval `gap_interval`);
    `rows` every state met where its choice was not the best, the largest loss first (in a game,
    a row's key is its seat and the situation it saw, `features`); `decisions` the choices it made
    in all."""

    strategy: str
    spec: str
    rules: Rules
    value: float
    best: float
    rows: tuple[SampledDecision, ...]
    games: int
    seed: Seed
    gap_interval: Interval
    decisions: int
    seed_drawn: bool = False
    measure: Literal["expected-score", "win-rate"] = "expected-score"
    features: tuple[str, ...] = ()
    opponents: tuple[str, ...] = ()
    field: tuple[str, ...] = ()
    seats: tuple[int, ...] = ()
    method: Literal["sampled"] = "sampled"

    def __repr__(self) -> str:
        from ..briefly import brief, counted

        against = f"against {', '.join(self.opponents)}" if self.opponents else "alone"
        how = f"sampled ({counted(self.games, 'game')}, seed {self.seed})"
        low, high = self.gap_interval
        figures = (
            f"expected score {self.value:.4f}, best {self.best:.4f}"
            if self.measure == "expected-score"
            else f"wins {self.value:.2%}, best {self.best:.2%}"
        )
        gap = f"gap {self.gap:.6g} (95% CI {low:.6g} to {high:.6g})"
        rows = counted(len(self.rows), "row")
        return brief("SampledExplanation", f"of {self.strategy} {against}", how, figures, gap, rows)

    @property
    def gap(self) -> float:
        """How much worse the strategy does than the best play, estimated (0 or more, in the measure's units)."""
        return self.value - self.best if self.measure == "expected-score" else self.best - self.value

    @property
    def total(self) -> float:
        """The rows' losses added up: the gap, estimated so."""
        return math.fsum(row.loss for row in self.rows)

    @property
    def value_interval(self) -> Interval:
        """The 95% interval of `value`."""
        low, high = self.gap_interval
        if self.measure == "expected-score":
            return (self.best + low, self.best + high)
        return (self.best - high, self.best - low)

    def top_share(self, count: int = TOP) -> float:
        """The share of the rows' total loss in the first `count` rows (0 when there is none)."""
        return top_share(self.rows, count)

    def to_report(self) -> dict[str, Any]:
        """The explanation as a report table (docs/report.md; `kind = "explanation"`, `method = "sampled"`)."""
        report = report_head(self, {"method": self.method, "seed": self.seed, "dice": DICE_SCHEME})
        report |= {"games": self.games, "decisions": self.decisions}
        report |= {"value": self.value, "value_ci95": list(self.value_interval), "best": self.best}
        report |= {"gap": self.gap, "gap_ci95": list(self.gap_interval), "top_share": self.top_share()}
        return report | {"rows": [report_row(self, row) | {"met": row.met} for row in self.rows]}


def explain_sampled(
    seated: SeatedStrategy,
    games: int | None = None,
    seed: Seed | None = None,
    progress: Callable[[int, int], None] | None = None,
    rivals: Sequence[SeatedStrategy] = (),
    seats: Sequence[int] = (),
) -> SampledExplanation:
    """Where `seated` loses, on the decisions it meets in `games` (default `DEFAULT_GAMES`) simulated
    games from `seed` (drawn when None): alone, solo games of one turn as `analyze` simulates its
    turns, in expected score; against exact or keyed `rivals` (a one-round game; the caller checks
    the rules), games from each of `seats` (1 plays first; default every seat), in the chance of
    winning. `progress` is told the games played and their total. Any strategy may be explained
    so, an exact one too (its exact explanation is the better one). Raises TournamentFailure when
    a strategy fails, ConfigError for fewer than 2 games or a rival that cannot be followed exactly."""
    count = DEFAULT_GAMES if games is None else games
    if count < 2:
        raise ConfigError(f"a sampled explanation needs at least 2 games, not {count}.")
    used = draw_seed() if seed is None else seed
    costs = ChoiceCosts()
    asked = (tuple(seats) or tuple(range(1, len(rivals) + 2))) if rivals else ()
    try:
        if rivals:
            best, losses = play_games(seated, rivals, asked, count, used, costs, progress)
        else:
            solution = solve_expected_score(seated.rules)
            costs.situation((), solution)
            best = solution.value
            losses = [costs.turn_loss() for _ in solo_turns(seated, count, used, progress, costs.watch)]
    except (StrategyError, StrategyLoadError) as error:
        raise TournamentFailure(marked(error)) from None
    gap = math.fsum(losses) / count
    found = SampledExplanation(
        seated.name,
        seated.spec,
        seated.rules if rivals else seated.rules.turn_rules,
        best - gap if rivals else best + gap,
        best,
        costs.rows(count * (len(asked) if rivals else 1)),  # a seat's games count for its share
        count,
        used,
        mean_interval(losses),
        costs.decisions,
        seed_drawn=seed is None,
    )
    if not rivals:
        return found
    names = (tuple(one.name for one in rivals), tuple(one.spec for one in rivals))
    return dataclasses.replace(
        found, measure="win-rate", features=SITUATION, opponents=names[0], field=names[1], seats=asked
    )
