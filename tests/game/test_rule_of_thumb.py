"""Rules of thumb and their search: the built-in heuristics are rules of thumb that play exactly as
the strategies do; the search's choices and exact values agree with the rule asked move by move and
with an independent expectation in fractions; the search is the same every time and its best
beats every built-in."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from shutbox_cli.game import THROWS, Rules, dice_options, distribution, move_table, score
from shutbox_cli.game.rule_of_thumb import BUILT_IN_RULES, RuleOfThumb
from shutbox_cli.game.thumb_search import dice_limits, move_choices, rule_search, score_terminal, values
from strategies.builtin import FewestTiles, GreedyHigh, LowestFirst, MostTiles, Tips
from strategies.table import policy_table

STRATEGIES = {
    "greedy-high": GreedyHigh,
    "fewest-tiles": FewestTiles,
    "most-tiles": MostTiles,
    "lowest-first": LowestFirst,
    "tips": Tips,
}
RULE_SETS = {
    "default": Rules(),
    "one-tile": Rules(shut_rule="one-tile"),
    "dice-or-total": Rules(shut_rule="dice-or-total"),
    "one die off": Rules(one_die="off"),
    "compulsory": Rules(one_die_mode="compulsory"),
    "5 tiles": Rules(tiles=5),
    "2-to-go": Rules(first_roll="2-to-go"),
}


@pytest.mark.parametrize("rules", RULE_SETS.values(), ids=RULE_SETS.keys())
@pytest.mark.parametrize("name", STRATEGIES)
def test_a_built_in_heuristic_is_the_rule_of_thumb_it_is_said_to_be(name: str, rules: Rules) -> None:
    table = policy_table(STRATEGIES[name](), rules, name, {})
    rule = BUILT_IN_RULES[name]
    moves = move_table(rules)
    for mask in range(1, rules.full_box + 1):
        options = dice_options(rules, mask)
        if len(options) > 1:
            assert rule.choose_dice(mask, rules) == table.dice_count(mask), (mask, "dice")
        for throw in THROWS:
            if len(throw) in options and len(moves.moves(mask, throw)) > 1:
                assert rule.choose_move(mask, throw, rules) == table.move(mask, throw), (mask, throw)


@pytest.mark.parametrize("rules", RULE_SETS.values(), ids=RULE_SETS.keys())
def test_the_searchs_choices_are_the_rules_asked_move_by_move(rules: Rules) -> None:
    rules = Rules(**{**rules.to_mapping(), "tiles": min(rules.tiles, 7)})  # 7 tiles: every rule still matters
    for rule in [*BUILT_IN_RULES.values(), RuleOfThumb(("keep-low", "most-left"), "lower-set")]:
        after = move_choices(rules, rule)
        for mask in range(1, rules.full_box + 1):
            for index, throw in enumerate(THROWS):
                legal = move_table(rules).moves(mask, throw)
                if len(THROWS[index]) in dice_options(rules, mask):
                    expected = mask & ~rule.choose_move(mask, throw, rules) if legal else mask
                    assert after[mask, index] == expected, (rule, mask, throw)


@cache
def _expected(rules: Rules, rule: RuleOfThumb, mask: int) -> Fraction:
    """The rule's expected score from a box, in fractions, by recursion over the throws."""
    count = rule.choose_dice(mask, rules)
    faces = range(1, 7)
    throws = [(face,) for face in faces] if count == 1 else [(a, b) for a in faces for b in faces]
    total = Fraction(0)
    for throw in throws:
        legal = move_table(rules).moves(mask, tuple(sorted(throw)))
        if not legal:
            total += score(rules, mask)
        else:
            total += _expected(rules, rule, mask & ~rule.choose_move(mask, tuple(sorted(throw)), rules))
    return total / len(throws) if mask else Fraction(0)


