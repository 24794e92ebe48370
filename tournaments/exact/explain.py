"""Where a strategy loses, exactly (`shutbox explain`): every decision state (box, throw or the
choice of dice, and the key where there is one) where its choice is not the best, with the exact
cost of its choice and the chance that its own play reaches the state; the reach-weighted costs add
up to its exact gap to the best play (`shutbox_cli.game.exact_regret`).

The measure is the expected score alone (against the `optimal` values), or the chance of winning
one game against rivals (`against`: one strategy, a table of two; or a field of up to three, a table
of up to four), the strategy in each seat in turn (or in the one asked for) and its rivals in their
order around it. The best play sees what the strategy sees: a seat is a key of its own, and a keyed strategy
(`target`, a user's with a `key`) has one turn's decision process per key it meets, weighted by the
chance of meeting it. What each final box is worth in a game comes from the one exact walk
(`utilities`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from shutbox_cli.game import Rules, Ties, score
from shutbox_cli.game.exact_regret import Decision, best_values, decisions, policy_values
from shutbox_cli.game.exact_seats import TurnStart

from ..errors import ConfigError, TournamentFailure, marked, setting
from .cost import MOST_SECONDS, refuse_costly
from .explained import TOP, report_head, report_row, top_share
from .turns import exact_key, keyed_policy, refuse_inexact, refuse_stakes, seat_turns
from .utilities import utilities, walks

if TYPE_CHECKING:  # a user's strategy is seated in a host: only a run of one loads that code
    from shutbox_cli.game.terms import Seed
    from strategies.table import PolicyTable

    from ..referee.seated import SeatedStrategy
    from .sampled import SampledExplanation

Measure = Literal["expected-score", "win-rate"]
MOST_RIVALS = 3
"""A field of at most three rivals: tables of two to four."""
SOLO = TurnStart(0, 0, False, 0, None, 0, 0, None)
"""What a strategy sees of a turn alone."""


@dataclasses.dataclass(frozen=True)
class Explanation:
    """Where `strategy` loses under `rules`, in `measure`: its `value` (its expected score, or its
    chance of winning, both seats averaged) and the `best` play's, and every decision state where
    its choice is not the best (`rows`, the largest loss first; a row's key holds the seat first in
    a game, then the key's values, named by `features`). Its gap (`gap`) is how much worse it does
    than the best; the rows' losses add up to it."""

    strategy: str
    spec: str
    rules: Rules
    measure: Measure
    value: float
    best: float
    rows: tuple[Decision, ...]
    features: tuple[str, ...] = ()
    opponents: tuple[str, ...] = ()
    field: tuple[str, ...] = ()
    seats: tuple[int, ...] = ()

    def __repr__(self) -> str:
        from ..briefly import brief, counted

        against = f"against {', '.join(self.opponents)}" if self.opponents else "alone"
        figure = (
            f"expected score {self.value:.4f}, best {self.best:.4f}"
            if self.measure == "expected-score"
            else f"wins {self.value:.2%}, best {self.best:.2%}"
        )
        return brief(
            "Explanation",
            f"of {self.strategy} {against}",
            figure,
            f"gap {self.gap:.6g}",
            counted(len(self.rows), "row"),
        )

    @property
    def gap(self) -> float:
        """How much worse the strategy does than the best play (0 or more, in the measure's units)."""
        worse = self.value - self.best if self.measure == "expected-score" else self.best - self.value
        return max(0.0, worse)  # the best is never beaten: below 0 is rounding

    @property
    def total(self) -> float:
        """The rows' losses added up: the gap, by the performance-difference identity."""
        return math.fsum(row.loss for row in self.rows)

    def top_share(self, count: int = TOP) -> float:
        """The share of the rows' total loss in the first `count` rows (0 when there is none)."""
        return top_share(self.rows, count)

    def to_report(self) -> dict[str, Any]:
        """The explanation as a report table (docs/report.md)."""
        report = report_head(self, {"method": "exact", "arithmetic": "float"})
        report |= {"value": self.value, "best": self.best, "gap": self.gap, "top_share": self.top_share()}
        return report | {"rows": [report_row(self, row) for row in self.rows]}


def explain(
    seated: SeatedStrategy,
    against: SeatedStrategy | Sequence[SeatedStrategy] | None = None,
    seat: int | None = None,
    most_seconds: float = MOST_SECONDS,
    *,
    sample: bool = False,
    games: int | None = None,
    seed: Seed | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Explanation | SampledExplanation:
    """Where a strategy loses under the rules it is seated for: alone, in expected score; against
    one strategy or a field of up to three (seated for the same rules), in its chance of winning one
    game, from each seat (1 plays first) or from `seat` alone. Raises ConfigError for a strategy or a
    game this cannot follow exactly (or estimated to take longer than `most_seconds`),
    TournamentFailure for a strategy that fails.

    A strategy that is neither exact nor keyed (it reads the context without a key, or plays at
    random), or any strategy with `sample`, is explained on the states it meets in `games` seeded
    simulated games (from each seat asked; `seed`; `progress` is told the games played):
    `sampled.explain_sampled`."""
    rivals = [] if against is None else [against] if not isinstance(against, Sequence) else list(against)
    refuse_stakes(seated.rules, "explain")
    _refuse(seated, rivals, seat)
    features = None if sample else () if seated.exact else exact_key(seated, 1 + len(rivals))
    if features is None:
        from .sampled import explain_sampled

        return explain_sampled(seated, games, seed, progress, rivals, () if seat is None else (seat,))
    if not rivals:
        return _alone(seated, features)
    return _in_games(seated, features, rivals, seat, most_seconds)


def _refuse(seated: SeatedStrategy, rivals: Sequence[SeatedStrategy], seat: int | None) -> None:
    """A ConfigError for what `explain` does not compute."""
    if len(rivals) > MOST_RIVALS:
        raise ConfigError(
            f"explain plays tables of up to {MOST_RIVALS + 1}: give at most {MOST_RIVALS} rivals, not {len(rivals)}."
        )
    if seat is not None and (not rivals or not 1 <= seat <= len(rivals) + 1):
        seats = "alone there is none" if not rivals else f"its seats are 1 to {len(rivals) + 1}"
        raise ConfigError(f"seat {seat!r} is not at this table: {seats}.")
    if any(rival.rules != seated.rules for rival in rivals):
        raise ValueError("the strategy and its rivals must be seated for the same rules.")
    rules = seated.rules
    if rivals and (rules.multi_round or rules.ties is Ties.PLAYOFF):
        raise ConfigError(
            "explain computes games of one round whose ties are shared or settled by seat; "
            "over several rounds, in drop-out or with playoffs a turn's worth depends on more than its box."
        )


def _policy(seated: SeatedStrategy, features: tuple[str, ...], values: tuple[Any, ...]) -> tuple[Any, Any]:
    """The strategy's move and dice policy for a key (its one table for an exact strategy)."""
    from strategies.loading import StrategyLoadError
    from strategies.player import StrategyError
    from strategies.table import PolicyTable

    try:
        played: PolicyTable | Any = seated.table if not features else keyed_policy(seated, features, values)
    except (StrategyError, StrategyLoadError) as error:
        raise TournamentFailure(marked(error)) from None
    if isinstance(played, PolicyTable):
        return played.move, played.dice_count
    return played.best_move, played.best_dice


def _one(rules: Rules, policy: tuple[Any, Any], terminal: tuple[float, ...]) -> tuple[float, float, list[Decision]]:
    """One turn's decision process: the policy's value, the best value, and the rows."""
    best = best_values(rules, terminal)
    move, dice = policy
    value = policy_values(rules, move, dice, terminal)[rules.full_box]
    return value, best[rules.full_box], decisions(rules, move, dice, best, terminal)


def _alone(seated: SeatedStrategy, features: tuple[str, ...]) -> Explanation:
    rules = seated.rules.turn_rules
    values = tuple(getattr(SOLO, feature) for feature in features)
    terminal = tuple(-float(score(rules, mask)) for mask in range(rules.full_box + 1))
    value, best, found = _one(rules, _policy(seated, features, values), terminal)
    rows = [row.weighted(1.0, values) for row in found] if features else found
    return Explanation(seated.name, seated.spec, rules, "expected-score", -value, -best, _ranked(rows), features)


def _in_games(
    seated: SeatedStrategy,
    features: tuple[str, ...],
    rivals: Sequence[SeatedStrategy],
    seat: int | None,
    most_seconds: float,
) -> Explanation:
    rules = seated.rules
    table = 1 + len(rivals)
    for one in rivals:
        refuse_inexact(one.name, one.exact, one.context_free, exact_key(one, table), rules, table)
    turns = [seat_turns(one, False, table) for one in (seated, *rivals)]
    seats = tuple(range(1, table + 1)) if seat is None else (seat,)
    copies = walks(rules) * (walks(rules) if features else 1)
    games = [[*range(1, number), 0, *range(number, table)] for number in seats]
    what = "explaining this strategy exactly"
    instead = f"ask about one seat ({setting('seat')}) or fewer rivals"
    hosted = [not one.builtin for one in (seated, *rivals)]
    refuse_costly(rules, turns, games, copies, what, instead, False, hosted, most_seconds)
    value = best = 0.0
    rows: list[Decision] = []
    share = 1 / len(seats)
    for number in seats:
        for key in utilities(rules, features, turns[1:], number - 1):
            mine, top, found = _one(rules.turn_rules, _policy(seated, features, key.values), key.utility)
            value += share * key.chance * mine
            best += share * key.chance * top
            rows += [row.weighted(share * key.chance, (number, *key.values)) for row in found]
    return Explanation(
        seated.name,
        seated.spec,
        rules,
        "win-rate",
        value,
        best,
        _ranked(rows),
        features,
        tuple(one.name for one in rivals),
        tuple(one.spec for one in rivals),
        seats,
    )


def _ranked(rows: Sequence[Decision]) -> tuple[Decision, ...]:
    """The rows, the largest loss first (in the order found among equal losses)."""
    return tuple(sorted(rows, key=lambda row: -row.loss))
