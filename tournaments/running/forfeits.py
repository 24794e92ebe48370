"""Forfeits: a run that goes on when a user's strategy fails (the `on_failure` setting).

`stop` (the default) ends the run at the failure, as it always did. `forfeit`: the strategy that
failed forfeits its games of the work unit it failed in (every game of that unit it is seated
in), and the run goes on, the strategy playing its other units. `disqualify`: the strategy leaves
the field at its first failure; every game it played is dropped with it, its finished units too,
and the results are those of the field without it.

A forfeited game is not played: it counts for no one (no loss for the strategy, no win for its
opponents), and the report counts it apart (`[[forfeit]]`). So every other game, and every
matchup the strategy is not in, comes out as in a run without the failure; and with a
disqualification the report is the report of the run without the strategy, with its
`[[forfeit]]` entry besides.

Which units are forfeited depends only on what the strategy does in each unit, not on the number
of workers: a unit that fails at one worker count fails at every other (a work unit's games and
the strategy's fresh start are the same), and the run goes on from the earliest failure, so a
failure that a pool met in a later unit is met again there. A hang is the exception: a strategy
stuck past `timeout` forfeits its unit, and one that is only slow may finish a unit on an idle
machine and not on a busy one.

A failure is blamed on one user's strategy: the one a game or its table names, else the only
user's strategy its unit seats. One that cannot be blamed so (a worker that dies playing two
users' strategies at once, a strategy that fails to load, a built-in strategy's failure) stops
the run whatever the setting.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..errors import TournamentFailure, unmarked
from ..playing.plan import Matchup, Plan, WorkUnit
from ..playing.tally import Tally
from ..playing.units import Forfeit

FORFEIT = "forfeit"
DISQUALIFY = "disqualify"


def forfeit_of(plan: Plan, error: TournamentFailure) -> Forfeit | None:
    """The forfeit a failure makes under the plan's `on_failure`, or None: the run stops there (the
    setting is `stop`, or the failure names no work unit or no one user's strategy to blame)."""
    policy = plan.config.on_failure
    units = error.marks("unit")
    if policy not in (FORFEIT, DISQUALIFY) or not units or not 0 <= units[0] < plan.all_unit_count:
        return None
    unit = plan.kept(plan.unit(units[0]))
    index = _blamed(plan, unit, error.marks("strategy"))
    if index is None:
        return None
    matchups = tuple(matchup for matchup in unit.matchups if index in plan.matchups[matchup].players)
    entry = plan.config.strategies[index]
    said = unmarked(error.marked).split("\n", 1)[0]
    games = unit.deals * plan.table * len(matchups)
    names = plan.config.names
    titles = tuple(" vs ".join(names[player] for player in plan.matchups[matchup].players) for matchup in matchups)
    return Forfeit(entry.name, entry.spec, index, unit.number, matchups, titles, games, said, policy == DISQUALIFY)


def _blamed(plan: Plan, unit: WorkUnit, marked: Sequence[int]) -> int | None:
    """The user's strategy a unit's failure is blamed on: the one it is marked with, else the only
    one the unit seats; None if none is (a built-in's failure is not a forfeit)."""
    entries = plan.config.strategies
    seated = {player for matchup in unit.matchups for player in plan.matchups[matchup].players}
    users = sorted(player for player in seated if not entries[player].builtin)
    if marked:
        return marked[0] if marked[0] in users else None
    return users[0] if len(users) == 1 else None


def replanned(plan: Plan, forfeits: Sequence[Forfeit], done: set[int]) -> Plan:
    """The plan left to play after these forfeits, its units `done` played: each forfeit's matchups
    withheld from its unit, a disqualified strategy's from every unit not yet played; a unit with
    no matchup left counts as done."""
    if not forfeits:
        return dataclasses.replace(plan, done=frozenset(done))
    withheld: set[tuple[int, int]] = set()
    for forfeit in forfeits:
        withheld.update((forfeit.unit, matchup) for matchup in forfeit.matchups)
    out = {forfeit.index for forfeit in forfeits if forfeit.disqualified}
    if out:
        seating = [matchup.index for matchup in plan.matchups if out & set(matchup.players)]
        for unit in plan.units():
            if unit.number not in done:
                withheld.update((unit.number, matchup) for matchup in seating if matchup in unit.matchups)
    playing = dataclasses.replace(plan, withheld=frozenset(withheld), done=frozenset())
    emptied = {number for number, _ in withheld if not playing.kept(plan.unit(number)).matchups}
    return dataclasses.replace(playing, done=frozenset(done | emptied))


def withheld_games(plan: Plan) -> int:
    """The games of the matchups a plan withholds from its units: never played."""
    return sum(plan.unit(number).deals * plan.table for number, _ in plan.withheld)


def disqualified(forfeits: Sequence[Forfeit]) -> tuple[int, ...]:
    """The places in the field of the disqualified strategies, in order."""
    return tuple(sorted({forfeit.index for forfeit in forfeits if forfeit.disqualified}))


def unplayable(plan: Plan, out: Sequence[int]) -> str | None:
    """Why the field without these strategies has nothing left to play (None: it has)."""
    left = len(plan.config.strategies) - len(out)
    players = plan.config.gauntlet - sum(index < plan.config.gauntlet for index in out)
    if left < max(plan.table, 2):
        return (
            f"the run stops: a disqualification would leave {left} {'strategy' if left == 1 else 'strategies'} to play"
        )
    if plan.config.gauntlet and not players:
        return "the run stops: a disqualification would leave the gauntlet without a player"
    return None


def without(plan: Plan, tallies: Sequence[Sequence[Tally]], out: Sequence[int]) -> tuple[Plan, list[list[Tally]]]:
    """The plan and tallies of the field without the strategies `out` (their places in the field):
    the matchups that seat none of them, renumbered as a run of that field numbers them."""
    if not out:
        return plan, [list(counted) for counted in tallies]
    config = plan.config
    keep = [index for index in range(len(config.strategies)) if index not in out]
    place = {old: new for new, old in enumerate(keep)}
    kept = [matchup for matchup in plan.matchups if not set(out) & set(matchup.players)]
    gauntlet = config.gauntlet - sum(index < config.gauntlet for index in out) if config.gauntlet else 0
    field = dataclasses.replace(config, strategies=tuple(config.strategies[index] for index in keep), gauntlet=gauntlet)
    matchups = tuple(
        Matchup(number, tuple(place[player] for player in matchup.players), matchup.bulk)
        for number, matchup in enumerate(kept)
    )
    keys = tuple(plan.keys[index] for index in keep) if plan.keys else ()
    smaller = dataclasses.replace(
        plan, config=field, matchups=matchups, keys=keys, done=frozenset(), withheld=frozenset()
    )
    return smaller, [list(tallies[matchup.index]) for matchup in kept]
