"""The exceptions to a rule of thumb: their greedy gains add up to the exact difference between the
rule and the sheet, each gain is the exact change its exception makes, each plays as the reference
where the rule does not, and a rule that is its reference has none."""

from __future__ import annotations

import math

import pytest

from shutbox_cli.game import THROWS, Rules, dice_options, distribution, move_table, solve_expected_score
from shutbox_cli.game.rule_of_thumb import BUILT_IN_RULES, RuleOfThumb
from shutbox_cli.game.thumb_exceptions import LEAST_GAIN, SheetPlay, find_overrides, total_gain
from shutbox_cli.game.thumb_search import score_terminal

RULE_SETS = {
    "default": Rules(),
    "one-tile": Rules(shut_rule="one-tile"),
    "count, 6 tiles": Rules(tiles=6, scoring="count"),
}


def expected(rules: Rules, play: SheetPlay) -> float:
    return distribution(rules, play.move, play.dice).expected_score


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS.values(), ids=RULE_SETS.keys())
def test_the_gains_add_up_to_what_the_exceptions_take_off_the_rules_expected_score(rules: Rules) -> None:
    best = solve_expected_score(rules)
    rule = BUILT_IN_RULES["fewest-tiles"]
    play = find_overrides(SheetPlay(rules, rule), (best.best_move, best.best_dice), score_terminal(rules).tolist(), 6)
    assert play.overrides
    alone = distribution(rules, *rule.policy(rules)).expected_score
    assert total_gain(play.overrides) == pytest.approx(alone - expected(rules, play), abs=1e-9)
    for count, found in enumerate(play.overrides):  # each gain is the exact change its exception makes
        before = SheetPlay(rules, rule, play.overrides[:count])
        after = SheetPlay(rules, rule, play.overrides[: count + 1])
        assert found.gain == pytest.approx(expected(rules, before) - expected(rules, after), abs=1e-9)
        assert found.gain >= LEAST_GAIN and found.loss >= LEAST_GAIN
        assert 0 < found.reach <= 1


def test_each_exception_plays_as_the_reference_where_the_rule_does_not() -> None:
    rules = Rules()
    best = solve_expected_score(rules)
    rule = BUILT_IN_RULES["fewest-tiles"]
    play = find_overrides(SheetPlay(rules, rule), (best.best_move, best.best_dice), score_terminal(rules).tolist(), 5)
    assert len(play.overrides) == 5
    table = move_table(rules)
    for found in play.overrides:
        if not found.throws:
            assert (found.rule, found.instead) == (rule.choose_dice(found.mask, rules), best.best_dice(found.mask))
            assert play.dice(found.mask) == found.instead
            continue
        for throw in found.throws:  # one roll as a person sees it: every throw with its legal moves
            assert table.moves(found.mask, throw) == table.moves(found.mask, found.throws[0])
            assert len(throw) in dice_options(rules, found.mask)
            assert rule.choose_move(found.mask, throw, rules) == found.rule
            assert best.best_move(found.mask, throw) == found.instead == play.move(found.mask, throw)
    # Under the "any" shut rule a roll is its total: every throw of that total is in it.
    totals = {sum(throw) for found in play.overrides for throw in found.throws}
    for found in play.overrides:
        if found.throws:
            total = sum(found.throws[0])
            allowed = [throw for throw in THROWS if len(throw) in dice_options(rules, found.mask)]
            assert set(found.throws) == {throw for throw in allowed if sum(throw) == total}
    assert totals


def test_a_rule_that_plays_as_its_reference_has_no_exception() -> None:
    rules = Rules(tiles=6)
    rule = RuleOfThumb(("fewest-tiles",), "higher-set")
    play = find_overrides(SheetPlay(rules, rule), rule.policy(rules), score_terminal(rules).tolist(), 10)
    assert play.overrides == ()


def test_the_count_and_the_least_gain_bound_the_exceptions() -> None:
    rules = Rules(tiles=6, scoring="count")
    best = solve_expected_score(rules)
    reference, terminal = (best.best_move, best.best_dice), score_terminal(rules).tolist()
    rule = BUILT_IN_RULES["fewest-tiles"]
    assert find_overrides(SheetPlay(rules, rule), reference, terminal, 0).overrides == ()
    every = find_overrides(SheetPlay(rules, rule), reference, terminal, 100, least=0.0).overrides
    some = find_overrides(SheetPlay(rules, rule), reference, terminal, 2).overrides
    assert len(some) == 2 and some == every[:2]
    big = find_overrides(SheetPlay(rules, rule), reference, terminal, 100, least=0.01).overrides
    assert big and all(found.gain >= 0.01 for found in big)
    assert len(big) < len(every)
    # With no bound the sheet plays as well as the reference (the gains close the whole gap).
    gap = distribution(rules, *rule.policy(rules)).expected_score - best.value
    assert math.isclose(total_gain(every), gap, abs_tol=1e-9)
