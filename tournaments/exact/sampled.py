"""Where a strategy that reads the game's context without a key (or plays at random) loses, on
sampled states: the decisions it met in seeded simulated turns (`analysis.solo_turns`, the dice and
seeds of `analyze`'s simulation, a game of one turn each, a user's strategy in its host), each choice's cost computed
exactly from `optimal`'s values, the rows aggregated by state with how often each was met.

The loss is estimated turn by turn: a turn's loss is the sum of the costs of the choices it made.
Its expectation is the exact gap between the strategy's expected score and the optimum's, whatever
the strategy reads or draws (the performance-difference identity holds for any way of choosing, the
state being the box and the roll), so the mean over the turns estimates the gap, with its 95%
interval; the optimum's random luck is not in it, so the interval is narrower than a simulation of
the scores alone would give.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from shutbox_cli.game import DICE_SCHEME, Rules, Solution, draw_seed, solve_expected_score, tiles_of
from shutbox_cli.game.exact_regret import TIED, Decision
from shutbox_cli.game.terms import Mask, Seed
from shutbox_cli.game.turn import Chooser, Roll
from strategies.loading import StrategyLoadError
from strategies.player import StrategyError

from ..errors import ConfigError, TournamentFailure, marked
from ..records.schema import header, rules_table
from ..statistics.stats import Z95, Interval
from .analysis import solo_turns

if TYPE_CHECKING:  # a user's strategy is seated in a host: only a run of one loads that code
    from ..referee.seated import SeatedStrategy

DEFAULT_GAMES = 20_000
"""Games (of one turn) a sampled explanation plays when none are given."""
TOP = 10
"""The rows whose share of the gap a result states, as `explain.TOP` (which imports this module)."""

State = tuple[Mask, tuple[int, ...] | None, int]
"""A sampled decision: the box, the throw (None: the choice of how many dice) and the choice made."""


@dataclasses.dataclass(frozen=True)
class SampledDecision(Decision):
    """A decision state met in the sample where the choice made was not the best (`Decision`): its
    `reach` is how often a game (a turn) met it, `met` times in the sample's games."""

    met: int = 0


@dataclasses.dataclass(frozen=True)
class SampledExplanation:
    """Where a strategy loses expected score against `optimal`, on the states met in `games` seeded
    simulated solo games of one turn (`seed`, drawn for this run when `seed_drawn`), as `Explanation` says it
    exactly: `best`, the optimum's exact expected score; `value`, the strategy's, estimated as best
    + the loss per turn (`gap`, with its 95% interval `gap_interval`); `rows`, every state met where
    its choice was not the best, the largest loss first; `decisions`, the choices it made in all."""

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
    measure: Literal["expected-score"] = "expected-score"
    method: Literal["sampled"] = "sampled"
    features: tuple[str, ...] = ()
    """None: a sampled strategy has no key (an `Explanation`'s fields, alike)."""
    opponents: tuple[str, ...] = ()
    """None: a sampled explanation is of the strategy alone."""
    seats: tuple[int, ...] = ()

    def __repr__(self) -> str:
        from ..briefly import brief, counted

        how = f"sampled ({counted(self.games, 'game')}, seed {self.seed})"
        low, high = self.gap_interval
        figures = f"expected score {self.value:.4f}, best {self.best:.4f}"
        gap = f"gap {self.gap:.6g} (95% CI {low:.6g} to {high:.6g})"
        return brief(
            "SampledExplanation", f"of {self.strategy} alone", how, figures, gap, counted(len(self.rows), "row")
        )

    @property
    def gap(self) -> float:
        """How much worse the strategy does than the best play, estimated (0 or more, in points)."""
        return self.value - self.best

    @property
    def total(self) -> float:
        """The rows' losses added up: the gap, estimated so."""
        return math.fsum(row.loss for row in self.rows)

    @property
    def value_interval(self) -> Interval:
        """The 95% interval of `value`."""
        low, high = self.gap_interval
        return (self.best + low, self.best + high)

    def top_share(self, count: int = TOP) -> float:
        """The share of the rows' total loss in the first `count` rows (0 when there is none)."""
        total = self.total
        return math.fsum(row.loss for row in self.rows[:count]) / total if total > 0 else 0.0

    def to_report(self) -> dict[str, Any]:
        """The explanation as a report table (docs/report.md; `kind = "explanation"`, `method = "sampled"`)."""
        from ..referee.confinement import report_field

        return {
            **header("explanation"),
            "method": self.method,
            **report_field([self.spec]),
            "seed": self.seed,
            "dice": DICE_SCHEME,
            "strategy": self.strategy,
            "spec": self.spec,
            "measure": self.measure,
            "rules": rules_table(self.rules),
            "games": self.games,
            "decisions": self.decisions,
            "value": self.value,
            "value_ci95": list(self.value_interval),
            "best": self.best,
            "gap": self.gap,
            "gap_ci95": list(self.gap_interval),
            "top_share": self.top_share(),
            "rows": [_row(row) for row in self.rows],
        }


