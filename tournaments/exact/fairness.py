"""Fair rules: each tie rule and first-roll rule's seat advantage under perfect play for the stake,
and the shut payout that makes the seats equal (`shutbox_cli.game.fair`), as a result with a report."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from shutbox_cli.game import Rules
from shutbox_cli.game.fair import SETTLED, Variant, fairest, search_seconds, variants
from shutbox_cli.game.perfect import refuse_unsolved

from ..errors import ConfigError, setting
from ..records.schema import header, rules_table
from .cost import MOST_SECONDS
from .solution import TABLES


@dataclasses.dataclass(frozen=True)
class FairRules:
    """Every variant of `rules` by tie rule and first-roll rule at a table of `table` seats: the
    last seat's advantage over the first under perfect play for the stake, at the rules' shut
    payout, and the payout that makes it 0."""

    rules: Rules
    table: int
    variants: tuple[Variant, ...]

    @property
    def fairest(self) -> Variant:
        """The variant whose advantage is nearest 0 at the rules' payout."""
        return fairest(self.variants)

    def __repr__(self) -> str:
        from ..briefly import brief

        best = self.fairest
        return brief(
            "FairRules",
            f"{self.table} seats",
            f"{len(self.variants)} variants",
            f"fairest ties={best.rules.ties.value} first_roll={best.rules.first_roll.value} "
            f"({best.advantage:+.5f} stakes)",
        )

    def to_report(self) -> dict[str, Any]:
        """The search as a report table (docs/report.md, `kind = "fairness"`)."""
        report: dict[str, Any] = {**header("fairness"), "method": "exact", "arithmetic": "float"}
        report |= {"table": self.table, "rules": rules_table(self.rules), "settled": SETTLED}
        report["variant"] = [_variant(variant) for variant in self.variants]
        best = self.fairest
        report["fairest"] = {"ties": best.rules.ties.value, "first_roll": best.rules.first_roll.value}
        return report


def _variant(variant: Variant) -> dict[str, Any]:
    found: dict[str, Any] = {
        "ties": variant.rules.ties.value,
        "first_roll": variant.rules.first_roll.value,
        "last_seat_advantage": variant.advantage,
    }
    if variant.fair_pays is not None:
        found["fair_shut_pays"] = variant.fair_pays
        found["advantage_left"] = variant.fair_left
    return found


def fair_rules(rules: Rules | Mapping[str, Any] | None = None, table: int = 2) -> FairRules:
    """Each tie rule and first-roll rule's seat advantage, in stakes, under perfect play for the stake
    at a table of `table` seats (2 to 4), the rest of `rules` (a Rules, a rules table, or None for
    the standard game) kept, and the shut payout that makes it 0. ConfigError, in one sentence, for
    rules of several rounds or drop-out, or another table."""
    if not isinstance(rules, Rules):
        rules = Rules.from_mapping(rules or {})
    if isinstance(table, bool) or not isinstance(table, int) or table not in TABLES:
        raise ConfigError(
            f"fair rules are searched at tables of {TABLES.start} to {TABLES.stop - 1} seats, not {table!r}."
        )
    try:
        refuse_unsolved(rules)
    except ValueError as error:
        raise ConfigError(str(error)) from None
    seconds = search_seconds(rules, table)
    if seconds > MOST_SECONDS:
        raise ConfigError(
            f"fair rules at {table} seats on {rules.tiles} tiles scored by {rules.scoring.value} would take "
            f"about {seconds / 60:,.0f} minutes, past the {MOST_SECONDS // 60} a search may take: ask fewer "
            f"seats ({setting('table')}), fewer tiles ({setting('tiles')}) or another scoring ({setting('scoring')})."
        )
    return FairRules(rules, table, variants(rules, table))
