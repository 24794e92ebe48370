"""The policy fingerprints of a field's exact strategies (`strategies.fingerprint`), for its report:
from the tables this process made for the run (`note_table`: a bulk run's, which its main process
makes for its workers or plays from), else made here as a run makes them (a built-in's tabulated,
a user's asked of its host). Keyed strategies have none in a tournament's report: their tables are
made key by key as games meet them, never all of a first round's (`shutbox check` shows theirs)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from shutbox_cli.game import Rules
from strategies.fingerprint import TableOf, fingerprint
from strategies.loading import StrategyLoadError
from strategies.player import StrategyError, StrategyPlayer
from strategies.table import KEPT_TABLES, PolicyTable

from ..errors import TournamentFailure
from ..field.config import TournamentConfig
from ..field.entries import StrategyEntry

_made: OrderedDict[tuple[Any, ...], PolicyTable] = OrderedDict()


def _key(entry: StrategyEntry, rules: Rules) -> tuple[Any, ...]:
    params = tuple(sorted((name, repr(value)) for name, value in entry.params.items()))
    return (entry.spec, params, entry.name, entry.builtin, entry.sha256, rules)


def note_table(entry: StrategyEntry, rules: Rules, table: PolicyTable) -> None:
    """Keep a table a run made, for its fingerprint (the last `KEPT_TABLES` of this process)."""
    _made[_key(entry, rules)] = table
    _made.move_to_end(_key(entry, rules))
    if len(_made) > KEPT_TABLES:
        _made.popitem(last=False)


def field_fingerprints(config: TournamentConfig) -> dict[str, str]:
    """Each exact strategy's fingerprint under the field's rules, by name; one whose table cannot be
    made here (its host fails) has none."""
    found = {}
    for entry in config.strategies:
        if entry.exact:
            table = _made.get(_key(entry, config.rules)) or _made_here(entry, config)
            if table is not None:
                found[entry.name] = fingerprint(config.rules, None, _only(table))
    return found


def _only(table: PolicyTable) -> TableOf:
    """A context-free strategy's one table, as `fingerprint` asks for it."""
    return lambda _: table


def _made_here(entry: StrategyEntry, config: TournamentConfig) -> PolicyTable | None:
    if entry.builtin:
        loaded = entry.load()
        return StrategyPlayer(loaded.make(), config.rules, loaded.name, params=loaded.params).policy
    from ..referee.seated import seat_strategy  # the hosts' code, loaded only for a user's strategy

    try:
        with seat_strategy(entry.spec, config.rules, entry.params, entry.name, timeout=config.timeout) as seated:
            return seated.table
    except (StrategyLoadError, StrategyError, TournamentFailure):
        return None
