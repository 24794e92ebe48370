"""One call runs a tournament: draw the seed if there is none, plan, play the plan through a
backend, add up the tallies and sum them up; or, for `method = "exact"`, compute it exactly.
A run given a checkpoint path keeps one there (see `checkpoint`), and `resume` finishes it."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from pathlib import Path

from shutbox_cli.game import draw_seed

from .aggregate import Summary, summarise
from .backends import Backend, default_backend
from .checkpoint import CHECKPOINT_SECONDS, Keeper, Record, read_checkpoint
from .config import Options, TournamentConfig
from .errors import Interrupted, TournamentFailure
from .exact import ExactSummary, run_exact
from .plan import Plan, make_plan
from .units import UnitResult

Progress = Callable[[int, int], None]
"""Told the games finished so far and the run's total: once before the first unit, then after each."""


def run(
    config: TournamentConfig,
    *,
    backend: Backend | None = None,
    progress: Progress | None = None,
    bulk: bool = True,
    checkpoint: str | os.PathLike[str] | None = None,
    checkpoint_seconds: float = CHECKPOINT_SECONDS,
) -> Summary | ExactSummary:
    """Play a whole tournament and return its summary.

    An exact tournament (`config.method == "exact"`) is computed in this process whatever the
    backend, its progress counted in seatings, and gives an `ExactSummary` (see `run_exact`);
    it keeps no checkpoint.

    Without a seed in `config`, one is drawn: the summary's config holds it and `seed_drawn`
    is set. Without a backend, `default_backend` picks one from `config.workers`. `bulk=False`
    plays every seat turn by turn in the general engine: the reference the bulk engine is held
    to, with the same results. With a `checkpoint` path, a run that lasts more than
    `checkpoint_seconds` keeps its finished work there, written at most that often, until it
    finishes (`resume` goes on from it). Raises
    TournamentFailure when the run cannot finish (a strategy failed, a worker died, a unit timed
    out) and Interrupted on Ctrl-C; either names the checkpoint left, if any.
    """
    if config.method == "exact":
        return run_exact(config, progress)
    seed = draw_seed() if config.seed is None else config.seed
    plan = make_plan(dataclasses.replace(config, seed=seed), bulk)
    record = Record.empty(plan)
    seed_drawn = config.seed is None
    keeper = None
    if checkpoint is not None:
        keeper = Keeper(Path(checkpoint), plan, record, seed_drawn=seed_drawn, seconds=checkpoint_seconds)
    return _play(plan, record, keeper, backend, progress, seed_drawn)


def resume(
    checkpoint: str | os.PathLike[str],
    options: Options = Options(),
    *,
    backend: Backend | None = None,
    progress: Progress | None = None,
    checkpoint_seconds: float = CHECKPOINT_SECONDS,
) -> Summary:
    """Finish the run a checkpoint keeps: play only its unfinished units, and return the summary an
    uninterrupted run gives. `options` may change how it runs (workers, scheduler, timeout, memory
    limit, isolation), never what it finds. The checkpoint is kept up to date as `run` keeps it, and
    removed when the run finishes. A checkpoint that cannot be resumed is a ConfigError of one
    sentence (see `read_checkpoint`)."""
    saved = read_checkpoint(Path(checkpoint), options)
    keeper = Keeper(
        saved.path, saved.plan, saved.record, seed_drawn=saved.seed_drawn, written=True, seconds=checkpoint_seconds
    )
    return _play(saved.plan, saved.record, keeper, backend, progress, saved.seed_drawn)


def _play(
    plan: Plan,
    record: Record,
    keeper: Keeper | None,
    backend: Backend | None,
    progress: Progress | None,
    seed_drawn: bool,
) -> Summary:
    """Play the plan's units still to play into the record, keeping the checkpoint if there is a keeper."""

    def finished(result: UnitResult) -> None:
        record.add(result)
        if keeper is not None:
            keeper.tick()
        if progress is not None:
            progress(record.games, plan.total_games)

    try:
        if progress is not None:
            progress(record.games, plan.total_games)
        if plan.unit_count:
            (backend or default_backend(plan.config.workers, plan)).run(plan, finished)
    except KeyboardInterrupt:
        kept = None if keeper is None else keeper.keep()
        raise Interrupted(record.games, plan.total_games, plan.config.seed or 0, kept) from None
    except (TournamentFailure, Interrupted) as error:
        error.checkpoint = None if keeper is None else keeper.keep()
        raise
    except BaseException:  # a crash: keep what is finished
        if keeper is not None:
            keeper.keep()
        raise
    if keeper is not None:
        keeper.discard()
    return summarise(plan, record.tallies, seed_drawn=seed_drawn)
