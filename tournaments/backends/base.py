"""Backends: what plays a plan's work units. The tournament runner hands a backend the plan
and a callback; the backend plays every unit once and hands back each unit's result.

Three backends today: `InProcess` (this process), `ProcessPool` (worker processes) and
`DaskCluster` (a Dask cluster). More (a numpy bulk engine) are further classes with the same
one method; nothing above this module changes when one is added.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from shutbox_cli.game import Rules
from strategies.limits import TimeUp, time_limit
from strategies.loading import StrategyLoadError

from ..errors import TournamentFailure, marked
from ..playing.plan import Plan
from ..playing.units import UnitPlayer, UnitResult, timed, timeout_message
from ..referee.confine import cores

Finished = Callable[[UnitResult], None]
"""Told each unit's result as it finishes."""


class Backend(Protocol):
    """Plays a plan's work units.

    `run` plays every unit of `plan.units()` exactly once, in any order and anywhere, and
    calls `finished` with each unit's `UnitResult`, in the calling thread, as units finish.
    Tallies add up exactly in any order, so a backend cannot change the results. It raises
    `TournamentFailure` (one sentence naming the unit, as `units.unit_title` does) when a
    strategy fails to load or play, a worker dies, or a unit that seats a user's strategy
    (`units.timed`) runs past `plan.config.timeout` seconds; on Ctrl-C (or any signal the caller
    turns into `KeyboardInterrupt`) it lets `KeyboardInterrupt` through. Either way it stops its
    work and leaves no process behind (nor any process a strategy started) before it returns or
    raises.
    """

    def run(self, plan: Plan, finished: Finished) -> None: ...


@dataclasses.dataclass(frozen=True)
class InProcess:
    """Plays the units one after another in this process, the referee here and each user's
    strategy in a host process of its own (`units.UnitPlayer`): no worker to start. A host that
    does not answer by its unit's deadline is named and stopped; the interval timer (SIGALRM,
    where the platform has one and this is the main thread) is the time limit's last word for a
    unit that seats a user's strategy (`units.timed`). `busy` says why it plays alone where more
    workers were asked for, when the machine's load chose it (None otherwise)."""

    busy: str | None = None

    def run(self, plan: Plan, finished: Finished) -> None:
        try:
            player = UnitPlayer(plan)
        except StrategyLoadError as error:
            raise TournamentFailure(marked(error)) from None
        try:
            for unit in plan.units():
                if not timed(plan, unit):
                    finished(player.play(unit))
                    continue
                try:
                    with time_limit(plan.config.timeout):
                        result = player.play(unit)
                except TimeUp:
                    raise TournamentFailure(timeout_message(plan, unit)) from None
                finished(result)
        finally:
            player.close()


IN_PROCESS_SECONDS = 1.0
"""Plans estimated to take less than this play in this process: a pool would take longer to start
than to play them."""
BULK_TURNS_PER_SECOND = 3_000_000
TURNS_PER_SECOND = 20_000
HOSTED_TURNS_PER_SECOND = 60_000
TABLE_TURNS_PER_SECOND = 1_000_000
"""Rough speeds of one core (for the estimate only): turns of a bulk unit's games, turns of a
built-in strategy asked at each decision, of a user's strategy asked in its host (a step's turns in
one round trip, the host's time counted: 75,000 a second measured against optimal), and of an exact
strategy's turns looked up in its table in a game played step by step."""
LOAD_SECONDS = 0.01
HOST_SECONDS = 0.15
TABLE_SECONDS_PER_BOX = 0.000_12
MATCHUP_UNIT_SECONDS = 0.000_08
"""What playing costs besides the games (measured, for the estimate only): loading a strategy,
starting a user's strategy's host (each worker of a pool starts its own), tabulating an exact one
(per box of tiles: 60 ms at 9 tiles, 0.5 s at 12), and counting one matchup's games in one unit."""
DROP_OUT_ROUNDS = 10
"""About how many points of the drop-out total a round adds (for the estimate only): a game to
100 lasts about 10 rounds."""
POOL = "SHUTBOX_POOL"
"""The environment variable that takes the machine's load out of the choice (tests, whose path must
not depend on it; benchmarks): `always` plays in a pool whenever there is more than one worker,
however small the run or busy the machine; `idle` lets the estimate alone decide, every core taken
as idle (what an idle machine would choose); `busy` takes every core but this process's as taken
(what a busy machine would choose)."""


