"""One call runs a tournament (the library's and `shutbox tournament`'s): load the config if given
a file or options, draw the seed if there is none, plan, play the plan through a backend, add up
the tallies and sum them up; or, for `method = "exact"`, compute it exactly.
A run given a checkpoint path keeps one there (see `checkpoint`), and `resume` finishes it.
A run given a report writes it before it removes its checkpoint, so a report that cannot be
written leaves the checkpoint to resume from."""

from __future__ import annotations

import dataclasses
import enum
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from shutbox_cli.game import draw_seed

from ..backends.base import Backend, InProcess, default_backend
from ..errors import ConfigError, FileWriteError, Interrupted, TournamentFailure, setting
from ..field.config import Options, TournamentConfig, load_config
from ..files import check_writable
from ..playing.fingerprints import field_fingerprints
from ..playing.plan import Plan, make_plan
from ..playing.units import UnitResult
from ..referee import idle
from ..results.aggregate import Summary, summarise
from .checkpoint import CHECKPOINT_SECONDS, Record
from .checkpoint_keeper import Keeper
from .checkpoint_reading import Saved, read_checkpoint, resumed_report
from .forfeits import disqualified, forfeit_of, replanned, unplayable, withheld_games, without

if TYPE_CHECKING:  # a match's modules (its SPRT, `sequential`) load where a match is played
    from ..exact.tournament import ExactSummary
    from ..statistics.elo import Sprt
    from .sequential import Sequential, Watch

Progress = Callable[[int, int], None]
"""Told the games finished so far and the run's total: once before the first unit, then after each."""


MATCH_UNIT_GAMES = 2048
"""About how many games a match's bulk unit holds."""
MATCH_LOOK_GAMES = 128
"""How many games a block of a match's unit holds: its SPRT is asked after each. Asked after each
unit of 2,048, the LLR of two close strategies (whose pairs mostly split) moved by up to 7 a look,
against bounds of +-2.94, and the match played on past its verdict."""


class Recorded(enum.Enum):
    """The report a checkpoint records, as `resume` writes it unless told another."""

    REPORT = "the report the checkpoint records"


RECORDED = Recorded.REPORT


def run(
    config: TournamentConfig | Options | str | os.PathLike[str] | None = None,
    options: Options = Options(),
    *,
    resume_from: str | os.PathLike[str] | None = None,
    backend: Backend | None = None,
    progress: Progress | None = None,
    bulk: bool = True,
    checkpoint: str | os.PathLike[str] | None = None,
    checkpoint_seconds: float = CHECKPOINT_SECONDS,
    report: str | os.PathLike[str] | None = None,
    loaded: Callable[[TournamentConfig], None] | None = None,
    alone: Callable[[str], None] | None = None,
) -> Summary | ExactSummary:
    """Play a whole tournament, write its report to `report` if given, and return its summary.

    `config` is a loaded configuration, or a config file (TOML or JSON, or a report) to load under
    `options`, or None (or the options themselves: `run(Options(...))`) for `options` alone (see
    `load_config`); `options.strategies` may give
    Strategy classes and instances as well as specs. `loaded` is told the configuration once the
    strategies are loaded (their modules may have taken over what the caller set up: signal handlers).

    An exact tournament (`config.method == "exact"`) is computed in this process whatever the
    backend, its progress counted in seatings, and gives an `ExactSummary`, with chances in place
    of estimates; it keeps no checkpoint.

    Without a seed in `config`, one is drawn: the summary's config holds it and `seed_drawn`
    is set. Without a backend, `default_backend` picks one from `config.workers`; where the
    machine's load made it play in this process alone, `alone` is told why (a sentence) before the
    games start, and the report is the same as a pool's. `bulk=False`
    plays every seat turn by turn in the general engine: the reference the bulk engine is held
    to, with the same results. With a `checkpoint` path, where no file may be (a ConfigError:
    another run's checkpoint), a run that lasts more than `checkpoint_seconds` keeps its finished
    work there, written at most that often, until it finishes and its report is written. `report`
    is written whole or not at all (TOML, or JSON for a `.json` file; see `write_report`).

    Given `resume_from`, a checkpoint, it finishes that run instead (see `resume`), writing `report`
    (None for none); a config file or `bulk=False` cannot change it (a ConfigError).

    Raises what `load_config` raises, TournamentFailure when the run cannot finish (a strategy
    failed, a worker died, a unit timed out), Interrupted on Ctrl-C and FileWriteError when the
    report cannot be written; each names the checkpoint left, if any.
    """
    if isinstance(config, Options):
        if options != Options():
            raise ConfigError("options are given twice: give them as the first argument or as `options`, not both.")
        options, config = config, None
    if resume_from is not None:
        if config is not None or not bulk:
            given = "a CONFIG.toml" if config is not None else setting("bulk", False)
            raise ConfigError(
                f"{given} cannot change a resumed run: checkpoint {str(resume_from)!r} holds its configuration."
            )
        return resume(
            resume_from,
            options,
            backend=backend,
            progress=progress,
            checkpoint_seconds=checkpoint_seconds,
            report=report,
            loaded=loaded,
            alone=alone,
        )
    if not isinstance(config, TournamentConfig):
        config = load_config(None if config is None else Path(config), options)
    if loaded is not None:
        loaded(config)
    report = None if report is None else Path(report)
    if report is not None:
        check_writable(report)
    if config.method == "exact":
        from ..exact.tournament import run_exact
        from ..results.report import write_report

        idle.stop_all()  # the field's probes: an exact tournament asks no host
        summary = run_exact(config, progress)
        if report is not None:
            write_report(report, summary)
        return summary
    seed = draw_seed() if config.seed is None else config.seed
    plan = make_plan(dataclasses.replace(config, seed=seed), bulk)
    record = Record.empty(plan)
    seed_drawn = config.seed is None
    keeper = None
    if checkpoint is not None:
        keeper = Keeper(
            Path(checkpoint), plan, record, seed_drawn=seed_drawn, report=report, seconds=checkpoint_seconds
        )
    return _play(plan, record, keeper, backend, progress, seed_drawn, report, alone=alone)


