"""Computer seats from a user's strategy file (`--computer path/to/file.py:Class`), and a
strategy that fails in the middle of a game: one sentence on stderr, exit status 1."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_play_best import turn_answers
from test_play_transcript import play

from shutbox_cli.game import Rules, Turn, tiles_of, turn_rolls

pytestmark = pytest.mark.slow  # every test plays through the real command

STRATEGIES = '''
import sys

from strategies import Strategy


class OnesFirst(Strategy):
    """Shuts the lowest tiles it can (1 + 2 + 5 for an 8 on a full box), always with two dice."""

    name = "ones-first"

    def choose_move(self, view):
        return min(view.legal_moves)

    def choose_dice(self, view):
        return 2


class Raises(OnesFirst):
    name = "raises"
    reads_context = True  # so it is asked in play, not tabulated: it fails at the game's own state

    def choose_move(self, view):
        if len(view.open_tiles) <= 6:
            raise RuntimeError("lost count")
        return super().choose_move(view)


class Illegal(OnesFirst):
    name = "illegal"
    reads_context = True  # so it is asked in play, not tabulated: it fails at the game's own state

    def choose_move(self, view):
        return view.open_tiles if len(view.open_tiles) <= 6 else super().choose_move(view)


class Exits(OnesFirst):
    name = "exits"
    reads_context = True  # so it is asked in play, not tabulated: it fails at the game's own state

    def choose_move(self, view):
        if len(view.open_tiles) <= 6:
            sys.exit(0)
        return super().choose_move(view)


class Tabulated(OnesFirst):
    name = "tabulated"

    def choose_move(self, view):
        if len(view.open_tiles) <= 6:
            raise RuntimeError("lost count")
        return super().choose_move(view)


class Peeks(OnesFirst):
    name = "peeks"

    def choose_move(self, view):
        return view.legal_moves[view.context.seat % len(view.legal_moves)]


class BadDice(Strategy):
    name = "bad-dice"
    reads_context = True

    def choose_move(self, view):
        return max(view.legal_moves, key=lambda move: sorted(move, reverse=True))

    def choose_dice(self, view):
        return 3
'''
SEED = 8


def game(tmp_path: Path, strategy: str) -> tuple[list[str], list[str]]:
    """The options and answers of a game of Ann against a strategy of the file written into tmp_path;
    Ann plays the first combination listed, does not shut the box, and declines a rematch."""
    path = tmp_path / "my_strategies.py"
    path.write_text(STRATEGIES)
    ann = Turn(Rules(), turn_rolls(SEED, 0, 0, 0))
    answers = [*turn_answers(ann), "n"]
    assert not ann.record().shut_box  # else the computer would never play
    options = ["--seed", str(SEED), "--player", "Ann", "--computer", f"{path}:{strategy}", "--no-save"]
    return options, answers


def test_a_strategy_file_takes_a_computer_seat_under_its_strategy_name(tmp_path: Path) -> None:
    options, answers = game(tmp_path, "OnesFirst")
    done = play(tmp_path, options, "\n".join(answers) + "\n", NO_COLOR="1")
    assert (done.returncode, done.stderr) == (0, "")
    assert "Players: Ann and ones-first (computer).\n" in done.stdout
    assert "\nones-first's turn.\n" in done.stdout
    # Its turn on the dice of its seat, each choice the lowest tiles, as its file says.
    turn, expected = Turn(Rules(), turn_rolls(SEED, 0, 0, 1)), []
    while not turn.over:
        dice = turn.roll(2)
        if turn.over:
            expected.append(f"ones-first rolls {dice[0]} + {dice[1]} = {sum(dice)}.")
            break
        move = min(turn.moves, key=tiles_of)
        expected.append(
            f"ones-first rolls {dice[0]} + {dice[1]} = {sum(dice)} and shuts {' + '.join(map(str, tiles_of(move)))}."
        )
        turn.shut(move)
    assert [line for line in done.stdout.splitlines() if line.startswith("ones-first rolls")] == expected
    assert "1 + 2 + 6" in expected[0]  # not what greedy-high would shut (9)
    assert f"ones-first scores {turn.record().score} (open tiles " in done.stdout
    assert done.stdout.endswith("Rematch? [y/N]: n\nGoodbye.\n")


def frame(code: str, tmp_path: Path, strategy: str) -> str:
    """The frame of the line holding `code` in a strategy of the file, as a failing strategy's message ends with it."""
    lines = STRATEGIES.splitlines()
    start = lines.index(next(line for line in lines if line.startswith(f"class {strategy}(")))
    number = next(number for number, line in enumerate(lines[start:], start + 1) if code in line)
    return f'  File "{tmp_path / "my_strategies.py"}", line {number}, in choose_move\n    {code}\n'


