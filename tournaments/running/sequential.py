"""A match of two strategies that stops when it knows: its units are counted in the plan's order
(a unit finished early waits for those before it), each block by block (`Plan.blocks`), and after
each block the SPRT is asked; once it decides, the run stops there. The units and their blocks are
the same at any number of workers and on Dask, and so is the game at which the test decides: the
verdict is reproducible from the seed, and the report counts the games up to it."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

from ..exact.duel import quick_score
from ..playing.plan import Plan
from ..playing.units import UnitResult
from ..statistics.elo import Match, Sprt, Verdict, match_of
from ..statistics.pairs import Pentanomial, pentanomial
from .checkpoint import Record

Watch = Callable[[Match, int], None]
"""Told the match so far and its games, after each unit counted."""


class Sequential:
    """Lets a match's unit results through in the plan's order, and says when its SPRT decides."""

    def __init__(self, plan: Plan, sprt: Sprt | None, watch: Watch | None = None) -> None:
        self.plan = plan
        self.sprt = sprt
        self.watch = watch
        keys = plan.keys or (None,) * len(plan.config.strategies)
        self.exact = quick_score(plan.config, [key is not None for key in keys])
        """The first strategy's exact score, where it is quickly known (`duel.quick_score`)."""
        self._next = 0
        self._waiting: dict[int, UnitResult] = {}
        self.match = dataclasses.replace(match_of(Pentanomial((0, 0, 0, 0, 0)), sprt), exact=self.exact)

    def in_order(self, result: UnitResult) -> Iterator[UnitResult]:
        """The results that may be counted now, in the plan's order (units done before are skipped)."""
        self._waiting[result.unit] = result
        while True:
            while self._next in self.plan.done:
                self._next += 1
            if self._next not in self._waiting:
                return
            yield self._waiting.pop(self._next)
            self._next += 1

    def count(self, record: Record, result: UnitResult) -> bool:
        """Count a unit's result into the record block by block, the SPRT asked after each (`decided`):
        whether it has decided. One that decides before the unit's last block leaves the record
        holding the games up to there, the unit half counted (`adding` stays set: no checkpoint
        keeps it, and a resumed match decides at the same block again)."""
        blocks = result.blocks or (result,)
        record.adding = True
        for block in blocks:
            record.count(block)
            if self.decided(record) and block is not blocks[-1]:
                return True
        record.units.add(result.unit)
        record.adding = False
        return self.match.verdict is not Verdict.UNDECIDED

    def decided(self, record: Record) -> bool:
        """Whether the SPRT decides on the first strategy's pairs so far (told to `watch`). A look at
        games not looked at before is kept in the record's `looks`, which its checkpoint keeps: a
        resumed match goes on with the path it had."""
        match = match_of(pentanomial(record.tallies[0][0]), self.sprt)
        if self.sprt is not None and (not record.looks or record.looks[-1][0] < record.games):
            record.looks.append((record.games, match.llr))
        self.match = dataclasses.replace(match, path=tuple(record.looks), exact=self.exact)
        if self.watch is not None:
            self.watch(self.match, record.games)
        return self.match.verdict is not Verdict.UNDECIDED


def stopped(plan: Plan, games: int) -> Plan:
    """The plan of a match stopped after `games` games (whole deals of its one matchup): what a run
    of that many games plays, and its report says."""
    deals = games // plan.table
    return dataclasses.replace(plan, deals=deals, config=dataclasses.replace(plan.config, games=games))