def play_match(
    options: Options | TournamentConfig,
    sprt: Sprt | None = None,
    *,
    backend: Backend | None = None,
    progress: Progress | None = None,
    watch: Watch | None = None,
    report: str | os.PathLike[str] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    checkpoint_seconds: float = CHECKPOINT_SECONDS,
    loaded: Callable[[TournamentConfig], None] | None = None,
) -> Summary:
    """Play a match of two strategies (`options.strategies`, the new one first) at a table of two on
    duplicate deals, each deal a pair of games with the seats swapped, and return its summary, whose
    `match` holds the pairs, the Elo and the SPRT. With `sprt`, the units are counted in the plan's
    order and the match stops once the test decides (at the same game at any number of workers);
    `options.games` is then the budget. `watch` is told the match after each unit counted. A
    `checkpoint` is kept as `run` keeps one, and `resume` finishes the match it keeps. A loaded
    configuration of two strategies may stand for the options (a knockout's tie: its field loaded once)."""
    if isinstance(options, TournamentConfig):
        config = dataclasses.replace(options, table=2, duplicate=True, gauntlet=0)
    else:
        config = load_config(None, dataclasses.replace(options, table=2, duplicate=True))
    if len(config.strategies) != 2:
        raise ConfigError(f"a match is two strategies, not {len(config.strategies)}.")
    if config.method == "exact":
        raise ConfigError("a match is played: it has no exact method (`duel_exactly(A, B)` is exact).")
    if config.on_failure == "disqualify":
        raise ConfigError(
            f"{setting('on_failure', 'disqualify')} does not apply to a match: disqualifying one of its two "
            f"strategies leaves no match; {setting('on_failure', 'forfeit')} forfeits the failing unit's games."
        )
    if loaded is not None:
        loaded(config)
    written = None if report is None else Path(report)
    if written is not None:
        check_writable(written)
    seed = draw_seed() if config.seed is None else config.seed
    looking = 0 if sprt is None else MATCH_LOOK_GAMES
    plan = make_plan(dataclasses.replace(config, seed=seed), bulk_unit_games=MATCH_UNIT_GAMES, look_games=looking)
    record, keeper = Record.empty(plan), None
    if checkpoint is not None:
        tested = {} if sprt is None else {"sprt": _sprt_settings(sprt)}
        settings = {"unit_games": MATCH_UNIT_GAMES, **({"look_games": looking} if looking else {}), **tested}
        keeper = Keeper(
            Path(checkpoint),
            plan,
            record,
            seed_drawn=config.seed is None,
            report=written,
            seconds=checkpoint_seconds,
            match=settings,
        )
    from .sequential import Sequential

    gate = Sequential(plan, sprt, watch)
    return _play(plan, record, keeper, backend, progress, config.seed is None, written, gate)


