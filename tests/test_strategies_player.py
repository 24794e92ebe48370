"""A strategy seated at the table: every answer is checked, and a bad one stops the game with a
message naming the strategy, the open tiles, the dice and the answer."""

from __future__ import annotations

import pytest

from shutbox_cli.game import Rules, play_turn
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
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer if self.answer is not None else view.legal_moves[0]  # type: ignore[return-value]

    def choose_dice(self, view: View) -> int:
        return self.dice  # type: ignore[return-value]


def play(strategy: Strategy, rolls: list[tuple[int, int]]) -> None:
    play_turn(STANDARD, iter(rolls + [(1, 1)] * 30), StrategyPlayer(strategy, STANDARD, "my-bot"))


@pytest.mark.parametrize(("answer", "problem"), [
    ((2, 6), "answered with something other than one of the legal moves"),
    ("9", "answered with something other than one of the legal moves"),
    ([9, 0], "answered with something other than one of the legal moves"),
    (ValueError("no idea"), "raised ValueError: no idea"),
])
def test_a_bad_move_stops_the_turn_naming_strategy_tiles_dice_and_answer(answer: object, problem: str) -> None:
    with pytest.raises(StrategyError) as caught:
        play(Answers(answer), [(4, 5)])
    message = str(caught.value)
    assert message.startswith(f"strategy 'my-bot' {problem} with open tiles 1 2 3 4 5 6 7 8 9 and dice 4+5")
    if not isinstance(answer, Exception):
        assert message.endswith(f"it answered {answer!r}.")


def test_a_set_in_any_order_is_the_move_it_names() -> None:
    play(Answers([5, 4]), [(4, 5)])


@pytest.mark.parametrize("dice", [3, 0, True, "1"])
def test_a_number_of_dice_other_than_one_or_two_stops_the_turn(dice: object) -> None:
    with pytest.raises(StrategyError, match=r"chose a number of dice other than 1 or 2 .*dice not rolled yet"):
        play(Answers(None, dice), [(4, 5), (4, 4), (3, 4), (1, 5), (2, 3), (1, 3)])


def test_a_context_free_strategy_is_asked_once_per_box_and_roll() -> None:
    strategy = Answers()
    player = StrategyPlayer(strategy, STANDARD)
    for _ in range(5):
        play_turn(STANDARD, iter([(4, 5)] + [(6, 6)] * 5), player.start_turn(SOLO_CONTEXT, 1, 0))
    assert strategy.asked == 3  # 9 on the full box, then two choices for 12; the last 12 has one move
