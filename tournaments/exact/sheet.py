"""A cheat sheet (`shutbox explain SPEC --sheet`): the simplest rule close to the best, and the few
exceptions that carry most of its loss, every figure exact.

The rule is the best of a family of short rules a person can apply at the table, by exact expected
score: the built-in heuristics and every rule of up to two criteria and a tie-break, with every
way of choosing the dice (`shutbox_cli.game.thumb_search`). The sheet approximates a strategy,
`SPEC` (normally `optimal`, the best play): its exceptions are the decisions where the rule plays
otherwise than SPEC and playing as SPEC does gains the most, found greedily
(`shutbox_cli.game.thumb_exceptions`). Against optimal, every exception gains and they close part
of the gap between the rule and the best play; against a weaker SPEC there may be none to add.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from shutbox_cli.game import Rules, distribution, solve_expected_score, tiles_of
from shutbox_cli.game.rule_of_thumb import BUILT_IN_RULES, RuleOfThumb
from shutbox_cli.game.thumb_exceptions import Override, SheetPlay, find_overrides, total_gain
from shutbox_cli.game.thumb_search import rule_search, score_terminal

from ..errors import ConfigError, TournamentFailure, marked
from ..records.schema import header, rules_table

if TYPE_CHECKING:  # a user's strategy is seated in a host: only a run of one loads that code
    from ..referee.seated import SeatedStrategy

DEFAULT_EXCEPTIONS = 5
"""The exceptions a sheet lists when not told: a handful, as many as a person keeps in mind."""
MOST_EXCEPTIONS = 100
"""The most exceptions a sheet may be asked for (a page, not a table of every state)."""


@dataclasses.dataclass(frozen=True)
class Figures:
    """A way of playing's exact expected score and chance of shutting the box, from a full box."""

    expected_score: float
    shut_probability: float


@dataclasses.dataclass(frozen=True)
class CheatSheet:
    """A sheet of `strategy` (the play it approximates) under `rules` (a turn's): its `rule` (the
    name of the built-in heuristic it is, `built_in`, if one), the `exceptions` found (up to
    `asked`), and the exact figures of the rule alone (`rule_figures`), of the rule with its
    exceptions (`sheet_figures`), of the strategy and of the best play (`optimal`); `built_ins`,
    each built-in heuristic's expected score."""

    strategy: str
    spec: str
    rules: Rules
    rule: RuleOfThumb
    built_in: str | None
    exceptions: tuple[Override, ...]
    asked: int
    rule_figures: Figures
    sheet_figures: Figures
    strategy_figures: Figures
    optimal: Figures
    built_ins: dict[str, float]

    def __repr__(self) -> str:
        from ..briefly import brief, counted

        sheet, rule = self.sheet_figures.expected_score, self.rule_figures.expected_score
        strategy = self.strategy_figures.expected_score
        return brief(
            "CheatSheet",
            f"of {self.strategy}",
            f"{self.built_in or self.rule.name} and {counted(len(self.exceptions), 'exception')}",
            f"expected score {sheet:.4f} (the rule {rule:.4f}, {self.strategy} {strategy:.4f})",
        )

    @property
    def gap(self) -> float:
        """How much more the rule alone scores than the strategy, a turn on average."""
        return self.rule_figures.expected_score - self.strategy_figures.expected_score

    @property
    def gained(self) -> float:
        """What the exceptions take off the rule's expected score: their gains added up."""
        return total_gain(self.exceptions)

    @property
    def closed(self) -> float | None:
        """The share of the gap the exceptions close (None when the rule is as good as the strategy)."""
        return self.gained / self.gap if self.gap > 0 else None

    def to_report(self) -> dict[str, Any]:
        """The sheet as a report table (docs/report.md, `kind = "sheet"`)."""
        from ..referee.confinement import report_field

        rule: dict[str, Any] = {"name": self.rule.name, "criteria": [*self.rule.criteria, self.rule.tie_break]}
        if self.rule.one_die_up_to is not None:
            rule["one_die_up_to"] = self.rule.one_die_up_to
        rule |= {"dice": self.rule.dice_name, "words": self.rule.lines(self.rules)}
        if self.built_in is not None:
            rule["built_in"] = self.built_in
        report: dict[str, Any] = {
            **header("sheet"),
            "method": "exact",
            **report_field([self.spec]),
            "arithmetic": "float",
            "strategy": self.strategy,
            "spec": self.spec,
            "measure": "expected-score",
            "rules": rules_table(self.rules),
            "rule": rule,
            "exceptions_asked": self.asked,
        }
        report["figures"] = {
            name: {"mean_score": figures.expected_score, "shut_rate": figures.shut_probability}
            for name, figures in (
                ("rule_alone", self.rule_figures),
                ("sheet", self.sheet_figures),
                ("strategy", self.strategy_figures),
                ("optimal", self.optimal),
            )
        }
        report["gained"] = self.gained
        if self.closed is not None:
            report["gap_closed"] = self.closed
        report["built_in"] = dict(self.built_ins)
        report["exception"] = [_exception(found) for found in self.exceptions]
        return report


