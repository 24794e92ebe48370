"""One call runs a tournament: draw the seed if there is none, plan, play the plan through a
backend, add up the tallies and sum them up; or, for `method = "exact"`, compute it exactly."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from shutbox_cli.game import draw_seed

from .aggregate import Summary, summarise
from .backends import Backend, default_backend
from .config import TournamentConfig
from .errors import Interrupted
from .exact import ExactSummary, run_exact
from .plan import make_plan
from .tally import Tally
from .units import UnitResult

Progress = Callable[[int, int], None]
"""Told the games finished so far and the run's total: once before the first unit, then after each."""


def run(
    config: TournamentConfig,
    *,
    backend: Backend | None = None,
    progress: Progress | None = None,
    bulk: bool = True,
) -> Summary | ExactSummary:
    """Play a whole tournament and return its summary.

    An exact tournament (`config.method == "exact"`) is computed in this process whatever the
    backend, its progress counted in seatings, and gives an `ExactSummary` (see `run_exact`).

    Without a seed in `config`, one is drawn: the summary's config holds it and `seed_drawn`
    is set. Without a backend, `default_backend` picks one from `config.workers`. `bulk=False`
    plays every seat turn by turn in the general engine: the reference the bulk engine is held
    to, with the same results. Raises TournamentFailure when the run cannot finish (a strategy
    failed, a worker died, a unit timed out) and Interrupted on Ctrl-C.
    """
    if config.method == "exact":
        return run_exact(config, progress)
    seed = draw_seed() if config.seed is None else config.seed
    plan = make_plan(dataclasses.replace(config, seed=seed), bulk)
    tallies = [[Tally() for _ in matchup.players] for matchup in plan.matchups]
    done = 0

    def finished(result: UnitResult) -> None:
        nonlocal done
        for matchup, counted in result.tallies.items():
            for tally, more in zip(tallies[matchup], counted, strict=True):
                tally.add(more)
        done += result.games
        if progress is not None:
            progress(done, plan.total_games)

    try:
        if progress is not None:
            progress(0, plan.total_games)
        (backend or default_backend(config.workers, plan)).run(plan, finished)
    except KeyboardInterrupt:
        raise Interrupted(done, plan.total_games, seed) from None
    return summarise(plan, tallies, seed_drawn=config.seed is None)
