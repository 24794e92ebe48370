"""Reading typed tiles at the play prompt, checking them against the box and the roll, drawing the box, the hint."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.text import Text

from shutbox_cli.face.play.aims import aim_for
from shutbox_cli.face.play.board import one_die_refusal, tile_rows
from shutbox_cli.face.play.entry import EntryError, check_selection, extend_selection, read_tiles
from shutbox_cli.face.play.hints import move_hint
from shutbox_cli.face.play.wrap import wrap
from shutbox_cli.game import Rules, ShutRule, legal_moves, mask_of, tiles_of
from strategies.base import SOLO_CONTEXT

RULES = Rules()


@pytest.mark.parametrize("text", ["3 6", "3,6", "3+6", " 3 + 6 ", "3, 6", "36", "6 3"])
def test_every_accepted_form_reads_the_same_tiles(text: str) -> None:
    assert sorted(read_tiles(text, Rules(tiles=9))) == [3, 6]


def test_long_boxes_read_whole_numbers_not_digits() -> None:
    assert read_tiles("12", Rules(tiles=12)) == (12,)
    assert read_tiles("2 10", Rules(tiles=12)) == (2, 10)
    assert read_tiles("12", Rules(tiles=9)) == (1, 2)
    assert read_tiles("10", Rules(tiles=9)) == (10,)  # refused later as a tile not on the box, not as tiles 1 and 0


@pytest.mark.parametrize(
    ("text", "tiles", "message"),
    [
        ("1" + "0" * 5000, 9, "There is no tile 100000000...: the box has tiles 1 to 9."),
        ("9" * 5000, 12, "There is no tile 999999999...: the box has tiles 1 to 12."),
        ("9" * 23, 9, "There is no tile 999999999...: the box has tiles 1 to 9."),  # not nine 9s typed twice
        ("12345", 4, "There is no tile 12345: the box has tiles 1 to 4."),
        ("120", 12, "There is no tile 120: the box has tiles 1 to 12."),
    ],
)
def test_numbers_too_long_for_any_tile_are_refused_in_one_short_sentence(text: str, tiles: int, message: str) -> None:
    with pytest.raises(EntryError) as raised:
        read_tiles(text, Rules(tiles=tiles))
    assert str(raised.value) == message


def test_leading_zeros_do_not_change_a_tile() -> None:
    assert read_tiles("007 12", Rules(tiles=12)) == (7, 12)
    assert read_tiles("000", Rules(tiles=12)) == (0,)  # refused later as a tile not on the box


@pytest.mark.parametrize("text", ["seven", "3-6", "3.6", "-3", "3 x", "٣"])
def test_gibberish_is_one_sentence_naming_the_accepted_forms(text: str) -> None:
    with pytest.raises(EntryError, match=r"^Type the tiles to shut as numbers, such as 3 6, 3,6, 3\+6 or 36;"):
        read_tiles(text, Rules(tiles=9))


def check(open_tiles: tuple[int, ...], dice: tuple[int, ...], typed: tuple[int, ...], rules: Rules = RULES):
    mask = mask_of(open_tiles)
    return check_selection(rules, mask, dice, legal_moves(rules, mask, dice), typed)


def test_a_legal_move_is_complete() -> None:
    selection = check(tuple(range(1, 10)), (3, 6), (6, 3))
    assert selection.complete and selection.tiles == (3, 6)


@pytest.mark.parametrize(
    ("open_tiles", "dice", "typed", "message"),
    [
        ((1, 2, 3, 4, 5, 6, 7, 8, 9), (3, 6), (10,), "There is no tile 10: the box has tiles 1 to 9."),
        ((1, 2, 3, 4, 5, 6, 7, 8, 9), (3, 6), (0,), "There is no tile 0: the box has tiles 1 to 9."),
        ((1, 2, 4, 5, 6, 7, 8, 9), (3, 6), (3, 6), "Tile 3 is already shut."),
        ((1, 2, 3, 4, 5, 6, 7, 8, 9), (3, 6), (4, 4), "Tile 4 is typed twice; each tile can be shut only once."),
        ((1, 2, 3, 4, 5, 6, 7, 8, 9), (3, 6), (4, 8), "4 + 8 make 12, which is more than 9."),
        ((1, 2, 3, 4, 5, 6, 7, 8, 9), (3, 4), (8,), "8 is more than 7."),
        ((1, 2, 9), (3, 4), (1, 2), "No combination for 7 includes 1 + 2; ? lists them."),
    ],
)
def test_each_mistake_is_named_in_one_sentence(open_tiles, dice, typed, message) -> None:
    with pytest.raises(EntryError) as raised:
        check(open_tiles, dice, typed)
    assert str(raised.value) == message


def test_a_good_start_is_incomplete_with_its_running_sum() -> None:
    selection = check(tuple(range(1, 10)), (3, 6), (3,))
    assert not selection.complete and selection.total == 3


def test_rule_variants_explain_why_a_right_sum_is_refused() -> None:
    two_to_go = Rules(first_roll="2-to-go")
    with pytest.raises(EntryError, match=r"^The first shut of a turn must include the 2 \(2-to-go\)"):
        check(tuple(range(1, 10)), (3, 6), (9,), two_to_go)
    dice_or_total = Rules(shut_rule=ShutRule.DICE_OR_TOTAL)
    with pytest.raises(EntryError, match=r"shut the 9, or the 3 and the 6, not 4 \+ 5\.$"):
        check(tuple(range(1, 10)), (3, 6), (4, 5), dice_or_total)
    one_tile = Rules(shut_rule=ShutRule.ONE_TILE)
    assert check(tuple(range(1, 10)), (3, 6), (3,), one_tile).complete
    with pytest.raises(EntryError, match=r"single tile matching 3 or 6 or 9"):
        check(tuple(range(1, 10)), (3, 6), (4, 5), one_tile)


def extend(started: tuple[int, ...], typed: tuple[int, ...]):
    full = RULES.full_box
    return extend_selection(RULES, full, (3, 6), legal_moves(RULES, full, (3, 6)), mask_of(started), typed)


def test_typed_tiles_add_to_a_started_selection() -> None:
    assert extend((3,), (6,)).tiles == (3, 6)
    assert extend((3,), (6,)).complete
    assert not extend((1,), (2,)).complete  # 1 + 2, 6 still needed


def test_retyping_the_whole_move_starts_afresh_and_a_wrong_addition_is_refused() -> None:
    assert extend((3,), (3, 6)).tiles == (3, 6)
    with pytest.raises(EntryError, match=r"^3 \+ 4 \+ 5 make 12, which is more than 9\.$"):
        extend((3,), (4, 5))


@pytest.mark.slow
@given(st.from_type(Rules), st.data())
def test_every_legal_move_typed_in_any_order_is_accepted_and_nothing_else_is_complete(rules: Rules, data) -> None:
    open_mask = data.draw(st.integers(1, rules.full_box))
    count = data.draw(st.sampled_from((1, 2)))
    dice = tuple(data.draw(st.integers(1, 6)) for _ in range(count))
    moves = legal_moves(rules, open_mask, dice)
    typed = tuple(data.draw(st.permutations(tiles_of(data.draw(st.integers(1, rules.full_box))))))
    try:
        selection = check_selection(rules, open_mask, dice, moves, typed)
    except EntryError as error:
        assert str(error).endswith(".") and "\n" not in str(error)
        assert mask_of(typed) not in moves
        return
    assert selection.complete == (selection.mask in moves)
    if not selection.complete:
        assert any(move & selection.mask == selection.mask for move in moves)
    for move in moves:
        assert check_selection(rules, open_mask, dice, moves, tuple(reversed(tiles_of(move)))).complete


def test_the_box_row_shows_open_tiles_in_brackets_shut_ones_as_dashes_and_the_score() -> None:
    assert tile_rows(RULES, mask_of((1, 2, 9)))[0].plain == "  [1] [2]  -   -   -   -   -   -  [9]   score 12"
    [row] = [line.plain for line in tile_rows(Rules(tiles=12), mask_of((3, 10)))]
    assert row == "    -    -  [ 3]   -    -    -    -    -    -  [10]   -    -    score 13"


@pytest.mark.parametrize(
    ("rules", "sentence"),
    [
        (Rules(), "One die is not allowed yet: it needs every tile from 7 up to be shut."),
        (Rules(tiles=12), "One die is not allowed yet: it needs the open tiles to add up to 6 or less."),
        (Rules(one_die="off"), "One die is never allowed: these rules always use two dice."),
    ],
)
def test_asking_for_one_die_too_early_says_when_it_will_be_allowed(rules: Rules, sentence: str) -> None:
    assert one_die_refusal(rules) == sentence


def test_the_hint_puts_the_best_move_first_and_lines_up_values_of_any_size() -> None:
    rules = Rules(scoring="digits")
    lines = move_hint(aim_for(rules, SOLO_CONTEXT), rules.full_box, (1, 4))
    assert lines[0].startswith("Hint: shut 5. ")
    rows = lines[1:]
    assert len(rows) == 3 and rows[0].split()[0] == "5" and rows[0].endswith("  best")
    assert len({len(row.removesuffix("  best")) for row in rows}) == 1


def wrapped(line: str, width: int) -> list[str]:
    return [piece.plain for piece in wrap(Text(line), width)]


def test_long_lines_break_between_words_and_after_commas_never_inside_a_sum() -> None:
    line = "Combinations for 12: 12, 1 + 11, 1 + 2 + 9, 1 + 2 + 3 + 6."
    assert wrapped(line, 30) == ["Combinations for 12: 12,", "1 + 11, 1 + 2 + 9,", "1 + 2 + 3 + 6."]
    assert wrapped("Robo rolls 3 + 6 = 9 and shuts 4 + 5.", 16) == ["Robo rolls", "3 + 6 = 9 and", "shuts 4 + 5."]
    assert wrapped("Type the tiles to shut as 3 6, 3,6 or 36.", 28) == ["Type the tiles to shut as", "3 6, 3,6 or 36."]
    assert wrapped(line, 80) == [line]


def test_a_group_wider_than_the_terminal_stands_alone_and_a_prompt_keeps_its_last_space() -> None:
    assert wrapped("shut 1 + 2 + 3 + 6 now", 6) == ["shut", "1 + 2 + 3 + 6", "now"]
    assert wrapped("Shut tiles for 12: 1 + 2 + ", 12) == ["Shut tiles", "for 12:", "1 + 2 + "]
    assert wrapped("  1 + 2 + 4 + 5   51.48  best", 20) == ["  1 + 2 + 4 + 5", "  51.48  best"]


def test_a_row_of_tiles_too_wide_for_the_terminal_breaks_between_tiles_each_in_its_column() -> None:
    rules = Rules(tiles=12)
    rows = tile_rows(rules, mask_of((3, 10)), width=30)
    assert [row.plain for row in rows] == [
        "    -    -  [ 3]   -    -",
        "    -    -    -    -  [10]",
        "    -    -    score 13",
    ]
    assert [span.style for span in rows[0].spans if rows[0].plain[span.start : span.end] == "[ 3]"] == ["bold"]
    assert [row.plain for row in tile_rows(rules, mask_of(range(1, 13)), width=40)] == [
        "  [ 1] [ 2] [ 3] [ 4] [ 5] [ 6] [ 7]",
        "  [ 8] [ 9] [10] [11] [12]   score 78",
    ]
    assert len(tile_rows(rules, mask_of((3, 10)), width=80)) == 1
