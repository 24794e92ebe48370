"""Legal moves, the one-die rule and scoring: the worked checks of docs/rules.md, and every
(open tiles, throw) of the 9-, 10- and 12-tile boxes against a brute-force enumeration."""

from __future__ import annotations

from itertools import combinations, product

import pytest

from shutbox_cli.game import (
    THROWS,
    Rules,
    dice_options,
    legal_moves,
    mask_of,
    move_table,
    one_die_allowed,
    score,
    tiles_of,
)
from shutbox_cli.game.moves import box_rows, row_of
from shutbox_cli.game.rules import FirstRoll, ShutRule

FULL_9 = mask_of(range(1, 10))
ALL_THROWS = [(face,) for face in range(1, 7)] + list(product(range(1, 7), repeat=2))
"""Every throw as it can come out of the cup: one die, or two dice in either order."""


def move_sets(rules: Rules, open_tiles: object, dice: tuple[int, ...]) -> set[tuple[int, ...]]:
    return {tiles_of(move) for move in legal_moves(rules, mask_of(open_tiles), dice)}


# --- the worked checks of docs/rules.md -----------------------------------------------------------


@pytest.mark.parametrize(("roll", "count"), list(zip(range(2, 13), [1, 2, 2, 3, 4, 5, 6, 8, 9, 10, 12], strict=True)))
def test_full_box_legal_set_counts_for_every_roll(roll: int, count: int) -> None:
    for dice in product(range(1, 7), repeat=2):
        if sum(dice) == roll:
            assert len(legal_moves(Rules(), FULL_9, dice)) == count


def test_full_box_roll_nine_has_eight_sets() -> None:
    expected = {(9,), (1, 8), (2, 7), (3, 6), (4, 5), (1, 2, 6), (1, 3, 5), (2, 3, 4)}
    assert move_sets(Rules(), range(1, 10), (6, 3)) == expected
    assert move_sets(Rules(), range(1, 10), (4, 5)) == expected


def test_full_box_roll_seven_has_five_sets() -> None:
    assert move_sets(Rules(), range(1, 10), (3, 4)) == {(7,), (1, 6), (2, 5), (3, 4), (1, 2, 4)}


def test_full_box_roll_eight_has_six_sets() -> None:
    expected = {(8,), (1, 7), (2, 6), (3, 5), (1, 2, 5), (1, 3, 4)}
    assert move_sets(Rules(), range(1, 10), (4, 4)) == expected
    assert move_sets(Rules(), range(1, 10), (2, 6)) == expected


def test_open_2_6_7_9_roll_eight_shuts_only_2_and_6_on_two_dice() -> None:
    rules = Rules()
    for dice in [(2, 6), (6, 2), (3, 5), (4, 4)]:
        assert move_sets(rules, (2, 6, 7, 9), dice) == {(2, 6)}
    assert not one_die_allowed(rules, mask_of((2, 6, 7, 9)))
    assert dice_options(rules, mask_of((2, 6, 7, 9))) == (2,)


def test_open_1_4_6_roll_eight_ends_the_turn_scoring_11() -> None:
    rules = Rules()
    for dice in [(2, 6), (3, 5), (4, 4)]:
        assert legal_moves(rules, mask_of((1, 4, 6)), dice) == ()
    assert score(rules, mask_of((1, 4, 6))) == 11


def test_open_1_2_9_roll_seven_ends_the_turn_scoring_12() -> None:
    rules = Rules()
    for dice in [(1, 6), (2, 5), (3, 4)]:
        assert legal_moves(rules, mask_of((1, 2, 9)), dice) == ()
    assert score(rules, mask_of((1, 2, 9))) == 12


def test_scoring_examples() -> None:
    assert score(Rules(), mask_of((1, 2, 9))) == 12
    assert score(Rules(scoring="count"), mask_of((1, 2, 9))) == 3
    assert score(Rules(scoring="digits"), mask_of((1, 2, 9))) == 129
    assert score(Rules(tiles=12, scoring="digits"), mask_of((10, 12))) == 1012
    assert score(Rules(tiles=12, scoring="digits"), mask_of((3, 11))) == 311
    assert score(Rules(tiles=12), mask_of(range(1, 13))) == 78
    for scoring in ("sum", "count", "digits"):
        assert score(Rules(scoring=scoring), 0) == 0


