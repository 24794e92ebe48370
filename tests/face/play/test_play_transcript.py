"""`shutbox play` driven by a pipe: a scripted game must replay its recorded transcript byte for byte.

The script (`tests/data/play_seed1_ann_vs_greedy.in`) plays two games of Ann against a
greedy-high computer seat with seed 1: it lists combinations, asks for hints, makes each kind
of typing mistake, builds a shut from a running sum, answers the one-die question and takes
a rematch. To re-record after an intended change of wording, run from the repository root:

    NO_COLOR=1 python -m shutbox_cli play --seed 1 --player Ann --computer greedy-high --no-save \\
        < tests/data/play_seed1_ann_vs_greedy.in > tests/data/play_seed1_ann_vs_greedy.out

and read the new transcript through before keeping it. A change of the dice needs a new script too:
the answers follow the rolls.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.command import without_confinement
from helpers.paths import DATA

GAME = ["--seed", "1", "--player", "Ann", "--computer", "greedy-high", "--no-save"]


def play(tmp_path: Path, options: list[str], answers: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "FORCE_COLOR")}
    environment.update({"SHUTBOX_DATA_DIR": str(tmp_path), **env})
    return without_confinement(
        subprocess.run(
            [sys.executable, "-m", "shutbox_cli", "play", *options],
            input=answers,
            env=environment,
            capture_output=True,
            text=True,
            timeout=60,
        )
    )


@pytest.mark.slow
@pytest.mark.parametrize("colour", [{"NO_COLOR": "1"}, {"TERM": "xterm-256color"}], ids=["NO_COLOR", "piped"])
def test_a_scripted_game_replays_its_recorded_transcript(tmp_path: Path, colour: dict[str, str]) -> None:
    expected = (DATA / "play_seed1_ann_vs_greedy.out").read_text()
    done = play(tmp_path, GAME, (DATA / "play_seed1_ann_vs_greedy.in").read_text(), **colour)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == expected


def test_the_recorded_transcript_covers_a_whole_session() -> None:
    transcript = (DATA / "play_seed1_ann_vs_greedy.out").read_text()
    for moment in [
        "Combinations for 10: 1 + 9, 2 + 8, 3 + 7, 4 + 6, 1 + 2 + 7, 1 + 3 + 6, 1 + 4 + 5, 2 + 3 + 5, 1 + 2 + 3 + 4.",
        "Hint: shut 1 + 9. Chance to win this game with each choice, with best play after it:",
        "  1 + 9          wins 49.3% of the time  best",
        "5 + 6 make 11, which is more than 10.",
        "2 so far, 3 still needed (Enter starts again).",
        "Shut tiles for 5 (2 so far): 5\n2 + 5 make 7, which is more than 5.",
        "Selection cleared; type the tiles for 5 again.",
        "Tile 1 is already shut.",
        "There is no tile 10: the box has tiles 1 to 9.",
        "Only one way to make 4: 4, shut.",
        "greedy-high rolls one die: 2.\nNo tiles add up to 2.",
        "greedy-high wins with 1.",
        "Rematch? [y/N]: y",
        "Game 2. greedy-high goes first.",
        "greedy-high rolls one die: 1, and shuts 1.",
        "One die is not allowed yet: it needs every tile from 7 up to be shut.",
        "Shut tiles for 12: 3+9",
        "Shut tiles for 8: 17",
        "7, 8 and 9 are shut: you may roll one die from now on.",
        "Score to beat: 17 (greedy-high).",
        "Hint: roll two dice (wins 97.2% of the time; one die: wins 83.3% of the time).",
        "Roll one die [Enter], or 2 for two dice: ",
        "Shut tiles for 6: 24",
        "Scores: greedy-high 17, Ann 6.",
        "Ann wins with 6.",
        "Coach: Ann's choices this game, and what each cost against the best:",
        "  Roll 4 (open 2 4 5 6): one die (wins 83.3% of the time); best two dice (wins 97.2% of the time): "
        "it cost 13.9 points of win chance.",
        "Roll [Enter]: q\nThe game is not over. Quit anyway? [y/N]: n\nRoll [Enter]: 1\n",
        "Wins after 2 games: Ann 1, greedy-high 1.",
        "Coach: 4 of Ann's 7 choices were the best; the other 3 cost 13.9 points of win chance "
        "and 2.25 points of expected score.\n"
        "Costliest: roll 4, one die (13.9 points of win chance) and roll 5, shut 2 + 4 "
        "(1.17 points of expected score).",
        "Rematch? [y/N]: c\n\nCoach: Ann's choices this game, and what each cost against the best:\n",
    ]:
        assert moment in transcript
    assert transcript.endswith("Rematch? [y/N]: n\nGoodbye.\n")


@pytest.mark.slow
def test_input_ending_mid_game_says_goodbye_and_exits_1(tmp_path: Path) -> None:
    done = play(tmp_path, GAME, "\n1 9\n", NO_COLOR="1")
    assert done.returncode == 1 and done.stderr == ""
    assert done.stdout.endswith("Roll [Enter]: \nInput ended in the middle of the game. Goodbye.\n")


@pytest.mark.slow
def test_input_ending_at_the_rematch_question_is_a_normal_end(tmp_path: Path) -> None:
    answers = (DATA / "play_seed1_ann_vs_greedy.in").read_text().split("\n")
    first_game = "\n".join(answers[: answers.index("y")]) + "\n"
    done = play(tmp_path, GAME, first_game, NO_COLOR="1")
    assert done.returncode == 0
    assert done.stdout.endswith("Rematch? [y/N]: Goodbye.\n")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--computer", "no-such-strategy"], "shutbox: error: no strategy named 'no-such-strategy'; known names:"),
        (["--player", " "], "shutbox: error: a --player name is empty; give each player a name.\n"),
        (
            ["--tiles", "12", "--one-die", "nonsense"],
            "--one-die must be one of high-tiles, low-sum or off, not 'nonsense'",
        ),
        (["--tiles", "13"], "shutbox: error: --tiles must be a whole number from 2 to 12, not 13.\n"),
        (["--delay", "-1"], "--delay must be at least 0 "),
        (["--delay", "inf"], "--delay must be at most 60 "),
    ],
)
def test_a_bad_setup_is_one_sentence_and_exit_2(tmp_path: Path, options: list[str], message: str) -> None:
    done = play(tmp_path, options, "")
    assert done.returncode == 2 and done.stdout == ""
    assert message in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_a_computer_seat_can_be_named_and_names_are_kept_apart(tmp_path: Path) -> None:
    options = [
        "--seed",
        "3",
        "--player",
        "Ann",
        "--computer",
        "Robo=greedy-high",
        "--computer",
        "greedy-high",
        "--computer",
        "greedy-high",
    ]
    done = play(tmp_path, options, "q\n", NO_COLOR="1")
    assert "Players: Ann, Robo (computer), greedy-high (computer) and greedy-high 2 (computer)." in done.stdout


@pytest.mark.slow
def test_enter_at_the_one_die_question_rolls_two_dice_as_its_prompt_says(tmp_path: Path) -> None:
    from test_play_best import solo_answers

    from shutbox_cli.game import Rules

    answers, record = solo_answers(Rules(), 7)  # it answers 2 at the one-die question
    lines = answers.split("\n")
    lines[lines.index("2")] = ""
    done = play(tmp_path, ["--seed", "7", "--no-save"], "\n".join(lines), NO_COLOR="1")
    assert done.returncode == 0, done.stdout[-500:]
    assert re.search(r"\nOne die or two\? \[1/2, Enter: 2\]: \nYou roll \d \+ \d = \d+\.\n", done.stdout)
    assert f"\nResult: {record.totals[0]}." in done.stdout and done.stdout.endswith("Play again? [y/N]: n\nGoodbye.\n")


@pytest.mark.slow
def test_computers_alone_play_while_you_watch_and_every_piped_line_is_used(tmp_path: Path) -> None:
    options = ["--seed", "3", "--computer", "optimal", "--computer", "greedy-high"]
    done = play(tmp_path, options, "y\nn\n", NO_COLOR="1")
    assert (done.returncode, done.stderr) == (0, "")
    assert "Players: optimal (computer) and greedy-high (computer).\n" in done.stdout
    assert "Enter rolls" not in done.stdout and "Coach" not in done.stdout
    assert "Watch another game? [y/N]: y\n" in done.stdout and "\nGame 2. greedy-high goes first.\n" in done.stdout
    assert done.stdout.endswith("Watch another game? [y/N]: n\nGoodbye.\n")
    assert done.stdout.count("Scores: ") == 2 and not (tmp_path / "best-scores.json").exists()
