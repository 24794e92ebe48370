"""Dice streams and turns: the dice a seat meets depend only on its key, and every turn
played under any rules shuts only legal sets, ends exactly when it should and scores right."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, islice

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutbox_cli.game import (
    IllegalDecision,
    Roll,
    Rules,
    Turn,
    TurnRecord,
    derive_seed,
    draw_seed,
    finish_turn,
    legal_moves,
    mask_of,
    play_turn,
    tiles_of,
    turn_rolls,
)

FULL_9 = mask_of(range(1, 10))


def take(stream: object, count: int) -> list[tuple[int, int]]:
    return list(islice(stream, count))  # type: ignore[call-overload]


# --- dice streams ----------------------------------------------------------------------------


def test_same_key_same_dice() -> None:
    assert take(turn_rolls(42, 3, 1, 2), 50) == take(turn_rolls(42, 3, 1, 2), 50)


@pytest.mark.parametrize("other", [(43, 3, 1, 2), (42, 4, 1, 2), (42, 3, 2, 2), (42, 3, 1, 3), (2, 3, 1, 42)])
def test_every_part_of_the_key_changes_the_dice(other: tuple[int, int, int, int]) -> None:
    assert take(turn_rolls(42, 3, 1, 2), 30) != take(turn_rolls(*other), 30)


def test_streams_do_not_depend_on_the_order_they_are_drawn_in() -> None:
    alone = {key: take(turn_rolls(*key), 20) for key in [(1, 0, 0, 0), (1, 0, 0, 1), (1, 5, 2, 0)]}
    streams = {key: turn_rolls(*key) for key in reversed(list(alone))}
    interleaved: dict[tuple[int, ...], list[tuple[int, int]]] = {key: [] for key in alone}
    for _ in range(20):
        for key, stream in streams.items():
            interleaved[key].append(next(stream))
    assert interleaved == alone


def test_dice_are_fair_faces() -> None:
    faces = Counter(face for game in range(300) for pair in take(turn_rolls(9, game, 0, 0), 100) for face in pair)
    total = sum(faces.values())
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    spread = (total * (1 / 6) * (5 / 6)) ** 0.5
    for count in faces.values():
        assert abs(count - total / 6) < 5 * spread


@pytest.mark.slow
def test_dice_are_the_same_in_another_process() -> None:
    """Stream seeds are hashed from the key, not taken from Python's randomised hash()."""
    code = (
        "from itertools import islice; from shutbox_cli.game import turn_rolls; "
        "print(list(islice(turn_rolls(7, 1, 2, 3), 25)))"
    )
    here = repr(take(turn_rolls(7, 1, 2, 3), 25))
    for hash_seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        assert result.stdout.strip() == here


def test_derive_seed_is_a_stable_64_bit_function_of_the_key() -> None:
    assert derive_seed("dice", 1, 2) == derive_seed("dice", 1, 2)
    assert derive_seed("dice", 1, 2) != derive_seed("dice", 2, 1)
    assert all(0 <= derive_seed(index) < 2**64 for index in range(100))
    assert len({derive_seed("strategy", index) for index in range(1000)}) == 1000


def test_draw_seed_gives_a_printable_seed() -> None:
    seeds = {draw_seed() for _ in range(20)}
    assert all(isinstance(seed, int) and 0 <= seed < 10**9 for seed in seeds)
    assert len(seeds) > 1


def test_a_one_die_roll_does_not_shift_later_rolls() -> None:
    """Every roll draws a pair; one die uses its first face, so both turns meet pair 1 next."""
    rules = Rules(tiles=6)  # no tile from 7 up: one die is allowed from the first roll
    pairs = take(turn_rolls(5, 0, 0, 0), 2)
    one_die, two_dice = Turn(rules, turn_rolls(5, 0, 0, 0)), Turn(rules, turn_rolls(5, 0, 0, 0))
    assert one_die.dice_options == two_dice.dice_options == (1, 2)
    assert one_die.roll(1) == pairs[0][:1]
    assert two_dice.roll(2) == pairs[0]
    one_die.shut(one_die.moves[0])
    two_dice.shut(two_dice.moves[0])
    assert one_die.roll(2) == pairs[1]
    assert two_dice.roll(2) == pairs[1]


# --- an independent reading of the rules, for checking turns ---------------------------------


def needed_first(rules: Rules) -> int | None:
    return {"none": None, "2-to-go": 2, "3-to-go": 3}[rules.first_roll.value]