@pytest.mark.parametrize("tiles", [9, 10, 12])
@pytest.mark.parametrize("scoring", ["sum", "count", "digits"])
def test_every_score_follows_its_scoring(tiles: int, scoring: str) -> None:
    rules = Rules(tiles=tiles, scoring=scoring)
    for mask in range(1 << tiles):
        open_tiles = [tile for tile in range(1, tiles + 1) if mask & (1 << (tile - 1))]
        expected = {
            "sum": sum(open_tiles),
            "count": len(open_tiles),
            "digits": int("".join(str(tile) for tile in open_tiles) or 0),
        }[scoring]
        assert score(rules, mask) == expected


def test_masks_and_tiles_convert_both_ways() -> None:
    assert mask_of((1, 2, 9)) == 0b100000011
    assert tiles_of(0b100000011) == (1, 2, 9)
    assert tiles_of(0) == () and mask_of(()) == 0
    for mask in range(1 << 12):
        assert mask_of(tiles_of(mask)) == mask


# --- every (open tiles, throw) against brute force -------------------------------------------


def subsets_by_sum(open_tiles: tuple[int, ...]) -> dict[int, list[tuple[int, ...]]]:
    """Every non-empty subset of the open tiles, grouped by its sum."""
    groups: dict[int, list[tuple[int, ...]]] = {}
    for size in range(1, len(open_tiles) + 1):
        for subset in combinations(open_tiles, size):
            groups.setdefault(sum(subset), []).append(subset)
    return groups


def brute_force(shut_rule: str, open_tiles: tuple[int, ...], groups: dict, dice: tuple[int, ...]) -> set:
    """The legal sets for a throw, straight from the wording of docs/rules.md."""
    total = sum(dice)
    if shut_rule == "any":
        return set(groups.get(total, []))
    if shut_rule == "dice-or-total":
        pair_allowed = len(dice) == 2 and dice[0] != dice[1]
        return {
            subset
            for subset in groups.get(total, [])
            if len(subset) == 1 or (pair_allowed and sorted(subset) == sorted(dice))
        }
    assert shut_rule == "one-tile"
    return {(tile,) for tile in open_tiles if tile == total or tile in dice}


@pytest.mark.parametrize("tiles", [9, 10, pytest.param(12, marks=pytest.mark.slow)])
@pytest.mark.parametrize("shut_rule", ["any", "dice-or-total", "one-tile"])
def test_every_mask_and_throw_matches_brute_force(tiles: int, shut_rule: str) -> None:
    rules = Rules(tiles=tiles, shut_rule=shut_rule)
    table = move_table(rules)
    for mask in range(1 << tiles):
        open_tiles = tiles_of(mask)
        groups = subsets_by_sum(open_tiles) if shut_rule != "one-tile" else {}
        for dice in ALL_THROWS:
            moves = table.moves(mask, dice)
            found = [tiles_of(move) for move in moves]
            assert len(set(found)) == len(found), (open_tiles, dice)
            assert set(found) == brute_force(shut_rule, open_tiles, groups, dice), (open_tiles, dice)
            assert [len(move) for move in found] == sorted(len(move) for move in found)


@pytest.mark.parametrize("tiles", [9, 10, 12])
@pytest.mark.parametrize("shut_rule", ["any", "dice-or-total", "one-tile"])
@pytest.mark.parametrize(("first_roll", "needed"), [("2-to-go", 2), ("3-to-go", 3)])
def test_first_roll_rule_keeps_only_sets_with_its_tile(
    tiles: int, shut_rule: str, first_roll: str, needed: int
) -> None:
    plain = Rules(tiles=tiles, shut_rule=shut_rule)
    rules = Rules(tiles=tiles, shut_rule=shut_rule, first_roll=first_roll)
    full = rules.full_box
    for dice in ALL_THROWS:
        everything = move_sets(plain, range(1, tiles + 1), dice)
        assert move_sets(rules, range(1, tiles + 1), dice) == {move for move in everything if needed in move}
    # After the first shut the box is never full again, and every set is allowed.
    for mask in range(full):
        assert move_table(rules).row(mask) == move_table(plain).row(mask)


