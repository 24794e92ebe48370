"""A strategy seated at the table: every answer is checked, and a bad one stops the game with a
message naming the strategy, the open tiles, the dice and the answer, then the strategy's own
frames. A context-free strategy answers from its table, built whole on its first question; the
game's context and turn exist only for a strategy declaring it reads them."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from shutbox_cli.game import Roll, Rules, move_table, play_turn, turn_rolls
from strategies import Move, Strategy, View
from strategies.base import SOLO_CONTEXT
from strategies.loading import builtin_class, load_strategy
from strategies.player import StrategyError, StrategyPlayer

STANDARD = Rules()


def line_of(code: str) -> int:
    """The number of the line of this file holding `code` (a frame a failing strategy's message shows)."""
    return next(number for number, line in enumerate(Path(__file__).read_text().splitlines(), 1) if code in line)


class Answers(Strategy):
    """Answers every roll with whatever it is given. It declares that it reads the game, so it is
    asked in play (never tabulated) and its errors name the state of the game."""

    name = "answers"
    reads_context = True

    def __init__(self, answer: object = None, dice: object = 2) -> None:
        self.answer, self.dice = answer, dice

    def choose_move(self, view: View) -> Move:
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


class BadRepr:
    """An answer whose repr raises."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


LEGAL_FOR_9 = "the legal moves are 9, 1+8, 2+7, 3+6, 4+5, 1+2+6, 1+3+5, 2+3+4."


@pytest.mark.parametrize(
    ("answer", "shown"),
    [
        ((2, 6), "(2, 6)"),
        ("9", "'9'"),
        ([9, 0], "[9, 0]"),
        (9, "9"),
        ((9.0,), "(9.0,)"),
        ((True, 8), "(True, 8)"),
        ({9: "nine"}, "{9: 'nine'}"),
        (BadRepr(), "<BadRepr object>"),
        (tuple(range(40)), "(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, ...)"),
    ],
)
def test_a_bad_move_stops_the_turn_naming_strategy_tiles_dice_answer_and_the_legal_moves(
    answer: object, shown: str
) -> None:
    with pytest.raises(StrategyError) as caught:
        play(Answers(answer), [(4, 5)])
    assert str(caught.value) == (
        "strategy 'my-bot' answered with something other than one of the legal moves with open tiles "
        f"1 2 3 4 5 6 7 8 9 and dice 4+5: it answered {shown}; {LEGAL_FOR_9}"
    )


def test_a_strategy_that_raises_stops_the_turn_with_its_error_and_its_own_frames() -> None:
    with pytest.raises(StrategyError) as caught:
        play(Answers(ValueError("no idea")), [(4, 5)])
    assert str(caught.value) == (
        "strategy 'my-bot' raised an error with open tiles 1 2 3 4 5 6 7 8 9 and dice 4+5: ValueError: no idea.\n"
        f'  File "{__file__}", line {line_of("raise self.answer")}, in choose_move\n'
        "    raise self.answer"
    )


class Deep(Strategy):
    """Fails three calls deep, through the standard library's `sorted`."""

    def choose_move(self, view: View) -> Move:
        return self.pick(view.legal_moves)

    def pick(self, moves: tuple[Move, ...]) -> Move:
        return sorted(moves, key=self.rank)[0]

    def rank(self, move: Move) -> int:
        return len(move) // (len(move) - 1)


def test_the_frames_shown_are_the_strategys_own_innermost_last() -> None:
    with pytest.raises(StrategyError) as caught:
        StrategyPlayer(Deep(), STANDARD, "deep").policy  # noqa: B018 - building the table asks the strategy
    lines = str(caught.value).splitlines()
    assert lines[0].startswith("strategy 'deep' raised an error with open tiles ")
    assert lines[0].endswith(
        "(asked while tabulating its answers): ZeroDivisionError: integer division or modulo by zero."
    )
    assert lines[1:] == [
        f'  File "{__file__}", line {line_of("return self.pick(view.legal_moves)")}, in choose_move',
        "    return self.pick(view.legal_moves)",
        f'  File "{__file__}", line {line_of("key=self.rank)[0]")}, in pick',
        "    return sorted(moves, key=self.rank)[0]",
        f'  File "{__file__}", line {line_of("len(move) // (len(move) - 1)")}, in rank',
        "    return len(move) // (len(move) - 1)",
    ]


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no message for you")


def test_an_error_whose_message_raises_is_still_named() -> None:
    with pytest.raises(StrategyError) as caught:
        play(Answers(Unprintable()), [(4, 5)])
    assert str(caught.value).splitlines()[0] == (
        "strategy 'my-bot' raised an error with open tiles 1 2 3 4 5 6 7 8 9 and dice 4+5: "
        "Unprintable: (its message could not be shown)."
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


def test_only_a_stochastic_strategy_gets_a_random_generator() -> None:
    with pytest.raises(StrategyError) as caught:
        play(Sneaky(), [(4, 5)])
    first, *frames = str(caught.value).splitlines()
    assert first.startswith("strategy 'my-bot' used self.rng without declaring stochastic = True, with open tiles ")
    assert first.endswith(
        "(asked while tabulating its answers): add `stochastic = True` to its class "
        "(the engine then gives it self.rng, seeded apart from the dice)."
    )
    assert frames == [
        f'  File "{__file__}", line {line_of("return self.rng.choice(view.legal_moves)")}, in choose_move',
        "    return self.rng.choice(view.legal_moves)",
    ]


class Recorder(Strategy):
    """Takes the first legal move and keeps every view it is shown."""

    def __init__(self) -> None:
        self.views: list[View] = []

    def choose_move(self, view: View) -> Move:
        self.views.append(view)
        return view.legal_moves[0]


def test_a_context_free_strategy_is_asked_every_question_once_on_its_first_and_never_again() -> None:
    strategy = Recorder()
    player = StrategyPlayer(strategy, STANDARD)
    play_turn(STANDARD, turn_rolls(1, 0, 0, 0), player.start_turn(SOLO_CONTEXT, 1, 0))
    asked = [(view.open_mask, view.dice) for view in strategy.views]
    table = move_table(STANDARD)
    every = [
        (mask, dice)
        for mask in range(1, STANDARD.full_box + 1)
        for dice in sorted(
            {tuple(sorted(pair)) for pair in [(a, b) for a in range(1, 7) for b in range(1, 7)]}
            | ({(face,) for face in range(1, 7)} if mask < 1 << 6 else set()),
            key=lambda dice: (len(dice), dice),
        )
        if len(table.moves(mask, dice)) > 1
    ]
    assert asked == every  # ascending boxes, each throw once, dice lowest first, one die only where allowed
    for game in range(1, 20):
        play_turn(STANDARD, turn_rolls(1, game, 0, 0), player.start_turn(SOLO_CONTEXT, 1, game))
    assert len(strategy.views) == len(every)


def test_a_throw_in_either_order_is_one_answer() -> None:
    player = StrategyPlayer(Recorder(), STANDARD)
    full = STANDARD.full_box
    first = player.choose_move(full, (5, 2), move_table(STANDARD).moves(full, (5, 2)))
    assert first == player.choose_move(full, (2, 5), move_table(STANDARD).moves(full, (2, 5))) == 0b1000000


def test_a_tabulated_strategys_bad_answer_names_the_box_it_was_asked_about() -> None:
    class Stubborn(Strategy):
        def choose_move(self, view: View) -> Move:
            return (2, 6)

    with pytest.raises(StrategyError) as caught:
        play(Stubborn(), [(4, 5)])
    assert str(caught.value) == (
        "strategy 'my-bot' answered with something other than one of the legal moves with open tiles 1 2 3 "
        "and dice 3 (asked while tabulating its answers): it answered (2, 6); the legal moves are 3, 1+2."
    )


def test_the_view_carries_the_open_mask_and_cannot_be_changed() -> None:
    strategy = Recorder()
    StrategyPlayer(strategy, STANDARD).policy  # noqa: B018 - building the table asks the strategy
    box = 0b100001111  # tiles 1 2 3 4 9
    shown = next(view for view in strategy.views if view.open_mask == box and view.dice == (2, 3))
    assert (shown.open_tiles, shown.open_mask, shown.open_sum, shown.roll) == ((1, 2, 3, 4, 9), box, 19, 5)
    assert shown.legal_moves == ((1, 4), (2, 3))
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


@pytest.mark.parametrize(
    ("part", "code"),
    [("context", "return view.legal_moves[view.context.seat]"), ("turn", "return view.legal_moves[len(view.turn)]")],
)
def test_a_strategy_that_reads_the_game_without_declaring_it_is_stopped(part: str, code: str) -> None:
    with pytest.raises(StrategyError) as caught:
        play(Reads(part), [(4, 5)])
    assert str(caught.value).splitlines() == [
        f"strategy 'my-bot' read view.{part} without declaring reads_context = True, with open tiles "
        "1 2 3 4 5 6 7 8 9 and dice 4+5: add `reads_context = True` to its class (a strategy that reads the "
        "game is simulated, not analysed exactly).",
        f'  File "{__file__}", line {line_of(code)}, in choose_move',
        f"    {code}",
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
    StrategyPlayer(strategy, STANDARD).policy  # noqa: B018 - building the table asks the strategy
    shown = next(view for view in strategy.views if view.open_mask == STANDARD.full_box and view.dice == (4, 5))
    assert isinstance(shown, View) and getattr(shown, "context", None) is None and not hasattr(shown, "turn")
    full = View(STANDARD, shown.open_tiles, (4, 5), shown.legal_moves, (), SOLO_CONTEXT)
    assert {shown: 1}[shown] == 1 and shown != full
    assert "legal_moves=((9,), (1, 8)" in repr(shown) and "context" not in repr(shown)


class GlobalRandom(Strategy):
    """Picks with the module-level `random`, as a careless strategy might."""

    stochastic = True

    def choose_move(self, view: View) -> Move:
        return random.choice(view.legal_moves)


def test_a_stochastic_strategy_using_the_global_random_plays_each_turn_the_same_whatever_came_before() -> None:
    def first_moves(seed: int, disturb: int) -> list[Move]:
        player, found = StrategyPlayer(GlobalRandom(), STANDARD), []
        for game in range(50):
            random.seed(disturb + game)  # whatever else happened in the process before this turn
            player.start_turn(SOLO_CONTEXT, seed, game)
            found.append(play_turn(STANDARD, iter([(4, 5)] + [(1, 1)] * 20), player).rolls[0].shut_tiles)
        return found

    assert first_moves(1, 0) == first_moves(1, 1000) != first_moves(2, 0)
    assert len(set(first_moves(1, 0))) > 3


class SecretlyRandom(Strategy):
    """Reads the game, and picks with the module-level generator, undeclared."""

    name = "secretly-random"
    reads_context = True

    def choose_move(self, view: View) -> Move:
        return random.choice(view.legal_moves)

    def choose_dice(self, view: View) -> int:
        return random.choice(view.dice_options)


def turns_of(player: StrategyPlayer, rules: Rules, games: range) -> list[object]:
    return [play_turn(rules, turn_rolls(7, game, 0, 0), player.start_turn(SOLO_CONTEXT, 7, game)) for game in games]


def test_a_users_strategy_meets_the_global_generators_seeded_for_each_turn_whatever_they_held() -> None:
    rules = Rules(tiles=10)
    random.seed(1)
    first = turns_of(StrategyPlayer(SecretlyRandom(), rules), rules, range(30))
    random.seed(2)
    again = turns_of(StrategyPlayer(SecretlyRandom(), rules), rules, reversed(range(30)))  # type: ignore[arg-type]
    assert first == again[::-1]
    assert len({record.score for record in first}) > 1  # type: ignore[attr-defined]


def test_a_built_in_leaves_the_global_generators_alone() -> None:
    """A built-in's code is known never to draw from them: they are not seeded for its turns."""
    rules = Rules(tiles=9)
    random.seed(5)
    state = random.getstate()
    turns_of(StrategyPlayer(load_strategy("target").make(), rules), rules, range(20))
    turns_of(StrategyPlayer(load_strategy("random").make(), rules), rules, range(20))
    assert random.getstate() == state


def test_a_users_class_that_takes_a_built_ins_name_and_module_is_still_a_users() -> None:
    dressed = type("Target", (Strategy,), {"__module__": "strategies.solved", "__qualname__": "Target"})
    assert builtin_class(load_strategy("target").cls)
    assert not builtin_class(dressed)
    assert not builtin_class(SecretlyRandom)


class Forms(Strategy):
    """Reads the game and answers with the move of the game's lowest legal tiles or highest, given
    as the view's own tuple, a fresh equal tuple, a list or reversed, by the turn's rolls so far."""

    name = "forms"
    reads_context = True

    def choose_move(self, view: View) -> object:
        move = view.legal_moves[len(view.turn) % len(view.legal_moves)]
        form = (len(view.turn) + view.context.seat) % 4
        return (move, tuple(list(move)), list(move), move[::-1])[form]

    def choose_dice(self, view: View) -> int:
        return 1 + len(view.turn) % 2


def dealt(rules: Rules, seed: int, game: int) -> bytes:
    """A turn's dice as a host is dealt them: outcome codes, one a roll, as many as a turn can use."""
    pairs = itertools.islice(turn_rolls(seed, game, 0, game % 2), rules.tiles + 1)
    return bytes((first - 1) * 6 + second - 1 for first, second in pairs)


class Asked:
    """The general engine's chooser for a player, noting every answer it gives."""

    def __init__(self, player: StrategyPlayer) -> None:
        self.player, self.answers = player, list[int]()

    def choose_dice(self, open_mask: int, history: Sequence[Roll]) -> int:
        self.answers.append(self.player.choose_dice(open_mask, history))
        return self.answers[-1]

    def choose_move(
        self, open_mask: int, dice: tuple[int, ...], moves: tuple[int, ...], history: Sequence[Roll]
    ) -> int:
        self.answers.append(self.player.choose_move(open_mask, dice, moves, history))
        return self.answers[-1]


def test_a_hosts_turns_give_the_answers_the_general_engine_gets_whatever_form_they_take() -> None:
    rules = Rules(tiles=6)  # one die a choice from the start
    contexts = [dataclasses.replace(SOLO_CONTEXT, seat=game % 2) for game in range(60)]
    given: list[int] = []
    counts: list[int] = []
    turns = [(dataclasses.astuple(context), 1, game, dealt(rules, 1, game)) for game, context in enumerate(contexts)]
    StrategyPlayer(Forms(), rules).answer_turns(turns, given, counts)
    ends = list(itertools.accumulate(counts, initial=0))
    for game, context in enumerate(contexts):
        asked = Asked(StrategyPlayer(Forms(), rules).start_turn(context, 1, game))
        play_turn(rules, turn_rolls(1, game, 0, game % 2), asked)
        assert given[ends[game] : ends[game + 1]] == asked.answers
    assert len(counts) == 60


def answered(player: StrategyPlayer, game: int) -> list[int]:
    """The answers of a host's solo turn in `game` of seed 1 (the answers before a failure, if it fails)."""
    given: list[int] = []
    player.answer_turns([(dataclasses.astuple(SOLO_CONTEXT), 1, game, dealt(STANDARD, 1, game))], given, [])
    return given


class FailsInGame(Strategy):
    """Plays the first legal move, and raises at its second decision of game 2."""

    reads_context = True

    def __init__(self) -> None:
        self.asked: dict[int, int] = {}

    def choose_move(self, view: View) -> Move:
        game = view.context.player  # each game's turn is shown as player `game`
        self.asked[game] = self.asked.get(game, 0) + 1
        if game == 2 and self.asked[game] == 2:
            raise ValueError("no")
        return view.legal_moves[0]


def test_a_hosts_turns_end_at_a_failure_its_turns_answers_given_so_far_last() -> None:
    rules = Rules(tiles=12)  # a long turn: two decisions or more in game 2
    turns = [
        (dataclasses.astuple(dataclasses.replace(SOLO_CONTEXT, player=game)), 3, game, dealt(rules, 3, game))
        for game in range(5)
    ]
    given: list[int] = []
    counts: list[int] = []
    with pytest.raises(StrategyError, match="ValueError: no"):
        StrategyPlayer(FailsInGame(), rules).answer_turns(turns, given, counts)
    whole: list[int] = []
    StrategyPlayer(Answers(), rules).answer_turns(turns[:2], whole, [])
    assert len(counts) == 2
    assert given[: sum(counts)] == whole
    assert len(given) > sum(counts)


class Rewrites(Strategy):
    """Answers a move that is not legal after writing it into the view's legal moves."""

    reads_context = True

    def choose_move(self, view: View) -> Move:
        object.__setattr__(view, "legal_moves", (*view.legal_moves, (1, 2, 3, 4, 5, 6)))
        return (1, 2, 3, 4, 5, 6)


def test_a_hosts_turn_judges_an_answer_against_its_own_copy_of_the_question() -> None:
    with pytest.raises(StrategyError, match="answered with something other than one of the legal moves"):
        answered(StrategyPlayer(Rewrites(), STANDARD), 0)


def test_a_hosts_turn_fails_as_the_general_engine_does_when_the_strategy_raises() -> None:
    with pytest.raises(StrategyError) as in_host:
        answered(StrategyPlayer(Answers(ValueError("no")), STANDARD), 0)
    with pytest.raises(StrategyError) as in_engine:
        player = StrategyPlayer(Answers(ValueError("no")), STANDARD).start_turn(SOLO_CONTEXT, 1, 0)
        play_turn(STANDARD, turn_rolls(1, 0, 0, 0), player)
    assert str(in_host.value) == str(in_engine.value)
    assert "raise self.answer" in str(in_host.value)
