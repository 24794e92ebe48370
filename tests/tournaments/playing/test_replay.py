"""`shutbox replay`: a tournament's game shown again turn by turn, with the rolls and moves the tournament
played (checked against the tournament's own engine and its report), and the command a failure names."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

from shutbox_cli.face.play.board import dice_text, mask_text
from shutbox_cli.face.settings import command_line, flags, said
from shutbox_cli.game import GameRecord, Rules
from strategies import Strategy
from tournaments import InProcess, Options, TournamentFailure, load_config, run
from tournaments.playing.plan import WorkUnit, make_plan
from tournaments.playing.replay import find_game, replay_line, replay_settings, rule_settings
from tournaments.playing.units import UnitPlayer

from helpers.command import real_shutbox

pytestmark = pytest.mark.slow  # every replay plays a tournament first


def shutbox(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return real_shutbox(*arguments, cwd=cwd, columns=200)


def engine_game(config_path: Path, number: int, matchup: str | None) -> tuple[GameRecord, list[str]]:
    """The game as the tournament's own general engine plays it (every seat turn by turn, so every roll
    is recorded), and the names of its players."""
    config = load_config(config_path, Options())
    found = find_game(config, number, matchup)
    player = UnitPlayer(dataclasses.replace(found.plan, bulk=False))
    seats = [player._seat(index) for index in found.matchup.players]
    record = player.play_game(found.matchup, found.slot, seats)
    return record, [entry.name for entry in found.strategies]


def roll_lines(record: GameRecord, names: list[str]) -> list[str]:
    """Every roll of a game as the table writes a computer's roll, in the order played."""
    lines = []
    for game_round in record.rounds:
        for player in record.order:
            turn = game_round.turns[player]
            for roll in () if turn is None else turn.rolls:
                thrown = f"{names[player]} rolls {dice_text(roll.dice)}"
                if roll.shut:
                    joint = "," if len(roll.dice) == 1 else ""
                    lines.append(f"{thrown}{joint} and shuts {mask_text(roll.shut)}.")
                else:
                    lines.append(f"{thrown}.")
    return lines


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two tournaments' reports: three exact strategies in one round (played in bulk), and a drop-out
    table of three with a context reader and a stochastic strategy (played game by game)."""
    folder = tmp_path_factory.mktemp("reports")
    runs = {
        "bulk.toml": ["-s", "optimal", "-s", "tips", "-s", "greedy-high", "--games", "4", "--seed", "5"],
        "drop-out.toml": [
            *("-s", "target", "-s", "random", "-s", "Careful=max-shut", "--table", "3", "--games", "3"),
            *("--drop-out", "30", "--seed", "9"),
        ],
    }
    for name, arguments in runs.items():
        done = shutbox("tournament", *arguments, "-j", "1", "--report", name, "-q", cwd=folder)
        assert done.returncode == 0, done.stderr
    return folder


@pytest.mark.parametrize(
    ("report", "matchup", "games"),
    [("bulk.toml", "optimal vs tips", range(4)), ("drop-out.toml", None, range(2))],
)
def test_a_replay_shows_the_rolls_and_moves_the_tournament_played(
    reports: Path, report: str, matchup: str | None, games: range
) -> None:
    for number in games:
        which = [] if matchup is None else ["--matchup", matchup]
        done = shutbox("replay", report, "--game", str(number), *which, cwd=reports)
        assert (done.returncode, done.stderr) == (0, ""), done.stdout[-500:]
        record, names = engine_game(reports / report, number, matchup)
        shown = [line for line in done.stdout.splitlines() if " rolls " in line]
        assert shown == roll_lines(record, names)
        assert done.stdout.startswith(f"Replay of game {number} of ")


def test_replays_of_a_matchups_games_add_up_to_the_wins_in_its_report(reports: Path) -> None:
    report = tomllib.loads((reports / "bulk.toml").read_text())
    wins = {"optimal": 0.0, "tips": 0.0}
    for number in range(4):
        done = shutbox("replay", "bulk.toml", "--game", str(number), "--matchup", "optimal vs tips", cwd=reports)
        won = re.search(r"\n(optimal|tips) (?:wins|shut the box and wins)", done.stdout)
        if won:
            wins[won.group(1)] += 1
        else:
            assert "optimal and tips share the win" in done.stdout or "tips and optimal share" in done.stdout
            wins = {name: count + 0.5 for name, count in wins.items()}
    pairs = {(pair["strategy"], pair["opponent"]): pair["wins"] for pair in report["head_to_head"]}
    assert (pairs["optimal", "tips"], pairs["tips", "optimal"]) == (wins["optimal"], wins["tips"])


def test_a_failing_game_names_the_exact_command_that_replays_it(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(
        "from strategies import Strategy\n\n\n"
        "class Fails(Strategy):\n"
        "    reads_context = True  # asked turn by turn, so it fails inside a game\n\n"
        "    def choose_move(self, view):\n"
        "        if len(view.open_tiles) < 5:\n"
        '            raise ZeroDivisionError("no luck today")\n'
        "        return view.legal_moves[0]\n"
    )
    arguments = ["-s", "bad.py:Fails", "-s", "greedy-high", "-s", "random", "--tiles", "10", "--seed", "8"]
    failed = shutbox("tournament", *arguments, "-j", "1", cwd=tmp_path)
    assert failed.returncode == 1
    command = re.search(r"\(watch it with `(shutbox replay [^`]+)`\)", failed.stderr)
    assert command is not None, failed.stderr
    game = re.search(r"in matchup (.+?), game (\d+) ", failed.stderr)
    assert game is not None
    words = command.group(1).split()
    assert words[2:] == [
        *("-s", "bad.py:Fails", "-s", "greedy-high", "--tiles", "10", "--seed", "8", "--game", game.group(2))
    ]
    replayed = shutbox(*words[1:], cwd=tmp_path)
    assert replayed.returncode == 1
    sentence = failed.stderr.split(": ", 1)[1].split(": strategy ", 1)[1].splitlines()[0]
    assert replayed.stderr.startswith(f"shutbox: error: strategy {sentence}\n")
    assert f"Replay of game {game.group(2)} of {game.group(1)} (tournament seed 8)" in replayed.stdout


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["-s", "optimal", "-s", "tips", "--game", "0"], "a replay needs the tournament's seed: give --seed"),
        (
            ["-s", "optimal", "-s", "tips", "-s", "random", "--seed", "1", "--game", "0"],
            "the tournament has 3 matchups; name one, such as --matchup 'optimal vs tips'.",
        ),
        (
            ["-s", "optimal", "-s", "tips", "--seed", "1", "--games", "10", "--game", "10"],
            "--game must be from 0 to 9: each matchup plays 10 games, not 10.",
        ),
        (
            ["-s", "optimal", "-s", "tips", "--seed", "1", "--matchup", "tips vs random", "--game", "0"],
            "--matchup 'tips vs random' is not a matchup of the tournament; its matchups are 'optimal vs tips'.",
        ),
        (["missing.toml", "--game", "0"], "no config file 'missing.toml'."),
        (["-s", "optimal", "--seed", "1"], "missing option --game"),
    ],
)
def test_a_bad_replay_is_one_sentence_and_exit_2(tmp_path: Path, arguments: list[str], message: str) -> None:
    done = shutbox("replay", *arguments, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert message in done.stderr


@given(rules=...)
def test_rule_flags_spell_the_rules_they_came_from(rules: Rules) -> None:
    given, table = flags(rule_settings(rules)), {}
    while given:
        flag = given.pop(0).removeprefix("--")
        if flag.startswith("no-"):
            table[flag[3:].replace("-", "_")] = False
        elif flag == "instant-win":
            table["instant_win"] = True
        else:
            value = given.pop(0)
            table[flag.replace("-", "_")] = int(value) if value.isdigit() else value
    assert Rules.from_mapping(table) == rules


class FailsLate(Strategy):
    """Fails in a game once few tiles are open: asked turn by turn, so it fails inside one."""

    name = "fails-late"
    reads_context = True

    def choose_move(self, view: Any) -> Any:
        if len(view.open_tiles) < 5:
            raise ZeroDivisionError("no luck today")
        return view.legal_moves[0]


@pytest.mark.slow
def test_a_failing_game_names_its_replay_by_settings_to_the_library_and_by_command_line_to_the_face() -> None:
    options = Options(strategies=[FailsLate, "greedy-high"], games=40, seed=8, rules={"tiles": 10})
    with pytest.raises(TournamentFailure) as failed:
        run(None, options, backend=InProcess())
    library = re.search(
        r"\(watch it with `(find_game\(load_config\(None, Options\(.+?\)), (\d+)\)`\)", str(failed.value)
    )
    assert library is not None, str(failed.value)
    assert library.group(1).endswith(", seed=8, rules={'tiles': 10}))")
    assert library.group(2) == game_number(str(failed.value))
    assert "--" not in str(failed.value) and "shutbox" not in str(failed.value)
    face = re.search(r"\(watch it with `(shutbox replay [^`]+)`\)", said(failed.value))
    assert face is not None
    words = face.group(1).split()
    assert words[-6:] == ["--tiles", "10", "--seed", "8", "--game", game_number(str(failed.value))]


def game_number(message: str) -> str:
    found = re.search(r", game (\d+) ", message)
    assert found is not None, message
    return found.group(1)


def test_the_replay_the_library_names_is_a_call_that_finds_the_game() -> None:
    config = load_config(None, Options(strategies=("tips", "greedy-high"), games=60, seed=3, rules={"drop_out": 45}))
    plan = make_plan(config)
    slot = list(plan.games(WorkUnit(0, (0,), 20, 7)))[3]
    named = replay_settings(config, plan.matchups[0], slot)
    call = str(named)
    assert call == (
        "find_game(load_config(None, Options(strategies=('tips', 'greedy-high'), games=60, seed=3, "
        f"rules={{'drop_out': 45}})), {slot.number})"
    )
    names = {"find_game": find_game, "load_config": load_config, "Options": Options}
    found = eval(call, names)  # the call as docs/library.md shows it, run as it reads
    assert (found.slot, [entry.name for entry in found.strategies]) == (slot, ["tips", "greedy-high"])
    assert replay_line(named) == (
        f"shutbox replay -s tips -s greedy-high --games 60 --drop-out 45 --seed 3 --game {slot.number}"
    )
    assert replay_line(named) == command_line(named)  # a report's line is the face's