def test_first_roll_examples() -> None:
    two_to_go = Rules(first_roll="2-to-go")
    assert move_sets(two_to_go, range(1, 10), (3, 4)) == {(2, 5), (1, 2, 4)}
    assert move_sets(two_to_go, range(1, 10), (1, 1)) == {(2,)}
    assert move_sets(Rules(first_roll="3-to-go"), range(1, 10), (1, 1)) == set()
    assert move_sets(Rules(first_roll="3-to-go"), range(1, 10), (1, 2)) == {(3,)}


def test_dice_or_total_examples() -> None:
    rules = Rules(shut_rule="dice-or-total")
    assert move_sets(rules, range(1, 10), (6, 3)) == {(9,), (3, 6)}
    assert move_sets(rules, range(1, 10), (4, 4)) == {(8,)}
    assert move_sets(rules, range(1, 10), (6, 6)) == set()
    assert move_sets(Rules(tiles=12, shut_rule="dice-or-total"), range(1, 13), (6, 6)) == {(12,)}
    assert move_sets(rules, (3, 6), (6, 3)) == {(3, 6)}
    assert move_sets(rules, range(1, 10), (5,)) == {(5,)}


def test_one_tile_examples() -> None:
    rules = Rules(shut_rule="one-tile")
    assert move_sets(rules, range(1, 10), (6, 3)) == {(3,), (6,), (9,)}
    assert move_sets(rules, range(1, 10), (6, 6)) == {(6,)}
    assert move_sets(rules, (1, 2, 4), (6, 6)) == set()
    assert move_sets(rules, range(1, 10), (4,)) == {(4,)}


def test_move_table_rows_follow_the_throw_order() -> None:
    table = move_table(Rules())
    assert len(THROWS) == 27
    for mask in (FULL_9, mask_of((2, 6, 7, 9)), mask_of((1, 2))):
        assert table.row(mask) == tuple(table.moves(mask, throw) for throw in THROWS)


def test_move_tables_are_built_once_per_rules() -> None:
    assert move_table(Rules()) is move_table(Rules(instant_win=False, scoring="count"))


# --- the one-die rule ------------------------------------------------------------------------


@pytest.mark.parametrize("tiles", [4, 9, 10, 12])
def test_one_die_rules_over_every_mask(tiles: int) -> None:
    for mask in range(1 << tiles):
        open_tiles = tiles_of(mask)
        high_shut = all(tile < 7 for tile in open_tiles)
        low_sum = sum(open_tiles) <= 6
        for one_die, allowed in (("high-tiles", high_shut), ("low-sum", low_sum), ("off", False)):
            optional = Rules(tiles=tiles, one_die=one_die)
            compulsory = Rules(tiles=tiles, one_die=one_die, one_die_mode="compulsory")
            assert one_die_allowed(optional, mask) is allowed
            assert one_die_allowed(compulsory, mask) is allowed
            assert dice_options(optional, mask) == ((1, 2) if allowed else (2,))
            assert dice_options(compulsory, mask) == ((1,) if allowed else (2,))


def test_one_die_examples() -> None:
    assert dice_options(Rules(), mask_of((1, 2, 3, 4, 5, 6))) == (1, 2)
    assert dice_options(Rules(), mask_of((1, 7))) == (2,)
    assert dice_options(Rules(tiles=12), mask_of((1, 2, 3))) == (1, 2)
    assert dice_options(Rules(tiles=12), mask_of((1, 2, 4))) == (2,)
    assert dice_options(Rules(tiles=12, one_die="high-tiles"), mask_of((1, 2, 3, 4, 5, 6))) == (1, 2)
    assert dice_options(Rules(tiles=12, one_die="high-tiles"), mask_of((1, 12))) == (2,)
    assert dice_options(Rules(one_die="off"), mask_of((1,))) == (2,)


@pytest.mark.parametrize("shut_rule", list(ShutRule))
@pytest.mark.parametrize("first_roll", [FirstRoll.NONE, FirstRoll.THREE_TO_GO])
def test_the_moves_worked_out_as_boxes_are_met_are_the_tables(shut_rule: ShutRule, first_roll: FirstRoll) -> None:
    rules = Rules(tiles=10, shut_rule=shut_rule, first_roll=first_roll)
    table, rows = move_table(rules), box_rows(rules)
    for mask in reversed(range(rules.full_box + 1)):
        assert (rows[mask] or row_of(rules, rows, mask)) == table.row(mask) == rows[mask]
