"""A strategy seated at the table: every answer is checked, and a bad one stops the game with a
message naming the strategy, the open tiles, the dice and the answer."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from shutbox_cli.game import Rules, move_table, play_turn
from strategies import Move, Strategy, StrategyError, StrategyPlayer, View
from strategies.base import SOLO_CONTEXT

STANDARD = Rules()


class Answers(Strategy):
    """Answers the first roll with whatever it is given; counts the questions."""

    name = "answers"

    def __init__(self, answer: object = None, dice: object = 2) -> None:
        self.answer, self.dice, self.asked = answer, dice, 0

    def choose_move(self, view: View) -> Move:
        self.asked += 1
        if isinstance(self.answer, BaseException):
            raise self.answer
        return self.answer if self.answer is not None else view.legal_moves[0]  # type: ignore[return-value]

    def choose_dice(self, view: View) -> int:
        return self.dice  # type: ignore[return-value]


def play(strategy: Strategy, rolls: list[tuple[int, int]]) -> None:
    play_turn(STANDARD, iter(rolls + [(1, 1)] * 30), StrategyPlayer(strategy, STANDARD, "my-bot"))


class WholeNumber:
    """A whole number that is not an int, as numpy's integers are."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"WholeNumber({self.value})"


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        ((2, 6), "answered with something other than one of the legal moves"),
        ("9", "answered with something other than one of the legal moves"),
        ([9, 0], "answered with something other than one of the legal moves"),
        (9, "answered with something other than one of the legal moves"),
        ((9.0,), "answered with something other than one of the legal moves"),
        ((True, 8), "answered with something other than one of the legal moves"),
        ({9: "nine"}, "answered with something other than one of the legal moves"),
    ],
)
def test_a_bad_move_stops_the_turn_naming_strategy_tiles_dice_and_answer(answer: object, problem: str) -> None:
    with pytest.raises(StrategyError) as caught:
        play(Answers(answer), [(4, 5)])
    assert str(caught.value) == (
        f"strategy 'my-bot' {problem} with open tiles 1 2 3 4 5 6 7 8 9 and dice 4+5: it answered {answer!r}; "
        "the legal moves are 9, 1+8, 2+7, 3+6, 4+5, 1+2+6, 1+3+5, 2+3+4."
    )


def line_of(code: str) -> int:
    """The number of the line of this file holding `code` (the frame a failing strategy's message ends with)."""
    return next(number for number, line in enumerate(Path(__file__).read_text().splitlines(), 1) if code in line)


RAISE_LINE = line_of("raise self.answer")


def test_a_strategy_that_raises_stops_the_turn_with_its_error_and_its_own_frames() -> None:
    with pytest.raises(StrategyError) as caught:
        play(Answers(ValueError("no idea")), [(4, 5)])
    assert str(caught.value) == (
        "strategy 'my-bot' raised an error with open tiles 1 2 3 4 5 6 7 8 9 and dice 4+5: ValueError: no idea.\n"
        f'  File "{__file__}", line {RAISE_LINE}, in choose_move\n'
        "    raise self.answer"
    )


def test_a_strategy_that_calls_sys_exit_stops_the_turn_and_not_the_program() -> None:
    with pytest.raises(StrategyError) as caught:
        play(Answers(SystemExit(3)), [(4, 5)])
    assert str(caught.value).splitlines()[0] == (
        "strategy 'my-bot' called sys.exit(3) with open tiles 1 2 3 4 5 6 7 8 9 and dice 4+5: "
        "a strategy must answer, not end the program."
    )


@pytest.mark.parametrize("answer", [[5, 4], {4, 5}, (WholeNumber(4), WholeNumber(5))])
def test_a_set_of_whole_numbers_in_any_order_is_the_move_it_names(answer: object) -> None:
    record = play_turn(STANDARD, iter([(4, 5), (1, 1), (1, 1)]), StrategyPlayer(Answers(answer), STANDARD))
    assert record.rolls[0].shut_tiles == (4, 5)


@pytest.mark.parametrize("dice", [3, 0, True, "1", 1.0])
def test_a_number_of_dice_other_than_one_or_two_stops_the_turn(dice: object) -> None:
    with pytest.raises(StrategyError, match=r"chose a number of dice other than 1 or 2 .*dice not rolled yet"):
        play(Answers(None, dice), [(4, 5), (4, 4), (3, 4), (1, 5), (2, 3), (1, 3)])


def test_a_whole_number_of_dice_is_taken_as_an_int() -> None:
    player = StrategyPlayer(Answers(None, WholeNumber(1)), Rules(tiles=6))  # one die allowed from the start
    count = player.choose_dice(Rules(tiles=6).full_box)
    assert (count, type(count)) == (1, int)


class Sneaky(Strategy):
    def choose_move(self, view: View) -> Move:
        return self.rng.choice(view.legal_moves)


RNG_LINE = line_of("return self.rng.choice(view.legal_moves)")


def test_only_a_stochastic_strategy_gets_a_random_generator() -> None:
    with pytest.raises(StrategyError) as caught:
        play(Sneaky(), [(4, 5)])
    assert str(caught.value).splitlines()[:2] == [
        "strategy 'my-bot' used self.rng without declaring stochastic = True, with open tiles 1 2 3 4 5 6 7 8 9 "
        "and dice 4+5: add `stochastic = True` to its class (the engine then gives it self.rng, seeded apart from "
        "the dice).",
        f'  File "{__file__}", line {RNG_LINE}, in choose_move',
    ]


