"""How a strategy scores on its own, turn after turn: exactly when it is tabulable, otherwise
by a seeded simulation with 95% confidence intervals. `analyze` decides which."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from shutbox_cli.game import DICE_SCHEME, Rules, distribution, draw_seed, play_turn, turn_rolls
from shutbox_cli.game.terms import Seed
from shutbox_cli.game.turn import Chooser, TurnRecord
from strategies.base import SOLO_CONTEXT
from strategies.loading import StrategyLoadError
from strategies.player import StrategyError

from ..errors import ConfigError, TournamentFailure, marked
from ..records.schema import Method, header, rules_table
from ..statistics.stats import Interval, mean_interval, wilson

if TYPE_CHECKING:  # a user's strategy is seated in a host: only a run of one loads that code
    from ..referee.seated import SeatedStrategy

DEFAULT_TURNS = 100_000
"""Turns a simulation plays when none are given."""
PROGRESS_STEPS = 200
"""How many times, at most, a simulation reports its progress."""
BATCH = 1000
"""Turns a user's strategy plays in its host in one round trip."""


@dataclasses.dataclass(frozen=True)
class Analysis:
    """A strategy's score distribution over single turns from a full box.

    `method` is "exact" or "simulate"; a simulation also has `turns`, `seed` (and
    `seed_drawn` when it was drawn for this run), the score counts and the 95% intervals.
    """

    strategy: str
    spec: str
    rules: Rules
    method: Method
    distribution: dict[int, float]
    expected_score: float
    shut_probability: float
    turns: int | None = None
    seed: Seed | None = None
    counts: dict[int, int] | None = None
    expected_score_interval: Interval | None = None
    shut_probability_interval: Interval | None = None
    seed_drawn: bool = False
    fingerprint: str | None = None
    """An exact strategy's policy fingerprint under the rules (`strategies.fingerprint`; None for
    any other: a keyed one's tables for every key are not made here, `check` shows its)."""

    def __repr__(self) -> str:
        from ..briefly import brief, counted

        how = "exact" if self.turns is None else f"{counted(self.turns, 'turn')} simulated, seed {self.seed}"
        figures = f"expected score {self.expected_score:.4f}, shuts {self.shut_probability:.2%}"
        return brief("Analysis", f"of {self.strategy}", how, figures)

    def interval(self, score: int) -> Interval | None:
        """The 95% interval of one score's probability (None when exact)."""
        if self.counts is None or self.turns is None:
            return None
        return wilson(self.counts.get(score, 0), self.turns)

    def to_report(self) -> dict[str, Any]:
        """The analysis as a report table (docs/report.md; scores as string keys, figures in full)."""
        from ..referee.confinement import report_field

        report: dict[str, Any] = {**header("analysis"), "method": self.method, **report_field([self.spec])}
        if self.method == "simulate":
            report |= {"seed": self.seed, "dice": DICE_SCHEME}
        else:
            report["arithmetic"] = "float"
        report |= {"strategy": self.strategy, "spec": self.spec}
        if self.fingerprint is not None:
            report["fingerprint"] = self.fingerprint
        if self.method == "simulate":
            report["turns"] = self.turns
        report["mean_score"] = self.expected_score
        if self.method == "simulate":
            report["mean_score_ci95"] = list(self.expected_score_interval or ())
        report["shut_rate"] = self.shut_probability
        if self.method == "simulate":
            report["shut_rate_ci95"] = list(self.shut_probability_interval or ())
        report["rules"] = rules_table(self.rules)
        report["distribution"] = {str(score): chance for score, chance in self.distribution.items()}
        return report


def analyze(
    seated: SeatedStrategy,
    turns: int | None = None,
    seed: Seed | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """A strategy's single turns under the rules it is seated for: exact when it is tabulable
    (`turns` and `seed` are then unused), else a simulation of `turns` (default DEFAULT_TURNS)
    turns from `seed` (drawn when None), which tells `progress` the turns played and the total as
    it goes. Raises TournamentFailure when the strategy fails, ConfigError for fewer than 2 turns."""
    try:
        if seated.exact:
            return dataclasses.replace(analyse_exactly(seated), fingerprint=seated.fingerprint)
        found = simulate(
            seated, DEFAULT_TURNS if turns is None else turns, draw_seed() if seed is None else seed, progress
        )
        return dataclasses.replace(found, seed_drawn=seed is None)
    except (StrategyError, StrategyLoadError) as error:
        raise TournamentFailure(marked(error)) from None


def analyse_exactly(seated: SeatedStrategy) -> Analysis:
    """The exact distribution of a tabulable strategy, from its table: its answer for every state."""
    table, rules = seated.table, seated.rules
    found = distribution(rules, table.move, table.dice_count)
    return Analysis(
        seated.name, seated.spec, rules, "exact", found.probabilities, found.expected_score, found.shut_probability
    )


def simulate(
    seated: SeatedStrategy, turns: int, seed: Seed, progress: Callable[[int, int], None] | None = None
) -> Analysis:
    """Play `turns` solo turns with dice streams from `seed` (turn k is game k, round 0, seat 0),
    telling `progress` the turns played and `turns` every so often, and at the end."""
    if turns < 2:
        raise ConfigError(f"a simulation needs at least 2 turns, not {turns}.")
    counts: Counter[int] = Counter()
    shut = 0
    for record in solo_turns(seated, turns, seed, progress):
        counts[record.score] += 1
        shut += record.shut_box
    total = sum(score * count for score, count in counts.items())
    squares = sum(score * score * count for score, count in counts.items())
    ordered = dict(sorted(counts.items()))
    return Analysis(
        seated.name,
        seated.spec,
        seated.rules,
        "simulate",
        {score: count / turns for score, count in ordered.items()},
        total / turns,
        shut / turns,
        turns,
        seed,
        ordered,
        mean_interval(total, squares, turns, floor=0),
        wilson(shut, turns),
    )


def solo_turns(
    seated: SeatedStrategy,
    turns: int,
    seed: Seed,
    progress: Callable[[int, int], None] | None = None,
    watch: Callable[[Chooser], Chooser] | None = None,
) -> Iterator[TurnRecord]:
    """The solo turns `simulate` plays, one by one (a user's strategy plays `BATCH` of them in its
    host in one round trip); `watch` wraps the strategy's player, to see its every answer."""
    rules = seated.rules
    player = seated.player()
    chooser: Chooser = player if watch is None else watch(player)
    step = max(1, turns // PROGRESS_STEPS)
    for game in range(turns):
        if game % BATCH == 0:
            seated.prefetch(player, [(SOLO_CONTEXT, seed, ahead) for ahead in range(game, min(turns, game + BATCH))])
        player.start_turn(SOLO_CONTEXT, seed, game)
        yield play_turn(rules, turn_rolls(seed, game, 0, 0), chooser)
        if progress is not None and ((game + 1) % step == 0 or game + 1 == turns):
            progress(game + 1, turns)
