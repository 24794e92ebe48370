"""A strategy's turns in exact games (`shutbox_cli.game.exact_walk`): an exact strategy's one turn
distribution from its table, a keyed one's for each key it meets (`target` in a one-round game:
each turn played from its table for the key it sees), made once and, over a tune, kept for the
next run (`KeptTurns`); and which strategies cannot be computed exactly, and why.

Chances are fractions in a one-round game (about as costly as tabulating the strategies) and
floats over several rounds or in drop-out, where the totals' convolutions make fractions slow.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from shutbox_cli.game import THROWS, Rules, Solution, TurnOdds, distribution, exact_turn_odds
from shutbox_cli.game.exact_seats import KeyedTurns, unsupported
from shutbox_cli.game.solver import layered_distribution, walk_by_layers
from strategies.base import Strategy
from strategies.keys import KeyedContext, checked_key, declared_key
from strategies.loading import StrategyLoadError
from strategies.player import StrategyError, StrategyPlayer
from strategies.table import PolicyTable

from ..errors import ConfigError, TournamentFailure, marked, setting
from ..field.config import TournamentConfig
from ..field.entries import StrategyEntry

if TYPE_CHECKING:  # a user's strategy is seated in a host: only a run of one loads that code
    from ..referee.seated import SeatedStrategy

Turns = TurnOdds[Any] | KeyedTurns[Any]
"""A strategy's turns in exact games: one turn distribution, or one per key (`exact_seats`)."""


def uses_fractions(rules: Rules) -> bool:
    """Whether exact games under these rules are computed in fractions: one-round games are."""
    return rules.drop_out is None and rules.rounds == 1


def refuse_stakes(rules: Rules, what: str) -> None:
    """A ConfigError where the rules play for a stake (`shut_pays` other than 1), which `what`
    (explain, diff, a sheet) does not measure."""
    if rules.shut_pays != Rules().shut_pays:
        raise ConfigError(
            f"{what} weighs the expected score or the chance of winning, not the winnings of a game "
            f"played for a stake: leave {setting('shut_pays')} at 1."
        )


def refuse_inexact(
    name: str, exact: bool, context_free: bool, key: tuple[str, ...] | None, rules: Rules, table: int
) -> None:
    """A ConfigError naming a strategy whose games at a table of `table` cannot be computed exactly
    under these rules, and why: an exact strategy's can, and a keyed one's where its key is known
    at the start of every turn (`exact_seats.unsupported`)."""
    if exact:
        return
    if key is not None:
        keyed = unsupported(rules, key, table)
        if keyed is None:
            return
        raise ConfigError(
            f"{name!r} cannot be computed exactly under these rules ({keyed}): "
            "its games can be simulated, not computed exactly."
        )
    if context_free:
        why = "it is stochastic"
    elif rules.drop_out is not None and table != 2:
        rivals = "its own total" if table == 1 else "the totals of several rivals"
        why = (
            f"it reads the game context, which in drop-out at a table of {table} follows {rivals}; exact games "
            "follow a context that a strategy's key names in drop-out at a table of two"
        )
    elif rules.multi_round and rules.drop_out is None and table != 2:
        rivals = "its own total" if table == 1 else "the totals of several rivals"
        why = (
            f"it reads the game context, which in a game of several rounds at a table of {table} follows {rivals}; "
            "exact games follow a context that a strategy's key names over several rounds at a table of two"
        )
    else:
        why = "it reads the game context without a key"
    raise ConfigError(f"{name!r} is not an exact strategy ({why}): its games can be simulated, not computed exactly.")


def turn_odds(seated: SeatedStrategy, fractions: bool) -> TurnOdds[Any]:
    """An exact strategy's turn distribution from a full box, from its table: its answers for
    every box and roll, made in its host for a user's strategy and checked here (a built-in's is
    kept in this process for the next run); a strategy that fails while answering is a
    TournamentFailure."""
    return _odds(seated.rules, lambda: seated.table, fractions)