def is_legal(rules: Rules, open_tiles: set[int], dice: tuple[int, ...], shut: tuple[int, ...], first: bool) -> bool:
    """Whether shutting these tiles answers this throw, by the wording of docs/rules.md."""
    total = sum(dice)
    if not shut or not set(shut) <= open_tiles or len(set(shut)) != len(shut):
        return False
    needed = needed_first(rules)
    if first and needed is not None and needed not in shut:
        return False
    if rules.shut_rule == "any":
        return sum(shut) == total
    if rules.shut_rule == "dice-or-total":
        return shut == (total,) or (len(dice) == 2 and dice[0] != dice[1] and sorted(shut) == sorted(dice))
    return len(shut) == 1 and (shut[0] == total or shut[0] in dice)


def any_legal(rules: Rules, open_tiles: set[int], dice: tuple[int, ...], first: bool) -> bool:
    return any(
        is_legal(rules, open_tiles, dice, subset, first)
        for size in range(1, len(open_tiles) + 1)
        for subset in combinations(sorted(open_tiles), size)
    )


def one_die_allowed_here(rules: Rules, open_tiles: set[int]) -> bool:
    if rules.one_die == "high-tiles":
        return all(tile < 7 for tile in open_tiles)
    if rules.one_die == "low-sum":
        return sum(open_tiles) <= 6
    return False


def expected_score(rules: Rules, open_tiles: set[int]) -> int:
    ordered = sorted(open_tiles)
    if rules.scoring == "count":
        return len(ordered)
    if rules.scoring == "digits":
        return int("".join(map(str, ordered)) or 0)
    return sum(ordered)


