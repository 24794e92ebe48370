"""The encoding of a decision for learning agents: every legal move and number of dice has an
action and back, the mask is the rules' legal answers, and the observation reads the box, the roll
and the context as docs/rl.md's table says (numpy alone: no extra needed)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from shutbox_cli.game import Rules, TurnContext, dice_options, legal_moves
from shutbox_cli.game.moves import THROWS
from strategies.encoding import encoding


@pytest.mark.slow
@given(st.from_type(Rules), st.data())
def test_the_mask_is_the_rules_legal_answers_and_each_action_maps_back(rules: Rules, data: st.DataObject) -> None:
    coded = encoding(rules)
    box = data.draw(st.integers(1, rules.full_box))
    throw = data.draw(st.sampled_from(THROWS))
    legal = legal_moves(rules, box, throw)
    mask = coded.action_mask(box, throw)
    assert sorted(coded.move_of(int(action)) or 0 for action in np.flatnonzero(mask)) == sorted(legal)
    assert all(coded.action_of_move(move) == coded.moves.index(move) for move in legal)
    before = coded.action_mask(box, None)
    assert sorted(coded.dice_of(int(action)) or 0 for action in np.flatnonzero(before)) == sorted(
        dice_options(rules, box)
    )
    observed = coded.observe(box, throw)
    assert np.all(coded.low <= observed) and np.all(observed <= coded.high)


def test_a_full_box_rolled_nine_has_its_eight_moves_and_the_dice_read_lowest_first() -> None:
    coded = encoding(Rules())
    assert len(coded.moves) == 63 and coded.actions == 65
    assert int(coded.action_mask(Rules().full_box, (6, 3)).sum()) == 8
    shown = coded.describe(coded.observe(Rules().full_box, (6, 3)))
    assert (shown["phase"], shown["die_1"], shown["die_2"], shown["roll"], shown["score"]) == (1, 3, 6, 9, 45)


def test_one_die_is_an_action_only_once_the_high_tiles_are_shut() -> None:
    coded = encoding(Rules())
    assert not coded.action_mask(0b101000010, None)[coded.one_die]  # 2, 7 and 9 open: two dice only
    allowed = coded.action_mask(0b000100011, None)  # 1, 2 and 6 open
    assert allowed[coded.one_die] and allowed[coded.two_dice]
    assert coded.describe(coded.observe(0b000100011, None))["one_die"] == 1
    assert coded.describe(coded.observe(0b000100011, (4,)))["die_2"] == 0


def test_the_context_is_read_from_the_player_deciding() -> None:
    coded = encoding(Rules(), players=3)
    context = TurnContext(2, 1, 0, False, (7, None, None), (0, 0, 0), (True, True, True))
    shown = coded.describe(coded.observe(0b1111, (2, 2), context))
    assert shown["players"] == 3 and shown["seat"] == 1 and shown["to_beat"] == 7
    assert (shown["to_beat_count"], shown["to_come"], shown["leader_total"]) == (1, 1, 0)
    assert coded.describe(coded.observe(0b1111, None))["to_beat"] == -1


def test_the_page_lists_every_field_of_the_observation_in_order() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text()
    rows = re.findall(r"^\| (`[A-Za-z_0-9]+`(?:(?:, | \.\.\. )`[A-Za-z_0-9]+`)*) \|", page, flags=re.MULTILINE)
    listed = [name for row in rows for name in re.findall(r"`([A-Za-z_0-9]+)`", row)]
    fields = list(encoding(Rules(tiles=4)).fields)
    assert listed[listed.index("tile_1") :] == ["tile_1", "tile_N", *fields[4:]]
