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
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from shutbox_cli.game import Rules, Ties, distribution, solve_expected_score, tiles_of
from shutbox_cli.game.exact_regret import policy_values
from shutbox_cli.game.rule_of_thumb import BUILT_IN_RULES, RuleOfThumb
from shutbox_cli.game.thumb_exceptions import Override, SheetPlay, find_overrides, total_gain
from shutbox_cli.game.thumb_search import rule_search, score_terminal

from ..errors import ConfigError, TournamentFailure, marked
from ..records.schema import header, rules_table
from .turns import refuse_stakes

if TYPE_CHECKING:  # a user's strategy is seated in a host: only a run of one loads that code
    from ..referee.seated import SeatedStrategy

Measure = Literal["expected-score", "win-rate"]
DEFAULT_EXCEPTIONS = 5
"""The exceptions a sheet lists when not told: a handful, as many as a person keeps in mind."""
MOST_EXCEPTIONS = 100
"""The most exceptions a sheet may be asked for (a page, not a table of every state)."""


@dataclasses.dataclass(frozen=True)
class Figures:
    """A way of playing's exact expected score and chance of shutting the box, from a full box, and
    against an opponent its chance of winning one game (both seats averaged; None alone)."""

    expected_score: float
    shut_probability: float
    win_rate: float | None = None