def rounds_played(rules: Rules) -> float:
    """About how many rounds a game lasts: its rounds, or those a drop-out game takes."""
    return float(rules.rounds) if rules.drop_out is None else max(1.0, rules.drop_out / DROP_OUT_ROUNDS)


def estimated_seconds(plan: Plan) -> float:
    """About how long one core takes to play the units still to play, strategies loaded (a user's
    host started) and tabulated first: the games' turns (each seat of each round a game lasts, in
    bulk, asked at each decision here or in a host, or looked up in a table), each matchup counted
    in each unit that plays it, and each exact strategy's table (its size the number of boxes of
    tiles)."""
    rules, table, strategies = plan.config.rules, plan.table, plan.config.strategies
    rounds = rounds_played(rules)
    turns = table * rounds  # of one game
    share = plan.unit_count / max(1, plan.all_unit_count)  # what a resumed run has left
    bulk = plan.bulk_matchups

    def seconds_per_turn(player: int) -> float:
        entry = strategies[player]
        if plan.bulk and entry.exact:
            return 1 / TABLE_TURNS_PER_SECOND
        return 1 / (TURNS_PER_SECOND if entry.builtin else HOSTED_TURNS_PER_SECOND)

    asked = {player for index in bulk for player in plan.matchups[index].players if not strategies[player].exact}
    bulk_units = -(-plan.deals // plan.deals_per_bulk_unit) if bulk else 0
    seconds = len(bulk) * plan.games_per_matchup * turns / BULK_TURNS_PER_SECOND
    seconds += sum(plan.deals * turns * seconds_per_turn(player) for player in asked)  # once for all its matchups
    seconds += sum(
        plan.games_per_matchup * rounds * seconds_per_turn(player)
        for index in plan.turn_matchups
        for player in plan.matchups[index].players
    )
    seconds += (bulk_units * len(bulk) + plan.all_unit_count - bulk_units) * MATCHUP_UNIT_SECONDS
    tabulated = sum(entry.exact for entry in strategies) if plan.bulk else 0
    hosts = sum(not entry.builtin for entry in strategies)
    setup = len(strategies) * LOAD_SECONDS + hosts * HOST_SECONDS
    setup += tabulated * TABLE_SECONDS_PER_BOX * (rules.full_box + 1)
    return setup + seconds * share


POOL_CORES = 2
"""The idle cores a pool needs to pay: it keeps this process and at least one worker busy; with only
this process's core free, a second process would take turns with it and with the load."""


def idle_cores() -> float:
    """About how many cores no other process keeps busy now: the machine's, less the processes
    running besides this one (Linux says it now; elsewhere the load of the last minute, which
    counts this process's own recent work too; all of them where the platform says nothing)."""
    running: float
    try:
        running = int(Path("/proc/loadavg").read_text().split()[3].split("/")[0]) - 1
    except (OSError, IndexError, ValueError):
        try:
            running = os.getloadavg()[0]
        except (AttributeError, OSError):
            running = 0
    return cores() - running


def default_backend(workers: int | None, plan: Plan, idle: Callable[[], float] | None = None) -> Backend:
    """The Dask cluster of `plan.config.scheduler` if it names one; else this process for one
    worker, or for a plan that is small or finds fewer than `POOL_CORES` cores idle (`idle`, by
    default `idle_cores`: a pool would only slow it down); else a pool of `workers` processes (None: one per core).
    `SHUTBOX_POOL` (`POOL`) may take the load out of the choice. Wherever the referee plays, a
    user's strategy runs in a host process of its own, which the run can stop whatever the
    strategy does (catch every exception, loop in C, start processes)."""
    if plan.config.scheduler is not None:
        from .dask_cluster import DaskCluster

        return DaskCluster(plan.config.scheduler)
    count = cores() if workers is None else workers
    forced = os.environ.get(POOL)
    if idle is None:
        idle = {"idle": lambda: float(cores()), "busy": lambda: 1.0}.get(forced or "", idle_cores)
    if count <= 1 or (forced != "always" and estimated_seconds(plan) < IN_PROCESS_SECONDS):
        return InProcess()
    free = idle()
    if forced != "always" and free < POOL_CORES:
        return InProcess(
            f"the machine looked busy ({max(0.0, free):.1f} of its {cores()} cores idle): this process plays "
            f"alone, where {count} worker processes would take turns with the load"
        )
    from .pool import ProcessPool

    return ProcessPool(count)
