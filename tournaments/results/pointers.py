"""The exact commands that answer what a run of games leaves to chance, where they apply: after a
match of two strategies that are each exact or keyed, `diff` says where they choose differently;
after a tournament of such strategies, `diff` of its top two (alone, at a table of one: `explain` of
the first, where it loses expected score). Each a `Command` under the run's rules, which the face
spells as a command line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shutbox_cli.game import Rules

from ..errors import Command, Setting
from ..exact.turns import entry_key
from .aggregate import Summary

if TYPE_CHECKING:
    from ..exact.tournament import ExactSummary
    from ..field.config import TournamentConfig
    from ..field.entries import StrategyEntry


def exact_pointer(summary: Summary | ExactSummary) -> Command | None:
    """The command that says exactly where a match's two strategies differ (`diff NEW BASELINE`), or
    where a tournament's top two do (`diff FIRST SECOND`; solo, `explain FIRST`), under its rules;
    None unless every strategy of the run is exact, or keyed at its table."""
    config = summary.config
    if not all(_followed(entry, config) for entry in config.strategies):
        return None
    specs = {entry.name: entry.spec for entry in config.strategies}
    match = isinstance(summary, Summary) and summary.match is not None
    names = list(config.names) if match else [standing.name for standing in summary.ranking]
    if len(names) < 2 and config.table > 1:
        return None
    settings = _settings(config.rules)
    if config.table == 1:
        return Command("explain", (specs[names[0]],), settings)
    return Command("diff", (specs[names[0]], specs[names[1]]), settings)


def _followed(entry: StrategyEntry, config: TournamentConfig) -> bool:
    """Whether `diff` and `explain` follow a strategy exactly: an exact one, or one keyed at the table."""
    return entry.exact or (not entry.context_free and entry_key(entry, config.rules, config.table) is not None)


def _settings(rules: Rules) -> tuple[Setting, ...]:
    """The rules as settings, those that differ from the standard ones."""
    standard = Rules().to_mapping()
    return tuple(Setting(name, value) for name, value in rules.to_mapping().items() if standard.get(name) != value)