@pytest.mark.parametrize(
    ("strategy", "sentence", "code"),
    [
        (
            "Raises",
            "strategy 'raises' raised an error with open tiles 3 4 5 7 8 9 and dice 3+4: RuntimeError: lost count.",
            'raise RuntimeError("lost count")',
        ),
        (
            "Illegal",
            "strategy 'illegal' answered with something other than one of the legal moves "
            "with open tiles 3 4 5 7 8 9 and dice 3+4: it answered (3, 4, 5, 7, 8, 9); the legal moves are 7, 3+4.",
            None,
        ),
        (
            "BadDice",
            "strategy 'bad-dice' chose a number of dice other than 1 or 2 with open tiles 1 2 4 5 6 "
            "and dice not rolled yet: it answered 3.",
            None,
        ),
        (
            "Exits",
            "strategy 'exits' called sys.exit(0) with open tiles 3 4 5 7 8 9 and dice 3+4: "
            "a strategy must answer, not end the program.",
            "sys.exit(0)",
        ),
    ],
)
def test_a_strategy_failing_mid_game_stops_it_with_one_sentence_its_frames_and_status_1(
    tmp_path: Path, strategy: str, sentence: str, code: str | None
) -> None:
    options, answers = game(tmp_path, strategy)
    done = play(tmp_path, options, "\n".join(answers) + "\n", NO_COLOR="1")
    frames = "" if code is None else frame(code, tmp_path, strategy)
    assert (done.returncode, done.stderr) == (1, f"shutbox: error: {sentence}\n{frames}")
    # The game stopped where the strategy failed: its last board shows the open tiles named.
    open_tiles = sentence.split("open tiles ")[1].split(" and dice")[0].split()
    last_row = done.stdout.rstrip("\n").splitlines()[-1]
    assert re.findall(r"\[(\d+)\]", last_row) == open_tiles
    assert "wins" not in done.stdout and "Rematch" not in done.stdout


def test_a_context_free_strategy_fails_at_its_first_question_naming_the_box_it_was_asked_about(
    tmp_path: Path,
) -> None:
    options, answers = game(tmp_path, "Tabulated")
    done = play(tmp_path, options, "\n".join(answers) + "\n", NO_COLOR="1")
    assert (done.returncode, done.stderr) == (
        1,
        "shutbox: error: strategy 'tabulated' raised an error with open tiles 1 2 3 and dice 3 (asked while "
        "tabulating its answers): RuntimeError: lost count.\n"
        + frame('raise RuntimeError("lost count")', tmp_path, "Tabulated"),
    )
    assert "tabulated's turn." in done.stdout and "tabulated rolls" not in done.stdout  # before its first shut


def test_a_computer_reading_the_game_undeclared_is_stopped_naming_the_declaration(tmp_path: Path) -> None:
    options, answers = game(tmp_path, "Peeks")
    done = play(tmp_path, options, "\n".join(answers) + "\n", NO_COLOR="1")
    assert done.returncode == 1
    assert done.stderr.startswith(
        "shutbox: error: strategy 'peeks' read view.context without declaring reads_context = True, with open "
        "tiles 1 2 3 and dice 3 (asked while tabulating its answers): add `reads_context = True` to its class"
    )
    assert done.stderr.endswith(
        frame("return view.legal_moves[view.context.seat % len(view.legal_moves)]", tmp_path, "Peeks")
    )


@pytest.mark.parametrize(
    ("options", "table"),
    [
        (["--computer", "perfect", "--computer", "perfect", "--computer", "optimal", "--rounds", "2"], 3),
        (["--player", "Ann", "--player", "Bob", "--computer", "perfect", "--drop-out", "45"], 3),
    ],
)
def test_perfect_over_several_rounds_at_a_table_past_two_is_refused_before_play(
    tmp_path: Path, options: list[str], table: int
) -> None:
    done = play(tmp_path, [*options, "--delay", "0", "--seed", "1"], "")
    assert (done.returncode, done.stderr) == (
        2,
        "shutbox: error: perfect play over several rounds or in drop-out is solved for a table of two, not "
        f"{table}: every seat's total would be part of the state.\n",
    )
    assert done.stdout == ""