def resume(
    checkpoint: str | os.PathLike[str],
    options: Options = Options(),
    *,
    backend: Backend | None = None,
    progress: Progress | None = None,
    checkpoint_seconds: float = CHECKPOINT_SECONDS,
    report: str | os.PathLike[str] | Recorded | None = RECORDED,
    loaded: Callable[[TournamentConfig], None] | None = None,
    watch: Watch | None = None,
    alone: Callable[[str], None] | None = None,
) -> Summary:
    """Finish the run a checkpoint keeps: play only its unfinished units, write the report the
    checkpoint records if it is the one beside it (`resumed_report`; or `report`, None for none) as
    `run` writes it, and return the summary an
    uninterrupted run gives. `options` may change how it runs (workers, scheduler, timeout, memory
    limit, isolation), never what it finds. The checkpoint is kept up to date as `run` keeps it, and
    removed once the report is written. `loaded` is told the configuration before anything is
    played, and `alone` as `run` tells it. A checkpoint that cannot be resumed is a ConfigError of
    one sentence (see `read_checkpoint`)."""
    saved = read_checkpoint(Path(checkpoint), options)
    written = resumed_report(saved.path, saved.report) if report is RECORDED else report
    written = None if written is None else Path(written)
    if loaded is not None:
        loaded(saved.plan.config)
    if written is not None:
        check_writable(written)
    keeper = Keeper(
        saved.path,
        saved.plan,
        saved.record,
        seed_drawn=saved.seed_drawn,
        report=written,
        owned=saved.owned,
        seconds=checkpoint_seconds,
        match=saved.match,
    )
    gate = None
    if saved.match is not None:
        from .sequential import Sequential

        gate = Sequential(saved.plan, _sprt_of(saved), watch)
    return _play(saved.plan, saved.record, keeper, backend, progress, saved.seed_drawn, written, gate, alone)


def _sprt_settings(sprt: Sprt) -> dict[str, float | str]:
    """An SPRT's settings as a checkpoint keeps them: its bounds and error rates, and its model
    where it is not the logistic one (a checkpoint of a logistic test is as it was)."""
    numbers: dict[str, float | str] = {key: float(getattr(sprt, key)) for key in ("elo0", "elo1", "alpha", "beta")}
    return {**numbers, **({"model": sprt.model} if sprt.normalized else {})}


def _sprt_of(saved: Saved) -> Sprt | None:
    """The SPRT of the match a checkpoint keeps, if it runs one."""
    from ..statistics.elo import Sprt

    assert saved.match is not None
    settings = saved.match.get("sprt")
    try:
        return None if settings is None else Sprt(**settings)
    except ValueError as error:
        raise ConfigError(f"{str(saved.path)!r} is a damaged checkpoint: {error}") from None


class _Decided(Exception):
    """The SPRT of a match decided: the run stops."""


def _play(
    plan: Plan,
    record: Record,
    keeper: Keeper | None,
    backend: Backend | None,
    progress: Progress | None,
    seed_drawn: bool,
    report: Path | None,
    gate: Sequential | None = None,
    alone: Callable[[str], None] | None = None,
) -> Summary:
    """Play the plan's units still to play into the record, keeping the checkpoint if there is a
    keeper, and write the report (if any) before the checkpoint goes. With a `gate`, the units are
    counted in the plan's order and the run stops once its SPRT decides (`sequential`). `alone` is
    told why the machine's load made the chosen backend play in this process alone."""
    counter = _counter(plan, record, keeper, progress, gate)
    try:
        _played(plan, record, gate, lambda playing: _hand_out(playing, record, backend, progress, gate, alone, counter))
    except _Decided:
        from .sequential import stopped

        plan = stopped(plan, record.games + record.withheld)
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
    finally:
        idle.stop_all()
    summary = _summary(plan, record, seed_drawn, gate)
    if report is not None:
        _write(report, summary, keeper, record)
    if keeper is not None:
        keeper.discard()
    return summary