@dataclasses.dataclass(frozen=True)
class CheatSheet:
    """A sheet of `strategy` (the play it approximates) under `rules` (a turn's): its `rule` (the
    name of the built-in heuristic it is, `built_in`, if one), the `exceptions` found (up to
    `asked`), and the exact figures of the rule alone (`rule_figures`), of the rule with its
    exceptions (`sheet_figures`), of the strategy and of the best play (`optimal`); `built_ins`,
    each built-in heuristic's expected score. Against an `opponent` (its spec `opponent_spec`),
    `rules` are the game's and the measure is the chance of winning one game against it."""

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
    opponent: str | None = None
    opponent_spec: str | None = None

    def __repr__(self) -> str:
        from ..briefly import brief, counted

        sheet, rule, strategy = (
            self.value(found) for found in (self.sheet_figures, self.rule_figures, self.strategy_figures)
        )
        figures = (
            f"expected score {sheet:.4f} (the rule {rule:.4f}, {self.strategy} {strategy:.4f})"
            if self.opponent is None
            else f"wins {sheet:.2%} (the rule {rule:.2%}, {self.strategy} {strategy:.2%})"
        )
        return brief(
            "CheatSheet",
            f"of {self.strategy}" + ("" if self.opponent is None else f" against {self.opponent}"),
            f"{self.built_in or self.rule.name} and {counted(len(self.exceptions), 'exception')}",
            figures,
        )

    @property
    def measure(self) -> Measure:
        """What the rule and the exceptions are chosen by: the expected score, or against an
        opponent the chance of winning."""
        return "expected-score" if self.opponent is None else "win-rate"

    def value(self, figures: Figures) -> float:
        """A way of playing's figure in the measure."""
        return figures.expected_score if figures.win_rate is None else figures.win_rate

    @property
    def gap(self) -> float:
        """How much better the strategy does than the rule alone, in the measure (a turn's points,
        or a chance of winning)."""
        rule, strategy = self.value(self.rule_figures), self.value(self.strategy_figures)
        return rule - strategy if self.opponent is None else strategy - rule

    @property
    def gained(self) -> float:
        """What the exceptions add to the rule alone, in the measure: their gains added up."""
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
            "measure": self.measure,
            **({} if self.opponent is None else {"opponent": self.opponent, "opponent_spec": self.opponent_spec}),
            "rules": rules_table(self.rules),
            "rule": rule,
            "exceptions_asked": self.asked,
        }
        report["figures"] = {
            name: {
                "mean_score": figures.expected_score,
                "shut_rate": figures.shut_probability,
                **({} if figures.win_rate is None else {"win_rate": figures.win_rate}),
            }
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


def cheat_sheet(
    seated: SeatedStrategy, exceptions: int = DEFAULT_EXCEPTIONS, against: SeatedStrategy | None = None
) -> CheatSheet:
    """The cheat sheet of an exact strategy (normally `optimal`) under the turn rules it is seated
    for, with up to `exceptions` exceptions (module docstring); `against` an exact opponent seated
    for the same rules, for the chance of winning one game against it (both seats averaged, the
    game's options in force). Raises ConfigError for a strategy that does not play from the box and
    the dice alone, a game that cannot be computed so or a count out of range, TournamentFailure
    for a strategy that fails."""
    from strategies.loading import StrategyLoadError
    from strategies.player import StrategyError

    if isinstance(exceptions, bool) or not isinstance(exceptions, int) or not 0 <= exceptions <= MOST_EXCEPTIONS:
        raise ConfigError(f"a sheet lists 0 to {MOST_EXCEPTIONS} exceptions, not {exceptions!r}.")
    refuse_stakes(seated.rules, "a sheet")
    for one in (seated,) if against is None else (seated, against):
        _refuse_inexact(one)
    try:
        table = seated.table
        terminal = score_terminal(seated.rules).tolist() if against is None else _win_terminal(seated.rules, against)
    except (StrategyError, StrategyLoadError) as error:
        raise TournamentFailure(marked(error)) from None
    rules = seated.rules.turn_rules
    rule = rule_search(rules, terminal)[0].rule
    play = find_overrides(SheetPlay(rules, rule), (table.move, table.dice_count), terminal, exceptions)
    best = solve_expected_score(rules)
    wins = None if against is None else terminal
    return CheatSheet(
        seated.name,
        seated.spec,
        rules if against is None else seated.rules,
        rule,
        next((name for name, built in BUILT_IN_RULES.items() if _same_play(rules, built, rule)), None),
        play.overrides,
        exceptions,
        _figures(rules, rule.policy(rules), wins),
        _figures(rules, (play.move, play.dice), wins),
        _figures(rules, (table.move, table.dice_count), wins),
        _figures(rules, (best.best_move, best.best_dice), wins),
        {name: _figures(rules, built.policy(rules)).expected_score for name, built in BUILT_IN_RULES.items()},
        None if against is None else against.name,
        None if against is None else against.spec,
    )


def _refuse_inexact(seated: SeatedStrategy) -> None:
    """A ConfigError for a strategy a sheet cannot follow (or play against): one not exact."""
    if not seated.exact:
        why = "it is stochastic" if seated.context_free else "it reads the game"
        raise ConfigError(
            f"a cheat sheet follows strategies that play from the box and the dice alone; {seated.name!r} "
            f"does not ({why}): ask for the sheet of optimal, or of an exact strategy."
        )


def _win_terminal(rules: Rules, against: SeatedStrategy) -> list[float]:
    """What ending a turn with each box is worth against `against` in one game of these rules: the
    chance of winning, each seat's weighted by the chance of playing its turn, the seats averaged
    (`utilities`: the exact walk's)."""
    from .turns import seat_turns
    from .utilities import utilities

    if rules.multi_round or rules.ties is Ties.PLAYOFF:
        raise ConfigError(
            "a cheat sheet against an opponent is of a game of one round whose ties are shared or settled by "
            "seat; over several rounds, in drop-out or with playoffs a turn's worth depends on more than its box."
        )
    rival = [seat_turns(against, False, 2)]
    worth = [0.0] * (rules.full_box + 1)
    for seat in (0, 1):
        for key in utilities(rules, (), rival, seat):
            for mask, value in enumerate(key.utility):
                worth[mask] += key.chance * value / 2
    return worth


def _figures(rules: Rules, policy: tuple[Any, Any], wins: Sequence[float] | None = None) -> Figures:
    """A policy's exact figures; with `wins`, the worth of each final box, its chance of winning too."""
    found = distribution(rules, *policy)
    win = None if wins is None else policy_values(rules, *policy, wins)[rules.full_box]
    return Figures(found.expected_score, found.shut_probability, win)


def _same_play(rules: Rules, one: RuleOfThumb, other: RuleOfThumb) -> bool:
    """Whether two rules of thumb play alike under these rules (a built-in found by the search)."""
    from shutbox_cli.game.thumb_search import canonical_limit, move_choices

    same_moves = bool((move_choices(rules, one) == move_choices(rules, other)).all())
    return same_moves and canonical_limit(rules, one.one_die_up_to) == canonical_limit(rules, other.one_die_up_to)