def seat_turns(seated: SeatedStrategy, fractions: bool, table: int) -> Turns:
    """A strategy's turns in exact games at a table of `table`: an exact one's turn distribution
    (`turn_odds`), a keyed one's (`exact_key`) for each key it meets, each made once: a built-in
    that plays a solver's policy, from that policy; any other from its table for that key (made in
    its host for a user's strategy and checked here)."""
    key = exact_key(seated, table)
    if key is None:
        return turn_odds(seated, fractions)
    rules = seated.rules
    strategy = _instance(seated)
    solved = getattr(type(strategy), "_solved_for", None) if strategy is not None else None
    found: dict[tuple[Any, ...], TurnOdds[Any]] = {}
    alike: dict[Any, tuple[Any, TurnOdds[Any]]] = {}  # keys played alike (many are): one distribution

    def policy(values: tuple[Any, ...]) -> tuple[Any, Any, Callable[[], PolicyTable | Solution]]:
        """The policy a key is played with: what tells it apart, itself, and how to play it."""
        if solved is not None:
            solution = solved(strategy, rules, KeyedContext(key, values))
            return id(solution), solution, lambda: solution
        try:
            table = seated.keyed_table(values)
        except (StrategyError, StrategyLoadError) as error:
            raise TournamentFailure(marked(error)) from None
        return table.next_mask.tobytes() + table.dice, table, lambda: table

    def odds(values: tuple[Any, ...]) -> TurnOdds[Any]:
        known = found.get(values)
        if known is None:
            played, kept, play = policy(values)
            same = alike.get(played)
            if same is None:
                same = alike[played] = (kept, _odds(rules, play, fractions, keyed=True))
            known = same[1]
            if solved is None:  # a built-in's policy is asked quickly again (over many rounds, of many keys)
                found[values] = known
        return known

    return KeyedTurns(key, odds)


def keyed_policy(seated: SeatedStrategy, features: tuple[str, ...], values: tuple[Any, ...]) -> PolicyTable | Solution:
    """The policy a keyed strategy plays a whole turn with where its key (`features`) has `values`:
    a built-in's solver policy, any other's table (made in its host for a user's strategy, and
    checked); a strategy that fails while answering is a TournamentFailure."""
    strategy = _instance(seated)
    solved = getattr(type(strategy), "_solved_for", None) if strategy is not None else None
    try:
        if solved is not None:
            found: PolicyTable | Solution = solved(strategy, seated.rules, KeyedContext(features, values))
            return found
        return seated.keyed_table(values)
    except (StrategyError, StrategyLoadError) as error:
        raise TournamentFailure(marked(error)) from None


def exact_key(seated: SeatedStrategy, table: int) -> tuple[str, ...] | None:
    """The features a strategy is keyed on in exact games at a table of `table`: a built-in's
    `key_at(rules, table)` (target's key in drop-out at a table of two; any other's, its key
    under the rules)."""
    strategy = _instance(seated)
    if strategy is None:
        return seated.key
    return checked_key(type(strategy).key_at(seated.rules, table), seated.name)


def _instance(seated: SeatedStrategy) -> Strategy | None:
    """A built-in's instance (None for a user's strategy, which runs in its host)."""
    if not seated.builtin:
        return None
    player = seated.player()
    return player.strategy if isinstance(player, StrategyPlayer) else None


def _odds(
    rules: Rules, policy: Callable[[], PolicyTable | Solution], fractions: bool, keyed: bool = False
) -> TurnOdds[Any]:
    """A policy's turn odds; in floats, a keyed seat's (thousands of them, target's) walked a layer
    of boxes at a time, alike for a built-in's solution and a host's table of the same policy."""
    try:
        played = policy()
        move, dice = (
            (played.move, played.dice_count)
            if isinstance(played, PolicyTable)
            else (played.best_move, played.best_dice)
        )
        if fractions:
            return exact_turn_odds(rules, move, dice)
        if keyed:
            if isinstance(played, Solution):
                return TurnOdds.of(layered_distribution(played))
            return TurnOdds.of(walk_by_layers(rules, list(played.dice), _after(played)))
        return TurnOdds.of(distribution(rules, move, dice))
    except (StrategyError, StrategyLoadError) as error:
        raise TournamentFailure(marked(error)) from None


