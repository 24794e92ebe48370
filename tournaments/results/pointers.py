"""The exact commands that answer what a run of games leaves to chance, where they apply: after a
match of two strategies that are each exact or keyed, `diff` says where they choose differently;
after a tournament of such strategies, `diff` of its top two (alone, at a table of one: `explain` of
the first, where it loses expected score); or that the two choose alike (`alike`). Each a `Command`
under the run's rules, which the face spells as a command line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shutbox_cli.game import Rules, Ties

from ..errors import Command, Setting
from ..exact.turns import entry_key
from .aggregate import Summary

if TYPE_CHECKING:
    from ..exact.tournament import ExactSummary
    from ..field.config import TournamentConfig
    from ..field.entries import StrategyEntry


def exact_pointer(summary: Summary | ExactSummary) -> Command | None:
    """The command that says exactly where a match's two strategies differ (`diff NEW BASELINE`), or
    where a tournament's top two do (`diff FIRST SECOND`; solo, `explain FIRST`), under its rules,
    in the chance of winning at a table of two (what the run ranks by); None unless every strategy
    of the run is exact, or keyed at its table."""
    top = _top(summary)
    if top is None:
        return None
    config = summary.config
    settings = _settings(config.rules)
    if config.table == 1:
        return Command("explain", (top[0].spec,), settings)
    rules = config.rules
    if config.table == 2 and not rules.multi_round and rules.ties is not Ties.PLAYOFF:
        settings = (Setting("measure", "win"), *settings)
    return Command("diff", (top[0].spec, top[1].spec), settings)


def alike(summary: Summary | ExactSummary) -> tuple[str, str] | None:
    """The names of a match's two strategies, or a tournament's top two, where they choose alike in
    every state: one strategy under two names, or one fingerprint; None otherwise."""
    top = _top(summary)
    if top is None or len(top) < 2:
        return None
    first, second = top[:2]
    printed = summary.fingerprints
    same_prints = first.name in printed and printed.get(first.name) == printed.get(second.name)
    return (first.name, second.name) if same_prints or _same(first, second) else None


def _top(summary: Summary | ExactSummary) -> list[StrategyEntry] | None:
    """A match's strategies in order, or a tournament's by rank; None where a pointer does not apply."""
    config = summary.config
    if not all(_followed(entry, config) for entry in config.strategies):
        return None
    entries = {entry.name: entry for entry in config.strategies}
    match = isinstance(summary, Summary) and summary.match is not None
    names = list(config.names) if match else [standing.name for standing in summary.ranking]
    if len(names) < 2 and config.table > 1:
        return None
    return [entries[name] for name in names]


def _same(first: StrategyEntry, second: StrategyEntry) -> bool:
    """Whether two entries are one strategy under two names: one spec, parameters and source."""
    params = [sorted((name, repr(value)) for name, value in entry.params.items()) for entry in (first, second)]
    return first.spec == second.spec and params[0] == params[1] and first.sha256 == second.sha256


def _followed(entry: StrategyEntry, config: TournamentConfig) -> bool:
    """Whether `diff` and `explain` follow a strategy exactly: an exact one, or one keyed at the table."""
    return entry.exact or (not entry.context_free and entry_key(entry, config.rules, config.table) is not None)


def _settings(rules: Rules) -> tuple[Setting, ...]:
    """The rules as settings, those that differ from the standard ones."""
    standard = Rules().to_mapping()
    return tuple(Setting(name, value) for name, value in rules.to_mapping().items() if standard.get(name) != value)