def _exception(found: Override) -> dict[str, Any]:
    """An exception as a report's row."""
    row: dict[str, Any] = {"box": list(tiles_of(found.mask))}
    if found.throws:
        row |= {
            "choice": "move",
            "throws": [list(throw) for throw in found.throws],
            "rule_shuts": list(tiles_of(found.rule)),
            "shut": list(tiles_of(found.instead)),
        }
    else:
        row |= {"choice": "dice", "rule_dice": found.rule, "dice": found.instead}
    return row | {"gain": found.gain, "loss": found.loss, "reach": found.reach}


def cheat_sheet(seated: SeatedStrategy, exceptions: int = DEFAULT_EXCEPTIONS) -> CheatSheet:
    """The cheat sheet of an exact strategy (normally `optimal`) under the turn rules it is seated
    for, with up to `exceptions` exceptions (module docstring). Raises ConfigError for a strategy
    that does not play from the box and the dice alone or a count out of range, TournamentFailure
    for a strategy that fails."""
    from strategies.loading import StrategyLoadError
    from strategies.player import StrategyError

    if isinstance(exceptions, bool) or not isinstance(exceptions, int) or not 0 <= exceptions <= MOST_EXCEPTIONS:
        raise ConfigError(f"a sheet lists 0 to {MOST_EXCEPTIONS} exceptions, not {exceptions!r}.")
    if not seated.exact:
        why = "it is stochastic" if seated.context_free else "it reads the game"
        raise ConfigError(
            f"a cheat sheet follows a strategy that plays from the box and the dice alone; {seated.name!r} "
            f"does not ({why}): ask for the sheet of optimal, or of an exact strategy."
        )
    rules = seated.rules.turn_rules
    try:
        table = seated.table
    except (StrategyError, StrategyLoadError) as error:
        raise TournamentFailure(marked(error)) from None
    terminal = score_terminal(rules).tolist()
    rule = rule_search(rules)[0].rule
    play = find_overrides(SheetPlay(rules, rule), (table.move, table.dice_count), terminal, exceptions)
    best = solve_expected_score(rules)
    return CheatSheet(
        seated.name,
        seated.spec,
        rules,
        rule,
        next((name for name, built in BUILT_IN_RULES.items() if _same_play(rules, built, rule)), None),
        play.overrides,
        exceptions,
        _figures(rules, *rule.policy(rules)),
        _figures(rules, play.move, play.dice),
        _figures(rules, table.move, table.dice_count),
        _figures(rules, best.best_move, best.best_dice),
        {name: _figures(rules, *built.policy(rules)).expected_score for name, built in BUILT_IN_RULES.items()},
    )


def _figures(rules: Rules, move: Any, dice: Any) -> Figures:
    found = distribution(rules, move, dice)
    return Figures(found.expected_score, found.shut_probability)


def _same_play(rules: Rules, one: RuleOfThumb, other: RuleOfThumb) -> bool:
    """Whether two rules of thumb play alike under these rules (a built-in found by the search)."""
    from shutbox_cli.game.thumb_search import canonical_limit, move_choices

    same_moves = bool((move_choices(rules, one) == move_choices(rules, other)).all())
    return same_moves and canonical_limit(rules, one.one_die_up_to) == canonical_limit(rules, other.one_die_up_to)
