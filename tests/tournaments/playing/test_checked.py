"""A host's answers checked by lookup, many turns at once: each turn ends where the general engine
ends it when asked those answers on those dice, and a turn whose answers are missing or not
allowed is not vouched for."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutbox_cli.game import Rules, play_turn
from shutbox_cli.game.dice import PAIRS
from shutbox_cli.game.terms import Mask
from shutbox_cli.game.turn import IllegalDecision
from tournaments.playing.checked import UNVOUCHED, turn_ends


class _Missing(Exception):
    """The turn asked for more answers than it was given."""


class _Answers:
    """A chooser answering from a list, in order (the general engine judges each answer)."""

    def __init__(self, answers: Sequence[int]) -> None:
        self.answers: Iterator[int] = iter(answers)

    def _next(self) -> int:
        try:
            return next(self.answers)
        except StopIteration:
            raise _Missing from None

    def choose_dice(self, open_mask: Mask, history: object = ()) -> int:
        return self._next()

    def choose_move(self, open_mask: Mask, dice: object, moves: tuple[Mask, ...], history: object = ()) -> Mask:
        return self._next()


def engine_end(rules: Rules, dealt: bytes, answers: Sequence[int]) -> int:
    """Where the general engine ends the turn, or UNVOUCHED where it meets a missing or wrong answer."""
    try:
        return play_turn(rules, iter(PAIRS[outcome] for outcome in dealt), _Answers(answers)).open_mask
    except (IllegalDecision, _Missing):
        return UNVOUCHED


class _Playing:
    """A chooser that answers legally from drawn choices, with now and then a wrong answer."""

    def __init__(self, picks: Iterator[int], wrong: Iterator[int]) -> None:
        self.picks, self.wrong = picks, wrong

    def choose_dice(self, open_mask: Mask, history: object = ()) -> int:
        return next(self.wrong, None) or 1 + next(self.picks, 0) % 2

    def choose_move(self, open_mask: Mask, dice: object, moves: tuple[Mask, ...], history: object = ()) -> Mask:
        return next(self.wrong, None) or moves[next(self.picks, 0) % len(moves)]


class _Recording:
    def __init__(self, chooser: _Playing) -> None:
        self.chooser, self.answers = chooser, list[int]()

    def choose_dice(self, open_mask: Mask, history: object = ()) -> int:
        self.answers.append(self.chooser.choose_dice(open_mask))
        return self.answers[-1] if self.answers[-1] in (1, 2) else 1

    def choose_move(self, open_mask: Mask, dice: object, moves: tuple[Mask, ...], history: object = ()) -> Mask:
        self.answers.append(self.chooser.choose_move(open_mask, dice, moves))
        return self.answers[-1] if self.answers[-1] in moves else moves[0]


@pytest.mark.slow
@settings(max_examples=25, derandomize=True, deadline=None)
@given(
    rules=st.from_type(Rules),
    turns=st.lists(
        st.tuples(
            st.lists(st.integers(0, 35), min_size=13, max_size=13),
            st.lists(st.integers(0, 20), max_size=26),
            st.lists(st.sampled_from([0, 0, 0, 0, 0, 0, 3, 1 << 12, 5000, 1 << 15]), max_size=26),
            st.integers(-2, 3),
        ),
        min_size=1,
        max_size=12,
    ),
)
def test_turns_end_where_the_general_engine_ends_them(
    rules: Rules, turns: list[tuple[list[int], list[int], list[int], int]]
) -> None:
    width = rules.tiles + 1
    dealt = [bytes(outcomes[:width]) for outcomes, _, _, _ in turns]
    answers: list[list[int]] = []
    for rolls, (_, picks, wrong, cut) in zip(dealt, turns, strict=True):
        recording = _Recording(_Playing(iter(picks), iter(wrong)))
        with contextlib.suppress(IllegalDecision):
            play_turn(rules, iter(PAIRS[outcome] for outcome in rolls), recording)
        given = recording.answers
        answers.append(given[: len(given) + cut] if cut < 0 else given + [2] * cut)
    counts = [len(given) for given in answers]
    flat = [answer for given in answers for answer in given]
    ends = [engine_end(rules, rolls, given) for rolls, given in zip(dealt, answers, strict=True)]
    rolls = np.frombuffer(b"".join(dealt), dtype=np.uint8).reshape(-1, width)
    found = turn_ends(rules, rolls, np.array(counts, dtype=np.intp), np.array(flat, dtype=np.int64))
    assert found.tolist() == ends


def test_a_last_turn_that_runs_out_of_answers_where_it_must_say_its_dice_is_not_vouched_for() -> None:
    """A box of two tiles may roll one die or two: a turn with no answer left there is not vouched
    for, the turns before it are, and nothing past the batch's answers is read."""
    rules = Rules(tiles=2)
    width = rules.tiles + 1
    dealt = np.zeros((2, width), dtype=np.uint8)  # double ones: one die shuts tile 1, then the box is 2
    answers = [1, 1]  # the first turn: one die, then one die again (1 cannot shut tile 2: it ends there)
    first = engine_end(rules, bytes(dealt[0]), answers)
    found = turn_ends(rules, dealt, np.array([2, 0], dtype=np.intp), np.array(answers, dtype=np.int64))
    assert found.tolist() == [first, UNVOUCHED]
    assert first != UNVOUCHED