def _played(plan: Plan, record: Record, gate: Sequential | None, hand_out: Callable[[Plan], None]) -> None:
    """Hand out the plan's units left to play (`hand_out`), and again after each failure the run goes
    on after (`forfeits`): the failing strategy's games of its unit withheld, or the strategy
    disqualified. A failure the run stops at is raised."""
    playing = replanned(plan, record.forfeits, record.units)
    while True:
        record.withheld = withheld_games(playing)
        if gate is not None:
            gate.plan = playing
        try:
            hand_out(playing)
            return
        except TournamentFailure as error:
            forfeit = forfeit_of(playing, error)
            if forfeit is None:
                raise
            out = disqualified([*record.forfeits, forfeit])
            why = unplayable(plan, out) if forfeit.disqualified else None
            if why is not None:
                raise TournamentFailure(f"{why}; {error.marked}") from None
            record.forfeits.append(forfeit)
            playing = replanned(plan, record.forfeits, record.units)


def _summary(plan: Plan, record: Record, seed_drawn: bool, gate: Sequential | None) -> Summary:
    """The summary of a finished run, its forfeits named; a disqualified strategy's games left out,
    as in a run of the field without it."""
    field, tallies = without(plan, record.tallies, disqualified(record.forfeits))
    summary = summarise(field, tallies, seed_drawn=seed_drawn, match=None if gate is None else gate.match)
    summary = dataclasses.replace(
        summary, fingerprints=field_fingerprints(field.config), forfeits=tuple(record.forfeits)
    )
    if gate is None and _may_be_exact(field.config):
        from ..exact.beside import exact_beside

        summary = dataclasses.replace(summary, exactly=exact_beside(field.config))
    return summary


def _counter(
    plan: Plan, record: Record, keeper: Keeper | None, progress: Progress | None, gate: Sequential | None
) -> Callable[[UnitResult], None]:
    """What the backend tells of each finished unit: it is added to the record (through the gate, in
    the plan's order, if there is one), the checkpoint kept and the progress told; `_Decided` once
    the gate's SPRT decides."""

    def finished(result: UnitResult) -> None:
        for ready in (result,) if gate is None else gate.in_order(result):
            if gate is None:
                record.add(ready)
            decided = gate is not None and gate.count(record, ready)  # told before the progress, which shows it
            if keeper is not None and not record.adding:
                keeper.tick()
            if progress is not None:
                progress(record.games + record.withheld, plan.total_games)
            if decided:
                raise _Decided

    return finished


def _hand_out(
    plan: Plan,
    record: Record,
    backend: Backend | None,
    progress: Progress | None,
    gate: Sequential | None,
    alone: Callable[[str], None] | None,
    finished: Callable[[UnitResult], None],
) -> None:
    """Hand the units still to play to the backend (the chosen one, or the default for the plan),
    which tells `finished` of each."""
    if progress is not None:
        progress(record.games, plan.total_games)
    if gate is not None and record.units and gate.decided(record):  # a match resumed after its verdict
        raise _Decided
    chosen = backend or default_backend(plan.config.workers, plan)
    if alone is not None and isinstance(chosen, InProcess) and chosen.busy is not None and plan.unit_count:
        alone(chosen.busy)
    if not (isinstance(chosen, InProcess) or _pool(chosen)) or not plan.unit_count:
        idle.stop_all()  # the hosts the field was probed in serve a run that plays in this process only
    if plan.unit_count:
        chosen.run(plan, finished)


def _may_be_exact(config: TournamentConfig) -> bool:
    """Whether a simulated field might be computed exactly too (`exact_beside` decides): built-in
    strategies, each exact or keyed, at a table of two or more, no gauntlet. Any other field loads
    no exact modules."""
    return (
        config.table >= 2
        and not config.gauntlet
        and all(entry.builtin and (entry.exact or not entry.context_free) for entry in config.strategies)
    )


def _pool(backend: Backend) -> bool:
    """Whether a backend is the worker pool (its module loaded only where it is)."""
    from ..backends.pool import ProcessPool

    return isinstance(backend, ProcessPool)


def _write(report: Path, summary: Summary, keeper: Keeper | None, record: Record) -> None:
    """Write the report of a finished run; if it cannot be written, keep the checkpoint."""
    from ..results.report import write_report

    try:
        write_report(report, summary)
    except KeyboardInterrupt:
        kept = None if keeper is None else keeper.keep()
        raise Interrupted(record.games, summary.plan.total_games, summary.config.seed or 0, kept) from None
    except BaseException as error:
        kept = None if keeper is None else keeper.keep()
        if isinstance(error, FileWriteError):
            error.checkpoint = kept
        raise