def _after(table: PolicyTable) -> list[list[int]]:
    """The box each throw leaves from each box, by a policy table (anything where it is not rolled)."""
    width = len(THROWS)
    return [list(table.next_mask[start : start + width]) for start in range(0, len(table.next_mask), width)]


def entry_key(entry: StrategyEntry, rules: Rules, table: int | None = None) -> tuple[str, ...] | None:
    """The features a strategy is keyed on under these rules (a user's, as its host said), in exact
    games at a table of `table` where given (`exact_key`)."""
    if entry.context_free or not entry.builtin:
        return entry.key
    cls = entry.load().cls
    return declared_key(cls, rules, entry.name) if table is None else checked_key(cls.key_at(rules, table), entry.name)


class KeptTurns:
    """The field's turns kept across the exact runs of one tune (`run_exact`'s `kept`), so that only
    each candidate's own are made again: a strategy's turns are kept under its spec, parameters and
    name, the rules, the arithmetic and the table. A keyed one's are made as the games meet its keys,
    so a user's keyed strategy keeps its host (asked for the tables of the keys met) until this closes."""

    def __init__(self) -> None:
        self._turns: dict[tuple[Any, ...], Turns] = {}
        self._hosts = contextlib.ExitStack()

    @staticmethod
    def key(entry: StrategyEntry, config: TournamentConfig, fractions: bool) -> tuple[Any, ...]:
        """What a strategy's turns are kept under in this tournament."""
        given = json.dumps(dict(entry.params), sort_keys=True, default=repr)
        return (entry.spec.strip(), given, entry.name, config.rules, fractions, config.table, config.timeout)

    def get(self, key: tuple[Any, ...]) -> Turns | None:
        """The turns kept under `key`, if any."""
        return self._turns.get(key)

    def keep(self, key: tuple[Any, ...], turns: Turns) -> None:
        """Keep a strategy's turns under `key`."""
        self._turns[key] = turns

    def hold(self, seated: SeatedStrategy) -> None:
        """Keep a strategy's host until this closes."""
        self._hosts.callback(seated.close)

    def __enter__(self) -> KeptTurns:
        return self

    def __exit__(self, *raised: object) -> None:
        self.close()

    def close(self) -> None:
        """Forget the turns kept and end the hosts kept."""
        self._turns.clear()
        self._hosts.close()


def field_turns(
    config: TournamentConfig,
    fractions: bool,
    stack: contextlib.ExitStack,
    gauntlet: int = 0,
    kept: KeptTurns | None = None,
) -> list[Turns]:
    """Every strategy's turns (`seat_turns`), a user's from the tables its host makes; with `kept`,
    those of the strategies after the first `gauntlet` are taken from it where it holds them, and
    kept there when made. The hosts load side by side, each within the run's time limit; an exact
    strategy's ends once its table is in, a keyed one's when `stack` closes, or `kept` for one kept
    there (its tables are made as the games meet its keys)."""
    from ..referee.seated import seat_strategies

    entries = config.strategies
    keys = {
        index: KeptTurns.key(entries[index], config, fractions)
        for index in range(gauntlet if kept is not None else len(entries), len(entries))
    }
    found = {index: turns for index, key in keys.items() if kept is not None and (turns := kept.get(key)) is not None}
    missing = [index for index in range(len(entries)) if index not in found]
    given = [(entries[index].spec, entries[index].params, entries[index].name) for index in missing]
    try:
        seated = seat_strategies(given, config.rules, timeout=config.timeout, memory_limit_mib=config.memory_limit)
    except StrategyLoadError as error:
        raise TournamentFailure(marked(error)) from None
    for index, one in zip(missing, seated, strict=True):
        if kept is not None and index in keys:
            kept.hold(one)
        else:
            stack.callback(one.close)
    for index, one in zip(missing, seated, strict=True):
        turns = found[index] = seat_turns(one, fractions, config.table)
        if kept is not None and index in keys:
            kept.keep(keys[index], turns)
        if one.key is None:
            one.close()
    return [found[index] for index in range(len(entries))]
