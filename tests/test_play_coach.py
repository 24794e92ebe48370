"""The coach: each choice of a scripted solo game, what it cost against the solver's best, the total
and the costliest; nothing for an optimal game; the running record over games; --coach after a turn."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from test_play_transcript import play

from shutbox_cli.game import Rules, Turn, solve_expected_score, tiles_of, turn_rolls

RULES = Rules()
SOLUTION = solve_expected_score(RULES)

MoveChooser = Callable[[int, tuple[int, ...], tuple[int, ...]], int]
DiceChooser = Callable[[int], int]


def scripted(seed: int, choose_move: MoveChooser, choose_dice: DiceChooser) -> tuple[str, list[float], int]:
    """What a person types for a solo game making these choices (then no to playing again), what
    each choice costs by the solver (the expected final score lost, in the order made) and the score."""
    turn = Turn(RULES, turn_rolls(seed, 0, 0, 0))
    answers: list[str] = []
    costs: list[float] = []
    remembered = None
    while not turn.over:
        mask = turn.open_mask
        count = 2
        if turn.dice_options == (1, 2):
            count = choose_dice(mask)
            values = SOLUTION.dice_values(mask)
            costs.append(values[count] - min(values.values()))
            answers.append("" if count == (remembered or 2) else str(count))
            remembered = count
        else:
            answers.append("")
        turn.roll(count)
        if turn.over:
            break
        if len(turn.moves) > 1:
            dice = turn.dice
            assert dice is not None
            move = choose_move(mask, dice, turn.moves)
            values = SOLUTION.move_values(mask, dice)
            costs.append(values[move] - min(values.values()))
            answers.append(" ".join(map(str, tiles_of(move))))
        else:
            move = turn.moves[0]
        turn.shut(move)
    return "\n".join([*answers, "n"]) + "\n", costs, turn.record().score


def worst_move(mask: int, dice: tuple[int, ...], moves: tuple[int, ...]) -> int:
    values = SOLUTION.move_values(mask, dice)
    return max(moves, key=values.__getitem__)


def best_move(mask: int, dice: tuple[int, ...], moves: tuple[int, ...]) -> int:
    return SOLUTION.best_move(mask, dice)


def coach_of(stdout: str) -> list[str]:
    """The coach's lines after the game: the heading up to the record or the next question."""
    lines = stdout.split("\nCoach: ", 1)[1].splitlines()
    return lines[: next(index for index, line in enumerate(lines) if line.startswith(("Your record", "Play again")))]


@pytest.mark.slow
def test_each_choice_costs_what_the_solver_says_and_the_costliest_are_named(tmp_path: Path) -> None:
    answers, costs, _ = scripted(7, worst_move, lambda mask: 1)
    assert sum(cost > 0 for cost in costs) >= 2
    done = play(tmp_path, ["--seed", "7", "--no-save"], answers, NO_COLOR="1")
    assert done.returncode == 0, done.stderr
    heading, *rows, total, costliest = coach_of(done.stdout)
    assert heading == "Your choices this game, and what each cost against the best:"
    assert len(rows) == len(costs)
    for row, cost in zip(rows, costs, strict=True):
        if cost > 1e-9:
            assert row.endswith(f": it cost {cost:.2f} points of expected score."), row
        else:
            assert ", the best (expected final score " in row, row
    best = sum(cost <= 1e-9 for cost in costs)
    assert total == f"Total cost: {sum(costs):.2f} points of expected score ({best} of {len(costs)} choices the best)."
    first, second = sorted(range(len(costs)), key=lambda index: -costs[index])[:2]
    named = [re.match(r"  (Roll \d+) ", rows[index]).group(1).lower() for index in (first, second)]  # type: ignore[union-attr]
    assert costliest == (
        f"Costliest: {named[0]} ({costs[first]:.2f} points of expected score) "
        f"and {named[1]} ({costs[second]:.2f} points of expected score)."
    )


@pytest.mark.slow
def test_an_optimal_game_costs_nothing(tmp_path: Path) -> None:
    answers, costs, _ = scripted(7, best_move, SOLUTION.best_dice)
    done = play(tmp_path, ["--seed", "7", "--no-save"], answers, NO_COLOR="1")
    assert done.returncode == 0, done.stderr
    *rows, total = coach_of(done.stdout)[1:]
    assert len(rows) == len(costs) and all(", the best (" in row for row in rows)
    assert total == f"Total cost: 0 ({len(costs)} of {len(costs)} choices the best)."


@pytest.mark.slow
def test_the_record_counts_every_solo_game_and_charts_the_latest(tmp_path: Path) -> None:
    worst, worst_costs, worst_score = scripted(7, worst_move, lambda mask: 1)
    best, _, best_score = scripted(7, best_move, SOLUTION.best_dice)
    first = play(tmp_path, ["--seed", "7"], worst, NO_COLOR="1")
    assert f"Your record with these rules: 1 game, mean score {worst_score:.2f}, mean cost per game " in first.stdout
    assert "Latest" not in first.stdout  # a chart needs two games
    second = play(tmp_path, ["--seed", "7"], best, NO_COLOR="1")
    mean_cost = sum(worst_costs) / 2
    assert (
        f"Your record with these rules: 2 games, mean score {(worst_score + best_score) / 2:.2f}, "
        f"mean cost per game {mean_cost:.2f} points of expected score.\n"
    ) in second.stdout
    chart = re.search(
        r"\nLatest 2 \(score, oldest first\): (\S+)  lowest (\d+), highest (\d+), last (\d+)\.\n", second.stdout
    )
    assert chart is not None and len(chart.group(1)) == 2
    assert chart.groups()[1:] == tuple(
        map(str, (min(worst_score, best_score), max(worst_score, best_score), best_score))
    )
    kept = json.loads((tmp_path / "solo-record.json").read_text())["record"]
    assert [entry["recent"] for entry in kept.values()] == [[worst_score, best_score]]


@pytest.mark.slow
def test_coach_shows_each_turns_choices_after_the_turn(tmp_path: Path) -> None:
    answers, costs, _ = scripted(7, worst_move, lambda mask: 1)
    done = play(tmp_path, ["--seed", "7", "--no-save", "--coach"], answers, NO_COLOR="1")
    after_turn = done.stdout.split("\nCoach, this turn:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert re.match(r"You score \d+ \(open tiles", done.stdout.split("\nCoach, this turn:\n")[0].splitlines()[-1])
    assert len(after_turn) == len(costs) and after_turn == coach_of(done.stdout)[1:-2]