def test_a_context_free_strategy_is_asked_once_per_box_and_roll() -> None:
    strategy = Answers()
    player = StrategyPlayer(strategy, STANDARD)
    for _ in range(5):
        play_turn(STANDARD, iter([(4, 5)] + [(6, 6)] * 5), player.start_turn(SOLO_CONTEXT, 1, 0))
    assert strategy.asked == 3  # 9 on the full box, then two choices for 12; the last 12 has one move


class Recorder(Strategy):
    """Takes the first legal move and keeps every view it is shown."""

    def __init__(self) -> None:
        self.views: list[View] = []

    def choose_move(self, view: View) -> Move:
        self.views.append(view)
        return view.legal_moves[0]


def test_a_throw_in_either_order_is_one_question_shown_lowest_first() -> None:
    strategy = Recorder()
    player = StrategyPlayer(strategy, STANDARD)
    full = STANDARD.full_box
    first = player.choose_move(full, (5, 2), move_table(STANDARD).moves(full, (5, 2)))
    second = player.choose_move(full, (2, 5), move_table(STANDARD).moves(full, (2, 5)))
    assert first == second and len(strategy.views) == 1
    assert strategy.views[0].dice == (2, 5) and strategy.views[0].roll == 7


def test_the_view_carries_the_open_mask_and_cannot_be_changed() -> None:
    strategy = Recorder()
    player = StrategyPlayer(strategy, STANDARD)
    box = 0b100010011  # tiles 1 2 5 9
    player.choose_move(box, (4, 4), move_table(STANDARD).moves(box, (4, 4)))
    shown = strategy.views[0]
    assert (shown.open_tiles, shown.open_mask, shown.open_sum) == ((1, 2, 5, 9), box, 17)
    with pytest.raises(dataclasses.FrozenInstanceError):
        shown.open_mask = 0  # type: ignore[misc]


def test_a_view_made_without_the_mask_works_it_out_from_the_tiles() -> None:
    made = View(STANDARD, (1, 2, 5, 9), None, (), (), SOLO_CONTEXT)
    assert (made.open_mask, made.open_sum, made.dice_options) == (0b100010011, 17, (2,))
    assert made == View(STANDARD, (1, 2, 5, 9), None, (), (), SOLO_CONTEXT, open_mask=0b100010011)


class Reads(Strategy):
    """Reads one part of the view that only a context-reading strategy may read; stochastic, so
    it is asked in play."""

    stochastic = True

    def __init__(self, part: str = "context") -> None:
        self.part = part

    def choose_move(self, view: View) -> Move:
        if self.part == "context":
            return view.legal_moves[view.context.seat]
        return view.legal_moves[len(view.turn)]


@pytest.mark.parametrize("part", ["context", "turn"])
def test_a_strategy_that_reads_the_game_without_declaring_it_is_stopped(part: str) -> None:
    with pytest.raises(StrategyError) as caught:
        play(Reads(part), [(4, 5)])
    assert str(caught.value).splitlines() == [
        f"strategy 'my-bot' read view.{part} without declaring reads_context = True, with open tiles "
        "1 2 3 4 5 6 7 8 9 and dice 4+5: add `reads_context = True` to its class (a strategy that reads the "
        "game is simulated, not analysed exactly).",
        f'  File "{__file__}", line {line_of(f"view.{part}.seat]" if part == "context" else "len(view.turn)")}, '
        "in choose_move",
        "    "
        + (
            "return view.legal_moves[view.context.seat]"
            if part == "context"
            else "return view.legal_moves[len(view.turn)]"
        ),
    ]


@pytest.mark.parametrize(("part", "second"), [("context", (6,)), ("turn", (1, 5))])
def test_a_strategy_declaring_it_reads_the_game_sees_the_context_and_the_turn(part: str, second: Move) -> None:
    reader = type("Reader", (Reads,), {"reads_context": True})(part)
    record = play_turn(STANDARD, iter([(4, 5), (3, 3), (1, 1), (1, 1)]), StrategyPlayer(reader, STANDARD))
    assert record.rolls[0].shut_tiles == (9,)  # seat 0 of a solo game, and no roll before it: the first move
    # for 6 with 9 shut: the first move again at seat 0; the second after one roll of the turn
    assert record.rolls[1].shut_tiles == second


def test_a_context_free_view_hides_the_game_but_compares_and_shows_the_decision() -> None:
    strategy = Recorder()
    player = StrategyPlayer(strategy, STANDARD)
    full = STANDARD.full_box
    player.choose_move(full, (4, 5), move_table(STANDARD).moves(full, (4, 5)))
    shown = strategy.views[-1]
    assert isinstance(shown, View) and getattr(shown, "context", None) is None and not hasattr(shown, "turn")
    again = dataclasses.replace(View(STANDARD, shown.open_tiles, (4, 5), shown.legal_moves, (), SOLO_CONTEXT))
    assert {shown: 1}[shown] == 1 and shown != again
    assert "legal_moves=((9,), (1, 8)" in repr(shown) and "context" not in repr(shown)