@pytest.mark.parametrize("rules", [Rules(tiles=4), Rules(tiles=5, shut_rule="one-tile")])
def test_every_searched_value_is_the_rules_expected_score_worked_out_apart(rules: Rules) -> None:
    found = rule_search(rules)
    assert len(found) > 10
    for scored in found:
        assert -scored.value == pytest.approx(float(_expected(rules, scored.rule, rules.full_box)), abs=1e-12)


@pytest.mark.slow
def test_on_nine_tiles_the_best_rules_value_is_its_exact_distributions() -> None:
    rules = Rules()
    found = rule_search(rules)
    for scored in found[:5]:
        move, dice = scored.rule.policy(rules)
        assert -scored.value == pytest.approx(distribution(rules, move, dice).expected_score, abs=1e-9)


@pytest.mark.slow
def test_the_search_is_the_same_every_time_and_its_best_beats_every_built_in() -> None:
    rules = Rules()
    first, again = rule_search(rules), rule_search(rules)
    assert [(one.rule, one.value) for one in first] == [(one.rule, one.value) for one in again]
    best = -first[0].value
    for rule in BUILT_IN_RULES.values():
        assert best <= distribution(rules, *rule.policy(rules)).expected_score + 1e-12
    # Under the default rules no short rule beats fewest-tiles: it is found, with its own dice.
    assert first[0].rule == BUILT_IN_RULES["fewest-tiles"]
    assert -first[0].value == pytest.approx(11.188298252526794, abs=1e-12)


def test_every_way_of_choosing_the_dice_is_tried_once() -> None:
    assert dice_limits(Rules()) == (None, 0, *range(1, 21))  # boxes of 1 to 6 open: totals 1 to 21
    assert dice_limits(Rules(one_die="off")) == (None,)
    assert dice_limits(Rules(one_die_mode="compulsory")) == (None,)
    rules = Rules(tiles=4)
    rule = BUILT_IN_RULES["fewest-tiles"]
    worth = values(rules, move_choices(rules, rule), score_terminal(rules), dice_limits(rules))
    expected = [
        distribution(rules, *RuleOfThumb(rule.criteria, rule.tie_break, limit).policy(rules)).expected_score
        for limit in dice_limits(rules)
    ]
    assert np.allclose(-worth, expected, atol=1e-12)


def test_a_rule_says_itself_in_words() -> None:
    rule = BUILT_IN_RULES["greedy-high"]
    assert rule.name == "highest-tile, fewest-tiles, higher-set; one die when allowed"
    assert repr(rule) == "<RuleOfThumb highest-tile, fewest-tiles, higher-set; one die when allowed>"
    assert rule.lines(Rules()) == [
        "Shut the highest tile you can.",
        "Of those, shut as few tiles as you can.",
        "Of those, shut the set with the higher tiles (compare the highest, then the next).",
        "Roll one die whenever the rules allow it.",
    ]
    assert (
        BUILT_IN_RULES["tips"].lines(Rules(one_die="off"))[-1]
        == "Of those, shut the set with the higher tiles (compare the highest, then the next)."
    )
    assert RuleOfThumb((), "lower-set", 0).lines(Rules())[-1] == "Always roll two dice."
    assert RuleOfThumb(("most-tiles",), "higher-set", 4).lines(Rules())[-1] == (
        "Roll one die when the rules allow it and the open tiles add up to 4 or less."
    )


@pytest.mark.parametrize(
    ("criteria", "tie_break", "limit", "message"),
    [
        (("highest",), "higher-set", 6, "unknown criteria of a rule of thumb: highest."),
        ((), "higher", 6, "unknown criteria of a rule of thumb: higher."),
        ((), "higher-set", -1, "a rule of thumb's one-die total is 0 or more, not -1."),
    ],
)
def test_a_rule_of_unknown_criteria_is_refused_in_one_sentence(
    criteria: tuple[str, ...], tie_break: str, limit: int, message: str
) -> None:
    with pytest.raises(ValueError) as raised:
        RuleOfThumb(criteria, tie_break, limit)
    assert str(raised.value) == message
