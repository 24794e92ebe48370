"""Feeding a pool's units and collecting its results: units handed to the workers and to the main
process, replies heard as they come, units past the time limit stopped, and the earliest failure kept."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from strategies.limits import TimeUp, time_limit
from strategies.loading import StrategyLoadError

from ..errors import TournamentFailure, marked
from ..playing.plan import Plan, WorkUnit
from ..playing.units import UnitPlayer, UnitResult, timed, timeout_message
from .messages import Done, Failed, Ready, Reply
from .pool_workers import Worker, give, kill, more, reply

TICK = 0.2
"""The longest the run waits without looking whether a worker has died (a process a strategy
started may hold a dead worker's pipes open, so they never say it)."""
QUEUED_SECONDS = 0.1
"""About how long the units a worker holds take to play (at least 2 of them, at most `MOST_AHEAD`):
enough that it never waits while this process plays a unit of its own, or while a busy machine
keeps this process off its cores for a few of the scheduler's slices."""
MOST_AHEAD = 64


def own_player(plan: Plan) -> UnitPlayer:
    """This process's own unit player: it makes the exact strategies' tables for the workers and
    plays units itself, with the hosts the field was probed in (`referee.idle`)."""
    try:
        return UnitPlayer(plan)
    except StrategyLoadError as error:
        raise TournamentFailure(marked(error)) from None


def play_here(
    plan: Plan, here: UnitPlayer, unit: WorkUnit, finished: Callable[[UnitResult], None]
) -> tuple[int, str] | None:
    """Play one unit in this process, within the time limit if it seats a user's strategy (as
    `InProcess` does): None once played, else the unit's number and why it failed."""
    try:
        if timed(plan, unit):
            with time_limit(plan.config.timeout):
                result = here.play(unit)
        else:
            result = here.play(unit)
    except TimeUp:
        return unit.number, timeout_message(plan, unit)
    except TournamentFailure as error:
        return unit.number, error.marked
    finished(result)
    return None


def warms_first(plan: Plan) -> bool:
    """Whether this process plays a unit before it forks the workers, so that they start with what
    that loaded (the compiled kernel, the tables, the engine's modules; else each loads them again):
    not for a field of a user's strategy with nothing in bulk, whose workers' longest start is their
    own hosts' (a fresh process each): they start them at once instead."""
    return bool(plan.bulk_matchups) or all(entry.builtin for entry in plan.config.strategies)


class Feeding:
    """One run's units handed out and their results collected, a round at a time: each round waits
    for the workers (not at all while this process plays too), hears each busy one (every reply it
    sent, its death, or a unit past the time limit), and plays a unit here. Each worker holds units
    ahead (`ahead`), so it never waits while this process plays one; the last few go one at a
    time, to whichever player is free, so that all of them finish together. After a failure no new
    unit starts, but units before the failed one run to their end: the failure reported is the
    earliest one, whatever the number of workers."""

    def __init__(
        self, plan: Plan, count: int, limit: int, finished: Callable[[UnitResult], None], here: UnitPlayer
    ) -> None:
        self.plan = plan
        self.count = count
        self.limit = limit
        self.finished = finished
        self.here: UnitPlayer | None = here
        """This process's player, until it has no unit left to play (or the run stops)."""
        self.pool: list[Worker] = []
        self.units = plan.units()
        self.upcoming: WorkUnit | None = None
        """The next unit to hand out, once looked at (`_next`)."""
        self.left = plan.unit_count
        """Units not yet handed out."""
        self.failure: tuple[int, str] | None = None
        """The earliest unit that failed so far, and why."""
        self.ahead = {True: 2, False: 2}
        """How many units of each kind (bulk or not) a worker holds: 2, or more where this process's
        units of that kind are short (`QUEUED_SECONDS`): a unit asked of a user's strategy after many
        short bulk units may take far longer than they did."""

    def warm(self) -> None:
        """Play the first unit here, before the workers fork (`warms_first`)."""
        first = self._take()
        if first is not None and self.here is not None:
            self.left -= 1
            if (failed := play_here(self.plan, self.here, first, self.finished)) is not None:
                raise TournamentFailure(failed[1])

    def deal(self) -> None:
        """Hand each worker its first units (`_fill`)."""
        for worker in self.pool:
            self._fill(worker)

    def _fill(self, worker: Worker) -> None:
        """Give a worker units until it holds `ahead` (of the next unit's kind), or its share of
        those left (each player, this process too, then finishes about when the others do); the
        last few one at a time, to whichever player is free."""
        while self.failure is None and (upcoming := self._next()) is not None:
            if len(worker.queued) >= min(self.ahead[upcoming.bulk], max(1, self.left // self.count)):
                return
            self._give(worker)

    def play(self, wait: Callable[..., list[Any]]) -> None:
        """Play rounds until every unit is played, or those before a failure; then raise the failure."""
        while self._round(wait):
            pass
        if self.failure is not None:
            raise TournamentFailure(self.failure[1])

    def close(self) -> None:
        if self.here is not None:
            self.here.close()
            self.here = None

    def _round(self, wait: Callable[..., list[Any]]) -> bool:
        """One round; False once nothing is left to wait for."""
        busy = [(worker, unit) for worker in self.pool if (unit := worker.unit) is not None and self._counts(unit)]
        playing = self.here is not None and self.failure is None
        if not busy and not playing:
            return False
        deadline = min(
            (worker.started + self.plan.config.timeout for worker, _ in busy if worker.timed), default=math.inf
        )
        watched = [worker.connection for worker, _ in busy] + [worker.process.sentinel for worker, _ in busy]
        wait_for = 0.0 if playing else min(TICK, max(0.0, deadline - time.monotonic()))
        ready = set(wait(watched, timeout=wait_for)) if watched else set()
        for worker, unit in busy:
            self._hear(worker, unit, ready)
        if self.here is not None and self.failure is None:
            self._play_here(self.here)
        return True

    def _counts(self, unit: WorkUnit) -> bool:
        """Whether a unit's result is still needed: all are, until one before it fails."""
        return self.failure is None or unit.number < self.failure[0]

    def _hear(self, worker: Worker, unit: WorkUnit, ready: set[Any]) -> None:
        """Hear a busy worker: every reply it has sent (a unit done each, a worker that holds
        several may have finished more than one while this process played one), or why it is gone."""
        said = self._said(worker, unit, ready)
        while said is not None:
            self._heard(worker, unit, said)
            if not isinstance(said, Done) or worker.unit is None or not self._counts(worker.unit) or not more(worker):
                return
            unit = worker.unit
            said = reply(self.plan, worker, self.limit)

    def _said(self, worker: Worker, unit: WorkUnit, ready: set[Any]) -> Reply | None:
        """What a busy worker said (or why it is gone, or that its unit ran out of time); None: nothing yet."""
        if worker.connection in ready or worker.process.exitcode is not None:
            return reply(self.plan, worker, self.limit)
        if worker.timed and time.monotonic() - worker.started > self.plan.config.timeout:
            return Failed(timeout_message(self.plan, unit))
        return None

    def _heard(self, worker: Worker, unit: WorkUnit, said: Reply) -> None:
        if isinstance(said, Ready):  # the unit's time starts now; loading the strategies had as long
            worker.ready = True
            worker.started = time.monotonic()
            worker.timed = timed(self.plan, unit)
        elif isinstance(said, Failed):
            worker.queued.clear()
            kill(worker)  # now, not at the end: it may be stuck, or have left processes behind
            if self._counts(unit):
                self.failure = (unit.number, said.message)
        else:
            worker.queued.popleft()
            if worker.unit is not None:  # the next unit it holds: its time starts now
                worker.started = time.monotonic()
                worker.timed = timed(self.plan, worker.unit)
            self.finished(said.result)
            self._fill(worker)

    def _play_here(self, here: UnitPlayer) -> None:
        """Play the next unit in this process; with none left, close its player."""
        unit = self._take()
        if unit is None:
            self.close()
        else:
            self.left -= 1
            start = time.monotonic()
            self.failure = play_here(self.plan, here, unit, self.finished)
            took = time.monotonic() - start
            self.ahead[unit.bulk] = max(2, min(MOST_AHEAD, math.ceil(QUEUED_SECONDS / max(took, 1e-6))))

    def _next(self) -> WorkUnit | None:
        """The next unit to hand out (None: none left), still to be handed out."""
        if self.upcoming is None:
            self.upcoming = next(self.units, None)
        return self.upcoming

    def _take(self) -> WorkUnit | None:
        """The next unit, handed out now."""
        unit, self.upcoming = self._next(), None
        return unit

    def _give(self, worker: Worker) -> None:
        self.left -= give(self.plan, worker, self._take())
