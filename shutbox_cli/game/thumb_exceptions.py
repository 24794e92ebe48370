"""The exceptions to a rule of thumb: the few decisions where playing as a reference policy does (the
optimum, normally) instead of as the rule gains the most, found greedily and scored exactly.

An exception is one decision as a person meets it at the table: a box and a roll (every throw
with the same legal moves there: under the "any" shut rule, the throws of one total), where the
rule plays one move and the reference another; or a box where the two roll different numbers of
dice. Each round ranks the exceptions the sheet's play so far (the rule and the exceptions found)
could take by the loss their states carry in the performance-difference identity (`exact_regret`:
the chance the sheet's own play reaches a state, times what its choice costs there by the
reference's values), takes the first whose gain is at least `least` (an exception may gain less
than its loss, or nothing, where the play after it is the rule's), and plays it from then on: the
next round ranks them again under that play. It stops at `most` exceptions, or when no exception
carries `least` of loss. Each exception's `gain` is the exact change in value it makes, so the
gains add up to the value of the sheet less the rule's.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Sequence

from .box import dice_options
from .exact_regret import Decision, decisions, policy_values
from .moves import THROW_INDEX, THROWS, move_table
from .rule_of_thumb import RuleOfThumb
from .rules import Rules
from .solver import DicePolicy, MovePolicy
from .terms import Mask

LEAST_GAIN = 1e-4
"""The least an exception must gain to be kept, in the utility's units (a ten-thousandth of a point
of expected score): a smaller one is not worth remembering at the table."""


@dataclasses.dataclass(frozen=True)
class Override:
    """An exception to the rule: on the box `mask`, after any of `throws` (none: the choice of how
    many dice to roll), play `instead` (the mask of the tiles to shut, or a number of dice), not the
    rule's choice `rule`. `gain` is the exact value it adds to the sheet's play with the exceptions
    before it; `loss` what its states carried in the identity then; `reach` the chance that play
    meets it (reaches the box and throws one of `throws`)."""

    mask: Mask
    throws: tuple[tuple[int, ...], ...]
    rule: int
    instead: int
    gain: float
    loss: float
    reach: float


@dataclasses.dataclass(frozen=True)
class SheetPlay:
    """How a person playing by a sheet plays: the rule of thumb, but for its exceptions."""

    rules: Rules
    rule: RuleOfThumb
    overrides: tuple[Override, ...] = ()

    def move(self, open_mask: Mask, dice: tuple[int, ...]) -> Mask:
        """The move for a throw (the solver's MovePolicy)."""
        throw = THROW_INDEX[dice]
        found = self._instead.get((open_mask, THROWS[throw]))
        return open_mask & ~self._rule_leaves[open_mask][throw] if found is None else found

    def dice(self, open_mask: Mask) -> int:
        """The number of dice rolled from a box (the solver's DicePolicy)."""
        found = self._instead.get((open_mask, None))
        return self.rule.choose_dice(open_mask, self.rules) if found is None else found

    def value(self, terminal: Sequence[float]) -> float:
        """The exact value of this play from a full box, for what ending on each box is worth."""
        return policy_values(self.rules, self.move, self.dice, terminal)[self.rules.full_box]

    def widened(self, found: Override) -> SheetPlay:
        """This play with one more exception."""
        return dataclasses.replace(self, overrides=(*self.overrides, found))

    @functools.cached_property
    def _instead(self) -> dict[tuple[Mask, tuple[int, ...] | None], int]:
        return {(found.mask, throw): found.instead for found in self.overrides for throw in found.throws or (None,)}

    @functools.cached_property
    def _rule_leaves(self) -> list[list[int]]:
        """The box each throw leaves by the rule (`move_choices`), looked up at every decision."""
        from .thumb_search import move_choices  # numpy, loaded where a sheet is played

        leaves: list[list[int]] = move_choices(self.rules, self.rule).tolist()
        return leaves


def find_overrides(
    play: SheetPlay,
    reference: tuple[MovePolicy, DicePolicy],
    terminal: Sequence[float],
    most: int,
    least: float = LEAST_GAIN,
) -> SheetPlay:
    """The play with up to `most` exceptions added greedily (module docstring), each playing as
    `reference` (a MovePolicy and a DicePolicy) does; `terminal[mask]` is what ending a turn on
    each box is worth (higher better: minus the score for the expected score)."""
    move, dice = reference
    reference_values = policy_values(play.rules, move, dice, terminal)
    value = play.value(terminal)
    tried: set[tuple[Mask, tuple[tuple[int, ...], ...]]] = set()
    while len(play.overrides) < most:
        for found in _candidates(play, reference, reference_values, terminal, least):
            if (found.mask, found.throws) in tried:
                continue
            tried.add((found.mask, found.throws))
            gained = play.widened(found).value(terminal) - value
            if gained >= least and gained > 0:
                play, value = play.widened(dataclasses.replace(found, gain=gained)), value + gained
                break
        else:
            break
    return play


def _candidates(
    play: SheetPlay,
    reference: tuple[MovePolicy, DicePolicy],
    reference_values: Sequence[float],
    terminal: Sequence[float],
    least: float,
) -> list[Override]:
    """The exceptions the play could take (their gain not known yet), their states' rows of the
    identity merged, carrying at least `least` of loss, the most first (on equal loss, the higher
    box first, the dice before the throws, in `THROWS` order)."""
    rows = decisions(play.rules, play.move, play.dice, reference_values, terminal, *reference)
    table = move_table(play.rules)
    merged: dict[tuple[Mask, tuple[int, ...] | None, int, int], list[Decision]] = {}
    for row in rows:
        legal = None if row.throw is None else table.moves(row.mask, row.throw)
        merged.setdefault((row.mask, legal, row.played, row.best), []).append(row)
    found = [_override(play.rules, group, reference[0]) for group in merged.values()]
    return sorted((one for one in found if one.loss >= least), key=lambda one: -one.loss)


def _override(rules: Rules, rows: list[Decision], reference: MovePolicy) -> Override:
    """The exception of the identity's rows of one decision (a box and a roll): for a move, every
    throw the rules allow there with the same legal moves, for which the reference plays the same
    (with one die or two, whichever is rolled)."""
    first = rows[0]
    throws: tuple[tuple[int, ...], ...] = ()
    if first.throw is not None:
        table, rolled = move_table(rules), dice_options(rules, first.mask)
        legal = table.moves(first.mask, first.throw)
        throws = tuple(
            throw
            for throw in THROWS
            if len(throw) in rolled
            and table.moves(first.mask, throw) == legal
            and reference(first.mask, throw) == first.best
        )
    loss, reach = math.fsum(row.loss for row in rows), math.fsum(row.reach for row in rows)
    return Override(first.mask, throws, first.played, first.best, 0.0, loss, reach)


def total_gain(overrides: Sequence[Override]) -> float:
    """The exceptions' gains added up: the sheet's value less the rule's."""
    return math.fsum(found.gain for found in overrides)
