"""The exact answer beside a simulated tournament's: where every strategy of the field can be
computed exactly (built-in ones, exact or keyed where their key is known at each turn) at a table
of two or more, the exact tournament's cost is estimated as `--exact` estimates it (`cost.Work`,
never the clock, so the report is the same on any machine) and, where that is quick, computed, its
win rates kept beside the simulated ones; where it is not, only the estimate is kept, for a hint."""

from __future__ import annotations

import contextlib
import dataclasses
import itertools

from ..errors import ConfigError
from ..field.config import TournamentConfig
from .cost import Work
from .tournament import run_exact
from .turns import entry_key, field_turns, refuse_inexact, uses_fractions

QUICK_SECONDS = 1.0
"""The longest an exact tournament may be estimated to take for a simulated one to compute it too."""


@dataclasses.dataclass(frozen=True)
class Beside:
    """An exact tournament that could answer a simulated one: its estimated `seconds`, and the
    strategies' exact win rates by name where it was quick enough to compute (None otherwise)."""

    seconds: float
    win_rates: dict[str, float] | None


def exact_beside(config: TournamentConfig) -> Beside | None:
    """The exact tournament of a simulated one's field, estimated and, where quick, computed; None
    where it cannot be computed exactly (a table of one, a gauntlet, a user's strategy, one that
    is not exact, or past `--exact`'s limits)."""
    rules, table = config.rules, config.table
    if table < 2 or config.gauntlet:
        return None
    for entry in config.strategies:
        if not entry.builtin:
            return None
        try:
            refuse_inexact(entry.name, entry.exact, entry.context_free, entry_key(entry, rules, table), rules, table)
        except ConfigError:
            return None
    exact = dataclasses.replace(config, method="exact")
    matchups = list(itertools.combinations(range(len(config.strategies)), table))
    with contextlib.ExitStack() as stack:
        turns = field_turns(exact, uses_fractions(rules), stack)
        work = Work.of(rules, turns, matchups, table)  # built-in strategies only: none hosted
        if not work.fits(rules):
            return None
        seconds, _ = work.seconds(rules)
    if seconds > QUICK_SECONDS:
        return Beside(seconds, None)
    found = run_exact(exact)
    return Beside(seconds, {standing.name: standing.win_rate for standing in found.ranking})