class RandomChooser:
    """Makes random legal decisions, and notes when it was asked."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.asked_dice: list[int] = []
        self.asked_moves: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []

    def choose_dice(self, open_mask: int, history: Sequence[Roll]) -> int:
        self.asked_dice.append(open_mask)
        return self.rng.choice((1, 2))

    def choose_move(
        self, open_mask: int, dice: tuple[int, ...], moves: tuple[int, ...], history: Sequence[Roll]
    ) -> int:
        self.asked_moves.append((open_mask, dice, moves))
        return self.rng.choice(moves)


@pytest.mark.slow
@settings(max_examples=400)
@given(rules=st.from_type(Rules), seed=st.integers(0, 2**40), choices=st.integers(0, 2**40))
def test_every_turn_follows_the_rules(rules: Rules, seed: int, choices: int) -> None:
    pairs = take(turn_rolls(seed, 0, 0, 0), rules.tiles + 1)  # a turn rolls at most once per tile, plus once
    chooser = RandomChooser(random.Random(choices))
    record = play_turn(rules, iter(pairs), chooser)

    open_tiles = set(range(1, rules.tiles + 1))
    dice_questions = 0
    for index, roll in enumerate(record.rolls):
        allowed = one_die_allowed_here(rules, open_tiles)
        if allowed and rules.one_die_mode == "optional":
            dice_questions += 1
            assert len(roll.dice) in (1, 2)
        else:
            assert len(roll.dice) == (1 if allowed else 2)
        assert roll.dice == pairs[index][: len(roll.dice)]
        last = index == len(record.rolls) - 1
        if roll.shut:
            assert is_legal(rules, open_tiles, roll.dice, roll.shut_tiles, first=index == 0)
            open_tiles -= set(roll.shut_tiles)
            assert bool(open_tiles) != last  # only shutting the box ends a turn on a shut
        else:
            assert last
            assert not any_legal(rules, open_tiles, roll.dice, first=index == 0)
    assert record.open_tiles == tuple(sorted(open_tiles))
    assert record.score == expected_score(rules, open_tiles)
    assert record.shut_box == (not open_tiles)
    assert len(chooser.asked_dice) == dice_questions
    for open_mask, dice, moves in chooser.asked_moves:
        assert len(moves) > 1
        assert moves == legal_moves(rules, open_mask, dice)


# --- worked examples played through ----------------------------------------------------------


class ShutsTheTotal:
    """Always shuts the single tile equal to the roll, and rolls two dice."""

    def choose_dice(self, open_mask: int, history: Sequence[Roll]) -> int:
        return 2

    def choose_move(
        self, open_mask: int, dice: tuple[int, ...], moves: tuple[int, ...], history: Sequence[Roll]
    ) -> int:
        return mask_of((sum(dice),))


def test_open_1_4_6_then_an_eight_ends_the_turn_on_11() -> None:
    rolls = [(4, 5), (4, 4), (3, 4), (2, 3), (1, 2), (1, 1), (2, 6), (6, 6)]
    record = play_turn(Rules(), iter(rolls), ShutsTheTotal())
    assert [roll.shut_tiles for roll in record.rolls] == [(9,), (8,), (7,), (5,), (3,), (2,), ()]
    assert record.rolls[-1] == Roll((2, 6), 0)
    assert record.open_tiles == (1, 4, 6)
    assert record.score == 11 and not record.shut_box


def test_open_1_2_9_then_a_seven_ends_the_turn_on_12() -> None:
    rolls = [(4, 4), (3, 4), (3, 3), (2, 3), (2, 2), (1, 2), (3, 4)]
    record = play_turn(Rules(), iter(rolls), ShutsTheTotal())
    assert record.open_tiles == (1, 2, 9)
    assert record.score == 12
    assert len(record.rolls) == 7 and record.rolls[-1].shut == 0


def test_shutting_the_box_ends_the_turn_on_zero() -> None:
    rolls = [(4, 5), (4, 4), (3, 4), (3, 3), (2, 3), (1, 3), (3, 3), (1, 6)]
    record = play_turn(Rules(one_die="off"), iter(rolls), ShutsTheTotal())
    assert record.shut_box and record.score == 0 and record.open_tiles == ()
    assert len(record.rolls) == 7  # no roll after the last tile
    assert record.rolls[-1] == Roll((3, 3), mask_of((1, 2, 3)))


def test_three_to_go_without_a_three_ends_the_turn_at_once() -> None:
    record = play_turn(Rules(first_roll="3-to-go"), iter([(1, 1), (4, 5)]), ShutsTheTotal())
    assert record.rolls == (Roll((1, 1), 0),)
    assert record.score == 45


def test_a_turn_record_is_immutable() -> None:
    record = play_turn(Rules(), iter([(4, 5), (1, 1), (1, 1)]), ShutsTheTotal())
    assert isinstance(record, TurnRecord)
    with pytest.raises(AttributeError):
        record.score = 0  # type: ignore[misc]
    assert hash(record) == hash(play_turn(Rules(), iter([(4, 5), (1, 1), (1, 1)]), ShutsTheTotal()))


# --- the step-by-step Turn --------------------------------------------------------------------


def test_turn_steps_and_refuses_out_of_order_calls() -> None:
    turn = Turn(Rules(), iter([(1, 1), (1, 1)]))
    assert turn.open_mask == FULL_9 and not turn.over and turn.dice is None
    with pytest.raises(RuntimeError):
        turn.shut(mask_of((2,)))
    with pytest.raises(RuntimeError):
        turn.record()
    assert turn.roll() == (1, 1)
    assert turn.moves == (mask_of((2,)),)
    with pytest.raises(RuntimeError):
        turn.roll()
    turn.shut(mask_of((2,)))
    assert turn.open_mask == FULL_9 & ~mask_of((2,)) and turn.dice is None
    assert turn.roll() == (1, 1)  # 1+1 is not two distinct tiles: nothing to shut
    assert turn.over
    with pytest.raises(RuntimeError):
        turn.roll()
    with pytest.raises(RuntimeError):
        turn.shut(mask_of((1,)))
    record = turn.record()
    assert record.rolls == (Roll((1, 1), mask_of((2,))), Roll((1, 1), 0))
    assert record.score == 43


def test_illegal_dice_counts_are_refused() -> None:
    turn = Turn(Rules(), iter([(3, 4)]))
    for count in (1, 3, 0):
        with pytest.raises(IllegalDecision) as caught:
            turn.roll(count)
        assert caught.value.open_mask == FULL_9 and caught.value.dice is None and caught.value.answer == count
        assert "2" in str(caught.value)
    assert turn.roll(2) == (3, 4)


def test_compulsory_one_die_refuses_two() -> None:
    turn = Turn(Rules(tiles=6, one_die_mode="compulsory"), iter([(3, 4)]))
    assert turn.dice_options == (1,)
    with pytest.raises(IllegalDecision):
        turn.roll(2)
    assert turn.roll(1) == (3,)


def test_illegal_moves_are_refused_and_leave_the_turn_as_it_was() -> None:
    turn = Turn(Rules(), iter([(3, 4)]))
    turn.roll()
    for move in (mask_of((8,)), mask_of((1, 2, 3)), 0, mask_of((3, 4, 7)), 1 << 9):
        with pytest.raises(IllegalDecision) as caught:
            turn.shut(move)
        assert caught.value.dice == (3, 4) and caught.value.answer == move
    assert turn.open_mask == FULL_9 and turn.dice == (3, 4)
    turn.shut(mask_of((3, 4)))
    assert turn.open_mask == FULL_9 & ~mask_of((3, 4))


class Cheater(ShutsTheTotal):
    def __init__(self, dice: int = 2, move: int | None = None) -> None:
        self.dice, self.move = dice, move

    def choose_dice(self, open_mask: int, history: Sequence[Roll]) -> int:
        return self.dice

    def choose_move(
        self, open_mask: int, dice: tuple[int, ...], moves: tuple[int, ...], history: Sequence[Roll]
    ) -> int:
        return self.move if self.move is not None else moves[0]


def test_play_turn_passes_illegal_decisions_on() -> None:
    with pytest.raises(IllegalDecision):
        play_turn(Rules(), iter([(4, 5)]), Cheater(move=mask_of((8,))))
    with pytest.raises(IllegalDecision):
        play_turn(Rules(tiles=6), iter([(4, 5)]), Cheater(dice=3))
    record = play_turn(Rules(tiles=6), iter([(6, 1)] * 10), Cheater(dice=1))
    assert [roll.dice for roll in record.rolls] == [(6,)] * len(record.rolls)


@pytest.mark.parametrize("answer", [mask_of((9,)), mask_of((4, 5))])
def test_every_legal_move_is_accepted(answer: int) -> None:
    turn = Turn(Rules(), iter([(4, 5)]))
    turn.roll()
    assert answer in turn.moves
    turn.shut(answer)
    assert tiles_of(turn.history[0].shut) == tiles_of(answer)


@pytest.mark.slow
@settings(max_examples=100)
@given(rules=st.from_type(Rules), seed=st.integers(0, 2**40), choices=st.integers(0, 2**40))
def test_finish_turn_shows_every_roll_once_and_plays_like_play_turn(rules: Rules, seed: int, choices: int) -> None:
    seen: list[tuple[Roll, int, bool]] = []

    def watch(turn: Turn) -> None:
        seen.append((turn.history[-1], turn.open_mask, turn.over))

    record = finish_turn(Turn(rules, turn_rolls(seed, 1, 2, 3)), RandomChooser(random.Random(choices)), watch)
    assert [roll for roll, _, _ in seen] == list(record.rolls)
    assert [over for _, _, over in seen] == [False] * (len(seen) - 1) + [True]
    assert seen[-1][1] == record.open_mask
    same = play_turn(rules, turn_rolls(seed, 1, 2, 3), RandomChooser(random.Random(choices)))
    assert same == record


class Wayward:
    """Answers at random, now and then with a number of dice or a move the rules do not allow."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose_dice(self, open_mask: int, history: Sequence[Roll]) -> int:
        return self.rng.choice((1, 2, 2, 2, 2, 2, 3))

    def choose_move(
        self, open_mask: int, dice: tuple[int, ...], moves: tuple[int, ...], history: Sequence[Roll]
    ) -> int:
        return self.rng.choice((*moves, *moves, *moves, *moves, open_mask, 1 << 12))


def played(play: object) -> object:
    """What a way of playing a turn comes to: its record, or the illegal decision it ended in."""
    try:
        return play()  # type: ignore[operator]
    except IllegalDecision as error:
        return (str(error), error.open_mask, error.dice, error.answer)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(rules=st.from_type(Rules), seed=st.integers(0, 2**40), choices=st.integers(0, 2**40))
def test_play_turn_plays_as_a_turn_driven_step_by_step(rules: Rules, seed: int, choices: int) -> None:
    """`play_turn`, written out for speed, is `finish_turn` of a fresh `Turn`: the same record,
    and the same illegal decision, message and all, from the same answers."""
    fast = played(lambda: play_turn(rules, turn_rolls(seed, 0, 0, 0), Wayward(random.Random(choices))))
    stepped = played(lambda: finish_turn(Turn(rules, turn_rolls(seed, 0, 0, 0)), Wayward(random.Random(choices))))
    assert fast == stepped
