"""`shutbox play` in a real pseudo-terminal, typed at as a person would (pexpect).

The player in these tests takes the hint's move whenever there is a choice, so the games
follow the optimal strategy and the seeds below are known to reach the moments tested.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from shutbox_cli.face.play.board import mask_text
from shutbox_cli.game import Rules, legal_moves, solve_expected_score

pytestmark = pytest.mark.slow  # every test drives a real shutbox in a pseudo-terminal

SHUT = r"Shut tiles for \d+(?: \([\d +]+ so far\))?: $"
ROLL = r"Roll[^:]*: $"  # [^:]: a narrow terminal may break the prompt between words
ONE_DIE = r"One die or two\? \[1/2, Enter: 2\]: $"
AGAIN = r"(?:Rematch|Play again)\? \[y/N\]: $"
QUIT_QUESTION = "The game is not over. Quit anyway? [y/N]: "


def spawn(tmp_path: Path, *options: str, columns: int = 100, **env: str) -> pexpect.spawn:
    # The terminal's size is the pseudo-terminal's: COLUMNS and LINES from outside would override it.
    environment = {key: value for key, value in os.environ.items() if key not in ("FORCE_COLOR", "COLUMNS", "LINES")}
    environment.update({"SHUTBOX_DATA_DIR": str(tmp_path), "NO_COLOR": "1", "TERM": "xterm", **env})
    return pexpect.spawn(
        sys.executable,
        ["-m", "shutbox_cli", "play", "--delay", "0", *options],
        env=environment,
        encoding="utf-8",
        timeout=10,
        dimensions=(40, columns),
    )


def take_hint(child: pexpect.spawn) -> None:
    """At a shut prompt: ask for the hint and shut what it suggests."""
    child.sendline("h")
    child.expect(r"Hint: shut ([\d +]+)\.")
    move = child.match.group(1)
    child.expect(SHUT)
    child.sendline(move.replace(" + ", " "))


def play_until(child: pexpect.spawn, stop: str) -> str:
    """Roll on Enter, shut the hinted move, roll one die when asked; return the text up to `stop`."""
    seen = []
    while True:
        index = child.expect([stop, SHUT, ROLL, ONE_DIE, AGAIN])
        seen.append(child.before + child.after)
        if index == 0:
            return "".join(seen)
        if index == 1:
            take_hint(child)
        elif index == 2:
            child.sendline("")
        elif index == 3:
            child.sendline("1")
        else:
            raise AssertionError(f"the game ended before {stop!r}: {''.join(seen)[-400:]}")


def quit_game(child: pexpect.spawn) -> None:
    """Type q in the middle of a game and say yes when asked."""
    child.sendline("q")
    child.expect_exact(QUIT_QUESTION)
    child.sendline("y")


def finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def test_a_solo_game_to_the_end_keeps_a_new_best(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "7")
    played = play_until(child, AGAIN)
    result = re.search(r"Result: (\d+)\. New best!", played)
    assert result, played[-300:]
    scored = re.search(r"You score (\d+) \(open tiles [\d, ]+\)\.|You shut the box!", played)
    assert scored and int(scored.group(1) or 0) == int(result.group(1))
    child.sendline("n")
    child.expect("Goodbye.")
    assert finish(child) == 0
    best = json.loads((tmp_path / "best-scores.json").read_text())["best"]
    assert list(best.values()) == [int(result.group(1))]


def test_two_players_and_a_computer_seat_then_a_rematch(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "5", "--player", "Ann", "--player", "Bob", "--computer", "greedy-high")
    played = play_until(child, r"Rematch\? \[y/N\]: $")
    turns = [line for line in played.splitlines() if line.endswith("'s turn.")]
    assert turns == ["Ann's turn.", "Bob's turn.", "greedy-high's turn."]
    assert re.search(r"greedy-high rolls \d \+ \d = \d+ and shuts [\d +]+\.", played)
    scores = re.search(r"Scores: Ann (\d+), Bob (\d+), greedy-high (\d+)\.", played)
    assert scores, played[-300:]
    by_name = dict(zip(("Ann", "Bob", "greedy-high"), map(int, scores.groups()), strict=True))
    low = min(by_name.values())
    winners = [name for name, value in by_name.items() if value == low]
    together = winners[0] if len(winners) == 1 else f"{', '.join(winners[:-1])} and {winners[-1]}"
    verb = "wins with" if len(winners) == 1 else "share the win with"
    assert f"\r\n{together} {verb} {low}.\r\n" in played
    child.sendline("y")
    child.expect(r"Game 2\. Bob goes first\.\r\n\r\nBob's turn\.")
    child.expect(ROLL)
    quit_game(child)
    child.expect("Goodbye.")
    assert finish(child) == 0


def expect_refusal(child: pexpect.spawn, answer: str, sentence: str, prompt: str) -> None:
    """Type a wrong answer: one sentence back, then the very same prompt."""
    child.sendline(answer)
    child.expect_exact(f"{answer}\r\n{sentence}\r\n{prompt}")


def test_every_kind_of_wrong_input_gets_one_sentence_and_the_same_prompt(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "55")
    roll = "Roll [Enter]: "
    child.expect_exact(roll)
    expect_refusal(child, "1", "One die is not allowed yet: it needs every tile from 7 up to be shut.", roll)
    expect_refusal(child, "x", "Press Enter to roll; ? shows the keys, q quits.", roll)
    child.sendline("")
    child.expect_exact("You roll 1 + 4 = 5.\r\n")
    prompt = "Shut tiles for 5: "
    child.expect_exact(prompt)
    expect_refusal(
        child,
        "seven",
        "Type the tiles to shut as numbers, such as 3 6, 3,6, 3+6 or 36; ? lists the combinations.",
        prompt,
    )
    expect_refusal(child, "10", "There is no tile 10: the box has tiles 1 to 9.", prompt)
    expect_refusal(child, "4 5", "4 + 5 make 9, which is more than 5.", prompt)
    expect_refusal(child, "2 2", "Tile 2 is typed twice; each tile can be shut only once.", prompt)
    partial = "Shut tiles for 5 (2 so far): "
    expect_refusal(child, "2", "2 so far, 3 still needed (Enter starts again).", partial)
    expect_refusal(child, "4", "2 + 4 make 6, which is more than 5.", partial)
    expect_refusal(
        child, "99999999999999999999999", "There is no tile 999999999...: the box has tiles 1 to 9.", partial
    )
    child.sendline("3")
    child.expect_exact("  [1]  -   -  [4] [5] [6] [7] [8] [9]   score 40")
    child.expect_exact("Roll [Enter]: ")
    child.sendline("")
    child.expect(r"You roll \d \+ \d = (\d+)\.\r\n")
    child.expect(SHUT)
    expect_refusal(child, "3", "Tile 3 is already shut.", child.after)
    quit_game(child)
    child.expect("Goodbye.")
    assert finish(child) == 0


def test_the_one_die_choice_is_asked_once_enter_rolls_two_and_it_is_remembered_until_changed(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "8")
    play_until(child, r"7, 8 and 9 are shut: you may roll one die from now on\.\r\n")
    child.expect_exact("One die or two? [1/2, Enter: 2]: ")
    expect_refusal(
        child,
        "3",
        "Type 1 to roll one die or 2 to roll two (Enter rolls two dice).",
        "One die or two? [1/2, Enter: 2]: ",
    )
    child.sendline("")
    child.expect(r"You roll \d \+ \d = \d+\.")
    play_until(child, re.escape("Roll two dice [Enter], or 1 for one die: "))
    child.sendline("1")
    child.expect(r"You roll one die: \d\.")
    play_until(child, re.escape("Roll one die [Enter], or 2 for two dice: "))
    quit_game(child)
    assert finish(child) == 0


def test_compulsory_one_die_is_told_not_asked(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "3", "--one-die-mode", "compulsory")
    play_until(child, r"7, 8 and 9 are shut: from now on you must roll one die\.\r\n")
    child.expect_exact("Roll one die [Enter]: ")
    expect_refusal(child, "2", "Two dice are not allowed now: one die is compulsory.", "Roll one die [Enter]: ")
    quit_game(child)
    assert finish(child) == 0


def test_the_hint_names_the_optimal_move_and_what_every_choice_is_worth(tmp_path: Path) -> None:
    rules = Rules()
    solution = solve_expected_score(rules)
    child = spawn(tmp_path, "--seed", "55")
    child.expect_exact("Roll [Enter]: ")
    child.sendline("")
    child.expect_exact("Shut tiles for 5: ")
    child.sendline("?")
    child.expect_exact("Combinations for 5: 5, 1 + 4, 2 + 3.\r\nShut tiles for 5: ")
    child.sendline("h")
    best = solution.best_move(rules.full_box, (1, 4))
    child.expect_exact(f"Hint: shut {mask_text(best)}. ")
    child.expect_exact("Shut tiles for 5: ")
    for move, value in solution.move_values(rules.full_box, (1, 4)).items():
        row = rf"\r\n  {re.escape(mask_text(move))} +expected final score +{value:.2f}( +best)?\r\n"
        assert re.search(row, child.before)
    quit_game(child)
    assert finish(child) == 0


def test_q_in_the_middle_of_a_game_asks_first(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "55", "--rounds", "3", "--player", "Ann", "--computer", "greedy-high")
    child.expect_exact("Roll [Enter]: ")
    child.sendline("")
    child.expect_exact("Shut tiles for 5: ")
    child.sendline("2")
    child.expect_exact("Shut tiles for 5 (2 so far): ")
    child.sendline("q")
    child.expect_exact(f"q\r\n{QUIT_QUESTION}")
    child.sendline("n")  # no: the same prompt again, the selection kept
    child.expect_exact("n\r\nShut tiles for 5 (2 so far): ")
    child.sendline("q")
    child.expect_exact(f"q\r\n{QUIT_QUESTION}")
    child.sendline("y")
    child.expect_exact("y\r\nGoodbye.\r\n")
    assert finish(child) == 0


@pytest.mark.parametrize("prompt", [ONE_DIE, AGAIN], ids=["one die or two", "play again"])
def test_q_quits_at_the_one_die_question_and_at_the_rematch_at_once(tmp_path: Path, prompt: str) -> None:
    child = spawn(tmp_path, "--seed", "8", "--no-save")
    play_until(child, prompt)
    child.sendline("Q")
    if prompt == ONE_DIE:  # in the middle of the game: asked first
        child.expect_exact(f"Q\r\n{QUIT_QUESTION}")
        child.sendline("quit")
    else:
        child.expect_exact("Q\r\nGoodbye.\r\n")
    assert finish(child) == 0


def test_ctrl_d_ends_the_game_with_a_goodbye_and_status_1(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "7")
    child.expect_exact("Roll [Enter]: ")
    child.sendeof()
    child.expect_exact("Input ended in the middle of the game. Goodbye.\r\n")
    assert finish(child) == 1
    assert "Traceback" not in child.before


@pytest.mark.parametrize("computer", [False, True], ids=["at a prompt", "while a computer plays"])
def test_ctrl_c_ends_the_game_with_a_goodbye_and_status_130(tmp_path: Path, computer: bool) -> None:
    if computer:
        child = spawn(tmp_path, "--seed", "7", "--player", "Ann", "--computer", "greedy-high", "--delay", "30")
        child.expect_exact("Ann's turn.")
        play_until(child, "greedy-high's turn.")
        child.expect_exact("score 45\r\n")
    else:
        child = spawn(tmp_path, "--seed", "55")
        child.expect_exact("Roll [Enter]: ")
        child.sendline("")
        child.expect_exact("Shut tiles for 5: ")
    child.sendintr()
    child.expect_exact("Interrupted. Goodbye.\r\n")
    assert finish(child) == 130
    assert "Traceback" not in child.before


def test_a_dumb_terminal_gets_no_escape_codes_and_a_colour_one_gets_some(tmp_path: Path) -> None:
    outputs = {}
    for term in ("dumb", "xterm-256color"):
        child = spawn(tmp_path, "--seed", "7", TERM=term, NO_COLOR="")
        child.expect_exact("Roll [Enter]: ")
        outputs[term] = child.before
        quit_game(child)
        assert finish(child) == 0
    assert "\x1b[" not in outputs["dumb"] and "[1] [2] [3]" in outputs["dumb"]
    assert "\x1b[" in outputs["xterm-256color"]


def test_a_narrow_terminal_breaks_long_lines_between_words(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "7", "--scoring", "digits", columns=60)
    child.expect_exact("Roll [Enter]: ")
    lines = child.before.split("\r\n")
    assert max(map(len, lines)) <= 60
    assert (
        "Score: the open tiles read lowest first as one number (1, 2, 9 scores 129); lowest wins; a shut box scores 0."
    ) in " ".join(lines)
    quit_game(child)
    assert finish(child) == 0


@pytest.mark.parametrize("columns", [40, 80])
def test_a_narrow_terminal_breaks_lists_of_moves_between_moves_never_inside_one(tmp_path: Path, columns: int) -> None:
    rules = Rules(tiles=12)
    child = spawn(tmp_path, "--seed", "13", "--tiles", "12", columns=columns)
    child.expect_exact("Roll [Enter]: ")
    rows = child.before.split("\r\n")[-2 if columns == 80 else -3 : -1]
    assert rows == (
        ["  [ 1] [ 2] [ 3] [ 4] [ 5] [ 6] [ 7] [ 8] [ 9] [10] [11] [12]   score 78"]
        if columns == 80
        else ["  [ 1] [ 2] [ 3] [ 4] [ 5] [ 6] [ 7]", "  [ 8] [ 9] [10] [11] [12]   score 78"]
    )
    child.sendline("")
    child.expect_exact("You roll 6 + 6 = 12.\r\nShut tiles for 12: ")
    child.sendline("?")
    child.expect_exact("?\r\n")
    child.expect_exact("Shut tiles for 12: ")
    listed = child.before.split("\r\n")[:-1]
    combinations = ", ".join(mask_text(move) for move in legal_moves(rules, rules.full_box, (6, 6)))
    assert " ".join(listed) == f"Combinations for 12: {combinations}."
    assert len(listed) > 1 and all(len(line) <= columns and line.endswith((",", ".")) for line in listed)
    # The rest of the game, hints and all: no line longer than the terminal, none broken in a sum.
    take_hint(child)
    played = play_until(child, AGAIN)
    for line in played.split("\r\n"):
        assert len(line) <= columns, line
        assert not line.rstrip().endswith(("+", "=", "[")) and not line.lstrip().startswith(("+", "=", "]")), line
    child.sendline("n")
    assert finish(child) == 0


def test_keys_typed_while_a_computer_plays_are_thrown_away_not_taken_as_answers(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "5", "--player", "Ann", "--computer", "greedy-high", "--delay", "0.5")
    play_until(child, r"greedy-high's turn\.\r\n")
    child.sendline("")  # Enter while the computer plays: it would decline the rematch
    child.sendline("n")
    child.expect_exact("Rematch? [y/N]: ")
    child.sendline("y")
    child.expect_exact("Game 2. greedy-high goes first.")
    child.expect_exact("greedy-high's turn.")
    child.sendline("")  # Enter while the computer plays: it would roll Ann's dice
    child.expect_exact("Ann's turn.")
    child.expect_exact("Roll [Enter]: ")
    child.sendline("?")
    child.expect_exact("?\r\nEnter (or r) rolls; after a roll type the tiles to shut; ? lists them, h hints, q quits.")
    child.expect_exact("Roll [Enter]: ")
    assert "Ann rolls" not in child.before
    quit_game(child)
    assert finish(child) == 0


def test_keys_typed_while_a_computer_plays_are_not_echoed_and_the_terminal_is_given_back(tmp_path: Path) -> None:
    environment = {key: value for key, value in os.environ.items() if key not in ("FORCE_COLOR", "COLUMNS", "LINES")}
    environment.update({"SHUTBOX_DATA_DIR": str(tmp_path), "NO_COLOR": "1", "TERM": "xterm"})
    command = (
        f"'{sys.executable}' -m shutbox_cli play --delay 0.5 --seed 5 --player Ann --computer greedy-high; stty -a"
    )
    child = pexpect.spawn("/bin/sh", ["-c", command], env=environment, encoding="utf-8", timeout=10)
    play_until(child, r"greedy-high's turn\.\r\n")
    child.send("xyz")  # typed while the computer plays (it is the last seat: the game ends with its turn)
    child.expect(AGAIN)
    assert "xyz" not in child.before and "greedy-high scores" in child.before
    child.sendline("n")
    child.expect_exact("n\r\nGoodbye.\r\n")  # at a prompt, what is typed shows
    child.expect(pexpect.EOF)
    assert re.search(r"(?<![-\w])echo(?!\w)", child.before) and "-echo " not in child.before  # echo is back on