def _row(row: SampledDecision) -> dict[str, Any]:
    """A row of the report, as `Explanation`'s are, with how many times it was met."""
    found: dict[str, Any] = {"box": list(tiles_of(row.mask))}
    if row.throw is None:
        found |= {"played_dice": row.played, "best_dice": row.best}
    else:
        found |= {"throw": list(row.throw), "played": list(tiles_of(row.played)), "best": list(tiles_of(row.best))}
    return found | {"cost": row.cost, "reach": row.reach, "loss": row.loss, "met": row.met}


def explain_sampled(
    seated: SeatedStrategy,
    games: int | None = None,
    seed: Seed | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SampledExplanation:
    """Where `seated` loses expected score against `optimal`, on the decisions it meets in `games`
    (default `DEFAULT_GAMES`) simulated solo games of one turn from `seed` (drawn when None), as
    `analyze` simulates its turns; `progress` is told the games played and their total. Any strategy
    may be explained so, an exact one too (its exact explanation is the better one). Raises
    TournamentFailure when the strategy fails, ConfigError for fewer than 2 games."""
    count = DEFAULT_GAMES if games is None else games
    if count < 2:
        raise ConfigError(f"a sampled explanation needs at least 2 games, not {count}.")
    used = draw_seed() if seed is None else seed
    solution = solve_expected_score(seated.rules)
    costs = _Costs(solution)
    losses: list[float] = []
    try:
        for _ in solo_turns(seated, count, used, progress, costs.watch):
            losses.append(costs.turn_loss())
    except (StrategyError, StrategyLoadError) as error:
        raise TournamentFailure(marked(error)) from None
    return SampledExplanation(
        seated.name,
        seated.spec,
        seated.rules.turn_rules,
        solution.value + math.fsum(losses) / count,
        solution.value,
        costs.rows(count),
        count,
        used,
        _mean_interval(losses),
        costs.decisions,
        seed_drawn=seed is None,
    )


class _Costs:
    """The choices a strategy makes in its turns, each costed exactly against a solution to the
    lowest expected score: counted by state, and the loss of the turn in hand."""

    def __init__(self, solution: Solution) -> None:
        self.solution = solution
        self.met: Counter[State] = Counter()
        self.cost: dict[State, tuple[int, float]] = {}  # the best choice there and the cost of the one made
        self.decisions = 0
        self._loss = 0.0
        self._tied = TIED * max(1.0, *map(abs, solution.terminal))  # a choice as good as the best is the best

    def watch(self, chooser: Chooser) -> Chooser:
        """The strategy's player, every answer seen here."""
        return _Watched(chooser, self)

    def turn_loss(self) -> float:
        """The loss of the turn just played (and start the next at none)."""
        loss, self._loss = self._loss, 0.0
        return loss

    def seen(self, mask: Mask, throw: tuple[int, ...] | None, played: int) -> None:
        """A choice made: counted, its cost added to the turn's loss."""
        state = (mask, throw, played)
        self.decisions += 1
        known = self.cost.get(state)
        if known is None:
            known = self.cost[state] = self._costed(mask, throw, played)
        if known[1] > self._tied:
            self.met[state] += 1
            self._loss += known[1]

    def _costed(self, mask: Mask, throw: tuple[int, ...] | None, played: int) -> tuple[int, float]:
        solution = self.solution
        if throw is None:
            values = solution.dice_values(mask)
            best = solution.best_dice(mask)
            return best, values[played] - values[best]
        best = solution.best_move(mask, throw)
        return best, solution.values[mask & ~played] - solution.values[mask & ~best]

    def rows(self, games: int) -> tuple[SampledDecision, ...]:
        """Every state met where the choice was not the best, the largest loss (met * cost) first."""
        found = []
        for (mask, throw, played), met in self.met.items():
            best, cost = self.cost[mask, throw, played]
            found.append(SampledDecision(mask, throw, played, best, cost, met / games, met=met))
        return tuple(sorted(found, key=lambda row: (-row.met * row.cost, -row.mask, row.throw or (), row.played)))


class _Watched:
    """A player whose every answer is told to `_Costs` before it is played (a throw as the strategy
    sees it, lowest die first)."""

    def __init__(self, chooser: Chooser, costs: _Costs) -> None:
        self.chooser, self.costs = chooser, costs

    def choose_dice(self, open_mask: Mask, history: Sequence[Roll]) -> int:
        count = self.chooser.choose_dice(open_mask, history)
        if count in (1, 2):  # anything else is refused as it is played
            self.costs.seen(open_mask, None, count)
        return count

    def choose_move(
        self, open_mask: Mask, dice: tuple[int, ...], moves: tuple[Mask, ...], history: Sequence[Roll]
    ) -> Mask:
        move = self.chooser.choose_move(open_mask, dice, moves, history)
        if move in moves:  # anything else is refused as it is played
            self.costs.seen(open_mask, tuple(sorted(dice)), move)
        return move


def _mean_interval(values: Sequence[float]) -> Interval:
    """The normal-approximation 95% interval of the mean of `values` (at least two), never below 0:
    no turn loses less than nothing."""
    count = len(values)
    mean = math.fsum(values) / count
    variance = math.fsum((value - mean) ** 2 for value in values) / (count - 1)
    half = Z95 * math.sqrt(variance / count)
    return (max(0.0, mean - half), mean + half)
