"""Every game played out on a small box: each turn ended every way it can (every dice sequence),
each game every way `play_game` plays it, depth first; the exact walks are checked against it."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache

import pytest

from shutbox_cli.game import (
    Rules,
    Solution,
    TurnContext,
    TurnOdds,
    TurnRecord,
    dice_options,
    exact_turn_odds,
    game_odds,
    mask_of,
    play_game,
    score,
    tiles_of,
)
from shutbox_cli.game.exact_seats import KeyedTurns
from shutbox_cli.game.moves import move_table
from strategies.base import CONTEXT_VIEW, shown_view
from strategies.solved import Target

F = Fraction
Outcomes = list[tuple[TurnRecord, Fraction]]


def by_score(turns: Callable[[TurnContext], Outcomes]) -> Callable[[TurnContext], Outcomes]:
    """A turn's outcomes with those of the same score as one (all a drop-out game reads of a turn)."""

    @cache
    def merged(context: TurnContext) -> Outcomes:
        found: dict[int, tuple[TurnRecord, Fraction]] = {}
        for record, chance in turns(context):
            known = found.get(record.score)
            found[record.score] = (record, chance) if known is None else (known[0], known[1] + chance)
        return list(found.values())

    return merged


def exact_odds(rules: Rules, solution: Solution) -> TurnOdds[Fraction]:
    return exact_turn_odds(rules, solution.best_move, solution.best_dice)


TurnChoice = tuple[Callable[[int], int], Callable[[int, tuple[int, ...], tuple[int, ...]], int]]
"""How dice and moves are chosen in a turn: (open mask -> dice) and (open mask, dice, moves -> move)."""


def every_turn(rules: Rules, choose: TurnChoice) -> Outcomes:
    """Every way a turn can end, playing every dice sequence from a full box: one record per score
    left (and one for a shut box), with its chance."""
    table = move_table(rules)
    ends: dict[int, Fraction] = {}

    def walk(mask: int, chance: Fraction) -> None:
        options = dice_options(rules, mask)
        count = choose[0](mask) if len(options) > 1 else options[0]
        throws = [(a,) for a in range(1, 7)] if count == 1 else [(a, b) for a in range(1, 7) for b in range(1, 7)]
        for dice in throws:
            moves = table.moves(mask, dice)
            if not moves:
                ends[mask] = ends.get(mask, F(0)) + chance / len(throws)
                continue
            move = moves[0] if len(moves) == 1 else choose[1](mask, tuple(sorted(dice)), moves)
            assert move in moves
            if mask & ~move:
                walk(mask & ~move, chance / len(throws))
            else:
                ends[0] = ends.get(0, F(0)) + chance / len(throws)

    walk(rules.full_box, F(1))
    return [(TurnRecord((), mask, score(rules, mask)), chance) for mask, chance in ends.items()]


def fixed_turns(rules: Rules, solution: Solution) -> Callable[[TurnContext], Outcomes]:
    outcomes = every_turn(rules, (solution.best_dice, lambda mask, dice, moves: solution.best_move(mask, dice)))
    return lambda context: outcomes


def target_turns(rules: Rules) -> Callable[[TurnContext], Outcomes]:
    """target's turns, each asked of it with the whole context of the turn (as a view shows it unkeyed)."""
    strategy = Target()

    def view(mask: int, dice: tuple[int, ...] | None, moves: tuple[int, ...], context: TurnContext) -> object:
        legal = tuple(tiles_of(move) for move in moves)
        return shown_view(CONTEXT_VIEW, rules, tiles_of(mask), dice, legal, mask, (), context)

    @cache
    def turns(context: TurnContext) -> Outcomes:
        return every_turn(
            rules,
            (
                lambda mask: strategy.choose_dice(view(mask, None, (), context)),  # type: ignore[arg-type]
                lambda mask, dice, moves: mask_of(strategy.choose_move(view(mask, dice, moves, context))),  # type: ignore[arg-type]
            ),
        )

    return turns


class _Cut(Exception):
    """A branch too unlikely to follow."""


class _Branch:
    """One path down the tree of turn outcomes: the choices of a known prefix, then the first."""

    def __init__(self, plays: list[Callable[[TurnContext], Outcomes]], prefix: list[int], smallest: Fraction):
        self.plays, self.prefix, self.smallest = plays, prefix, smallest
        self.taken: list[int] = []
        self.sizes: list[int] = []
        self.chance = F(1)

    def play(self, context: TurnContext) -> TurnRecord:
        options = self.plays[context.player](context)
        choice = self.prefix[len(self.taken)] if len(self.taken) < len(self.prefix) else 0
        self.taken.append(choice)
        self.sizes.append(len(options))
        self.chance *= options[choice][1]
        if self.chance < self.smallest:
            raise _Cut
        return options[choice][0]

    def next_prefix(self) -> list[int] | None:
        """The prefix of the next branch depth first (None when this was the last)."""
        taken, sizes = list(self.taken), list(self.sizes)
        while taken and taken[-1] + 1 == sizes[-1]:
            taken.pop()
            sizes.pop()
        return [*taken[:-1], taken[-1] + 1] if taken else None


def every_game(
    rules: Rules, plays: list[Callable[[TurnContext], Outcomes]], smallest: Fraction
) -> tuple[list[Fraction], Fraction, dict[int, Fraction]]:
    """Play every game `play_game` can play, each turn ending every way it can, depth first,
    cutting branches less likely than `smallest`: each seat's chance of winning among the games
    played out, the chance of the branches cut, and (two seats) the distribution of seat 0's
    total minus seat 1's."""
    wins = [F(0)] * len(plays)
    margins: dict[int, Fraction] = {}
    cut = F(0)
    prefix: list[int] | None = []
    while prefix is not None:
        branch = _Branch(plays, prefix, smallest)
        try:
            record = play_game(rules, len(plays), branch.play)
            for winner in record.winners:
                wins[winner] += branch.chance / len(record.winners)
            if len(plays) == 2:
                margin = record.totals[0] - record.totals[1]
                margins[margin] = margins.get(margin, F(0)) + branch.chance
        except _Cut:
            cut += branch.chance
        prefix = branch.next_prefix()
    return wins, cut, margins


def assert_unchanging_seats_are_the_engines(
    rules: Rules, features: tuple[str, ...], odds: list[TurnOdds[Fraction]]
) -> None:
    """Seats keyed on `features` whose turns never change (`odds`, by seat): the walk over both
    totals gives `game_odds`'s fractions, every figure; in floats the same to rounding."""
    keyed = [KeyedTurns(features, lambda key, one=one: one) for one in odds]
    assert game_odds(rules, keyed) == game_odds(rules, odds)
    rounded = [
        TurnOdds({points: float(chance) for points, chance in one.probabilities.items()}, float(one.shut_probability))
        for one in odds
    ]
    walked = game_odds(rules, [KeyedTurns(features, lambda key, one=one: one) for one in rounded])
    engine = game_odds(rules, rounded)
    assert walked.arithmetic == "float"
    assert walked.wins == pytest.approx(engine.wins, abs=1e-12)
    assert float(walked.rounds) == pytest.approx(float(engine.rounds), rel=1e-9)
    assert [seat.expected_total for seat in walked.seats] == pytest.approx(
        [seat.expected_total for seat in engine.seats], rel=1e-9
    )
