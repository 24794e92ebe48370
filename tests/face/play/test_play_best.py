"""The solo best-score store: new best, not beaten, one best per box size and rule set, a corrupt file."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shutbox_cli.face.cli import app
from shutbox_cli.face.play.aims import Goal
from shutbox_cli.face.play.best import FILE_NAME, BestScores, Submitted, data_dir, keeps_best, rules_key
from shutbox_cli.face.play.record import SoloRecord
from shutbox_cli.face.settings import flags
from shutbox_cli.game import GameRecord, Rules, Turn, TurnContext, TurnRecord, play_game, tiles_of, turn_rolls
from tournaments.playing.replay import rule_settings


def reopened(folder: Path) -> BestScores:
    store = BestScores(folder)
    assert store.load() is None
    return store


def test_a_first_score_is_a_new_best_and_is_kept_on_disk(tmp_path: Path) -> None:
    store = reopened(tmp_path)
    submitted = store.submit(Rules(), 12)
    assert (submitted.new_best, submitted.previous, submitted.problem) == (True, None, None)
    assert reopened(tmp_path).get(Rules()) == 12


def test_a_lower_score_beats_the_best_and_an_equal_or_higher_one_does_not(tmp_path: Path) -> None:
    reopened(tmp_path).submit(Rules(), 12)
    store = reopened(tmp_path)
    assert store.submit(Rules(), 12).new_best is False
    not_beaten = store.submit(Rules(), 20)
    assert (not_beaten.new_best, not_beaten.previous) == (False, 12)
    beaten = store.submit(Rules(), 5)
    assert (beaten.new_best, beaten.previous) == (True, 12)
    assert reopened(tmp_path).get(Rules()) == 5


def test_each_box_size_and_rule_set_keeps_its_own_best(tmp_path: Path) -> None:
    store = reopened(tmp_path)
    store.submit(Rules(), 12)
    assert store.submit(Rules(tiles=12), 30).new_best
    assert store.submit(Rules(scoring="count"), 3).new_best
    again = reopened(tmp_path)
    assert (again.get(Rules()), again.get(Rules(tiles=12)), again.get(Rules(scoring="count"))) == (12, 30, 3)
    assert again.get(Rules(tiles=10)) is None


def test_rules_that_cannot_change_a_solo_game_share_a_best() -> None:
    assert rules_key(Rules(ties="playoff")) == rules_key(Rules())
    assert rules_key(Rules(instant_win=False)) == rules_key(Rules())
    assert rules_key(Rules(rounds=3)) != rules_key(Rules(rounds=3, instant_win=True))
    assert "tiles=12" in rules_key(Rules(tiles=12))


@pytest.mark.parametrize("content", [b"{not json", b'{"format": 1, "best": {"x": -3}}', b"[1, 2]", b"\xff\xfe"])
def test_a_corrupt_file_is_kept_aside_and_reported_and_a_new_one_started(tmp_path: Path, content: bytes) -> None:
    (tmp_path / FILE_NAME).write_bytes(content)
    store = BestScores(tmp_path)
    problem = store.load()
    aside = tmp_path / "best-scores.corrupt.json"
    assert problem is not None and problem.startswith(f"The best-score file {tmp_path / FILE_NAME} ")
    assert problem.endswith(f"; it was kept as {aside} and a new one is started.")
    assert aside.read_bytes() == content and not (tmp_path / FILE_NAME).exists()
    assert store.submit(Rules(), 9).new_best
    assert json.loads((tmp_path / FILE_NAME).read_text()) == {"format": 1, "best": {rules_key(Rules()): 9}}


def test_a_second_corrupt_file_never_overwrites_the_first_one_kept(tmp_path: Path) -> None:
    for number, content in enumerate([b"first", b"second"]):
        (tmp_path / FILE_NAME).write_bytes(content)
        problem = BestScores(tmp_path).load()
        aside = tmp_path / ("best-scores.corrupt.json" if number == 0 else "best-scores.corrupt-2.json")
        assert problem is not None and f"kept as {aside} " in problem
    assert (tmp_path / "best-scores.corrupt.json").read_bytes() == b"first"
    assert (tmp_path / "best-scores.corrupt-2.json").read_bytes() == b"second"


def test_a_file_that_cannot_be_read_is_left_alone_and_never_written(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).mkdir()  # a folder where the file should be: reading it fails
    store = BestScores(tmp_path)
    problem = store.load()
    assert problem is not None and problem.endswith("; it is left alone, unchanged.")
    submitted = store.submit(Rules(), 9)
    assert submitted.new_best and submitted.problem is not None and "left alone" in submitted.problem
    assert (tmp_path / FILE_NAME).is_dir() and os.listdir(tmp_path) == [FILE_NAME]


def test_the_file_is_written_like_any_new_file_and_leaves_nothing_else(tmp_path: Path) -> None:
    previous = os.umask(0o022)
    try:
        reopened(tmp_path).submit(Rules(), 12)
    finally:
        os.umask(previous)
    assert os.listdir(tmp_path) == [FILE_NAME]
    assert (tmp_path / FILE_NAME).stat().st_mode & 0o777 == 0o644


def test_a_best_that_cannot_be_saved_is_reported_and_the_old_file_is_kept(tmp_path: Path, monkeypatch) -> None:
    reopened(tmp_path).submit(Rules(), 12)
    kept = (tmp_path / FILE_NAME).read_text()

    def refuse(source: str, target: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    submitted = reopened(tmp_path).submit(Rules(), 5)
    assert submitted.new_best
    assert submitted.problem == f"The best score could not be saved to {tmp_path / FILE_NAME} (Permission denied)."
    assert (tmp_path / FILE_NAME).read_text() == kept and os.listdir(tmp_path) == [FILE_NAME]


def test_the_data_folder_can_be_moved_by_an_environment_variable(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SHUTBOX_DATA_DIR", str(tmp_path))
    assert data_dir() == tmp_path
    monkeypatch.delenv("SHUTBOX_DATA_DIR")
    assert data_dir().name == "shutbox"


def play_solo(tmp_path: Path, *options: str, answers: str) -> subprocess.CompletedProcess[str]:
    """A solo game through the real command, with its answers piped in."""
    env = {**os.environ, "SHUTBOX_DATA_DIR": str(tmp_path), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "shutbox_cli", "play", *options],
        input=answers,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
def test_the_command_keeps_a_corrupt_file_aside_and_no_save_leaves_the_folder_alone(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_text("garbage")
    done = play_solo(tmp_path, "--seed", "7", answers="q\n")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    aside = tmp_path / "best-scores.corrupt.json"
    assert f"The best-score file {tmp_path / FILE_NAME} is not a best-score file" in done.stdout
    assert f"it was kept as {aside} and a new one is started." in done.stdout
    assert aside.read_text() == "garbage" and not (tmp_path / FILE_NAME).exists()  # quitting at once loses nothing
    empty = tmp_path / "empty"
    done = play_solo(empty, "--seed", "7", "--no-save", answers="q\n")
    assert done.returncode == 0 and not empty.exists()


def turn_answers(turn: Turn) -> list[str]:
    """What a person types to play a turn to its end: the first combination listed, two dice when asked."""
    answers, asked = [], False
    while not turn.over:
        if turn.dice_options == (1, 2) and not asked:
            answers.append("2")
            asked = True
        else:
            answers.append("")
        turn.roll(2 if 2 in turn.dice_options else 1)
        if turn.over:
            break
        move = turn.moves[0]
        if len(turn.moves) > 1:
            answers.append(" ".join(map(str, tiles_of(move))))
        turn.shut(move)
    return answers


def solo_answers(rules: Rules, seed: int) -> tuple[str, GameRecord]:
    """What a person types for a whole solo game, then no to playing again, and the game it makes."""
    answers: list[str] = []

    def play(context: TurnContext) -> TurnRecord:
        turn = Turn(rules, turn_rolls(seed, 0, context.round, context.seat))
        answers.extend(turn_answers(turn))
        return turn.record()

    record = play_game(rules, 1, play)
    return "\n".join([*answers, "n"]) + "\n", record


@pytest.mark.slow
def test_a_solo_game_keeps_its_best_per_box_size_through_the_command(tmp_path: Path) -> None:
    answers, record = solo_answers(Rules(), 7)
    result = record.totals[0]
    first = play_solo(tmp_path, "--seed", "7", answers=answers)
    assert first.returncode == 0, first.stderr
    assert f"Result: {result}. New best!\n" in first.stdout
    again = play_solo(tmp_path, "--seed", "7", answers=answers)
    assert f"Your best with these rules: {result}." in again.stdout
    assert f"Result: {result}. Your best is {result}.\n" in again.stdout
    answers, record = solo_answers(Rules(tiles=12), 7)
    twelve = record.totals[0]
    other_box = play_solo(tmp_path, "--seed", "7", "--tiles", "12", answers=answers)
    assert f"Result: {twelve}. New best!\n" in other_box.stdout
    kept = json.loads((tmp_path / FILE_NAME).read_text())["best"]
    assert sorted(kept.values()) == sorted([result, twelve]) and len(kept) == 2


def test_a_drop_out_best_is_the_most_rounds_lasted(tmp_path: Path) -> None:
    rules = Rules(drop_out=60)
    reopened(tmp_path).submit(rules, 5)
    store = reopened(tmp_path)
    assert (store.submit(rules, 4).new_best, store.submit(rules, 5).new_best) == (False, False)
    assert store.submit(rules, 8) == Submitted(True, 5)
    assert reopened(tmp_path).get(rules) == 8 and reopened(tmp_path).get(Rules()) is None


@pytest.mark.slow
def test_a_solo_drop_out_game_keeps_the_rounds_lasted_through_the_command(tmp_path: Path) -> None:
    rules = Rules(drop_out=60)
    answers, record = solo_answers(rules, 1)
    assert (len(record.rounds), record.totals) == (6, (67,))
    first = play_solo(tmp_path, "--seed", "1", "--drop-out", "60", answers=answers)
    assert first.returncode == 0, first.stderr
    assert "Result: 6 rounds, out with a total of 67. New best!\n" in first.stdout
    answers, record = solo_answers(rules, 2)
    again = play_solo(tmp_path, "--seed", "2", "--drop-out", "60", answers=answers)
    assert "Your best with these rules: 6 rounds." in again.stdout
    assert "Result: 5 rounds, out with a total of 64. Your best is 6 rounds.\n" in again.stdout
    answers, record = solo_answers(rules, 6)
    longer = play_solo(tmp_path, "--seed", "6", "--drop-out", "60", answers=answers)
    assert "Result: 9 rounds, out with a total of 68. New best! (was 6 rounds)\n" in longer.stdout
    assert json.loads((tmp_path / FILE_NAME).read_text())["best"] == {rules_key(rules): 9}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("seed", "result"), [(2, "a win, by shutting the box in round 2"), (4, "5 rounds, out with a total of 63")]
)
def test_a_drop_out_game_with_instant_win_says_it_keeps_no_best(tmp_path: Path, seed: int, result: str) -> None:
    rules = Rules(drop_out=60, instant_win=True)
    assert not keeps_best(rules) and keeps_best(Rules(drop_out=60)) and keeps_best(Rules(instant_win=True))
    answers, _ = solo_answers(rules, seed)
    done = play_solo(tmp_path, "--seed", str(seed), "--drop-out", "60", "--instant-win", answers=answers)
    assert done.returncode == 0, done.stderr
    assert f"Result: {result}. Drop-out games with instant win keep no best.\n" in done.stdout
    assert not (tmp_path / FILE_NAME).exists()


def best_command(tmp_path: Path, *options: str, answers: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SHUTBOX_DATA_DIR": str(tmp_path), "NO_COLOR": "1", "COLUMNS": "100"}
    return subprocess.run(
        [sys.executable, "-m", "shutbox_cli", "best", *options],
        input=answers,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
def test_shutbox_best_lists_each_rule_set_with_its_best_and_record(tmp_path: Path) -> None:
    empty = best_command(tmp_path)
    assert empty.returncode == 0
    assert empty.stdout == f"No solo games kept yet in {tmp_path}; `shutbox play` keeps your best with each rule set.\n"
    games = {"standard": Rules(), "drop_out = 60": Rules(drop_out=60), "tiles = 12": Rules(tiles=12)}
    for rules in games.values():
        answers, _ = solo_answers(rules, 7)
        assert play_solo(tmp_path, "--seed", "7", *flags(rule_settings(rules)), answers=answers).returncode == 0
    store = reopened(tmp_path)
    done = best_command(tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"Solo games kept in {tmp_path}:"
    listed = [lines[index : index + 3] for index in range(1, len(lines), 3)]
    for (heading, kept, cost), (shown, rules) in zip(listed, games.items(), strict=True):  # standard first, then by box
        best = store.get(rules)
        assert best is not None and heading == shown
        result = f"{best} round{'' if best == 1 else 's'}" if rules.drop_out else str(best)
        measure = "rounds lasted" if rules.drop_out else "score"
        assert kept == f"  best {result}; 1 game, mean {measure} {best:.2f}"
        assert cost.startswith("  mean cost per game: ")


def test_shutbox_best_reads_at_any_width_broken_between_words(tmp_path: Path) -> None:
    kept = [
        (Rules(), 3, {Goal.SCORE: 1.25}),
        (Rules(tiles=12, drop_out=100), 5, {Goal.STAY_IN: 0.021, Goal.SCORE: 0.5}),
        (
            Rules(tiles=10, shut_rule="one-tile", scoring="digits", rounds=3, one_die="off", first_roll="3-to-go"),
            1234,
            {Goal.SCORE: 12.5},
        ),
    ]
    store, record = BestScores(tmp_path), SoloRecord(tmp_path)
    for rules, result, costs in kept:
        store.submit(rules, result)
        record.add(rules, result, costs)

    def shown(**env: str) -> list[str]:
        done = CliRunner().invoke(app, ["best"], env={"SHUTBOX_DATA_DIR": str(tmp_path), "NO_COLOR": "1", **env})
        assert done.exit_code == 0, done.output
        return done.output.splitlines()

    whole = shown(COLUMNS="")  # piped: a line each
    assert "  mean cost per game: 0.50 points of expected score and 2.1 points of the chance to stay in" in whole
    for columns in (40, 60, 100):
        lines = shown(COLUMNS=str(columns))
        assert all(len(line) <= columns for line in lines if line != f"{tmp_path}:"), lines
        assert " ".join(lines).split() == " ".join(whole).split()  # no word broken, nothing lost
        headings = " ".join(line for line in whole if not line.startswith(" "))
        for line in lines:  # a line of the record goes on indented like it
            assert line.startswith("  ") or line in headings, line


@pytest.mark.slow
def test_shutbox_best_reset_asks_first_and_clears_with_yes(tmp_path: Path) -> None:
    answers, _ = solo_answers(Rules(), 7)
    assert play_solo(tmp_path, "--seed", "7", answers=answers).returncode == 0
    kept = sorted(os.listdir(tmp_path))
    assert kept == [FILE_NAME, "solo-record.json"]
    for answer in ("", "n\n"):
        declined = best_command(tmp_path, "--reset", answers=answer)
        assert declined.returncode == 0 and declined.stdout.startswith(
            f"Clear the best scores and the record of 1 rule set in {tmp_path}? [y/N]: "
        )
        assert declined.stdout.endswith("Nothing was cleared.\n") and sorted(os.listdir(tmp_path)) == kept
    cleared = best_command(tmp_path, "--reset", answers="y\n")
    assert cleared.returncode == 0 and cleared.stdout.endswith("Cleared.\n") and os.listdir(tmp_path) == []
    assert play_solo(tmp_path, "--seed", "7", answers=answers).returncode == 0
    assert best_command(tmp_path, "--reset", "--yes").stdout == "Cleared.\n" and os.listdir(tmp_path) == []


@pytest.mark.slow
def test_shutbox_best_keeps_a_corrupt_file_aside_and_says_where(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_text("{")
    done = best_command(tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    said = " ".join(done.stdout.split())
    assert f"The best-score file {tmp_path / FILE_NAME} is not a best-score file" in said
    assert f"it was kept as {tmp_path / 'best-scores.corrupt.json'} and a new one is started." in said
    assert (tmp_path / "best-scores.corrupt.json").read_text() == "{"
