"""The coach: each choice of a scripted solo game, what it cost against the solver's best, the total
and the costliest; nothing for an optimal game; the running record over games; --coach after a turn."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from test_play_transcript import play
from typer.testing import CliRunner

from shutbox_cli.face.cli import app
from shutbox_cli.face.play.aims import Choice, Goal
from shutbox_cli.face.play.coach import Coaching, Decision, costliest, summary_lines
from shutbox_cli.game import Rules, Turn, solve_expected_score, tiles_of, turn_rolls

from helpers.play_table_helpers import by_hints, run_table

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
    return "\n".join([*answers, "c", "n"]) + "\n", costs, turn.record().score


def worst_move(mask: int, dice: tuple[int, ...], moves: tuple[int, ...]) -> int:
    values = SOLUTION.move_values(mask, dice)
    return max(moves, key=values.__getitem__)


def best_move(mask: int, dice: tuple[int, ...], moves: tuple[int, ...]) -> int:
    return SOLUTION.best_move(mask, dice)


def summary_of(stdout: str) -> list[str]:
    """The coach's summary after the game: from its first line up to the record or the offer of the detail."""
    lines = ("Coach: " + stdout.split("\nCoach: ", 1)[1]).splitlines()
    return lines[: next(index for index, line in enumerate(lines) if line.startswith(("Your record", "Type c")))]


def detail_of(stdout: str) -> list[str]:
    """The coach's detail, shown for `c` at the question after the game: its heading, then each choice
    (then, after a blank line, the result again)."""
    lines = stdout.split("[y/N]: c\n\n", 1)[1].splitlines()
    return lines[: lines.index("")]  # then the result again


@pytest.mark.slow
def test_each_choice_costs_what_the_solver_says_and_the_costliest_are_named(tmp_path: Path) -> None:
    answers, costs, _ = scripted(7, worst_move, lambda mask: 1)
    assert sum(cost > 0 for cost in costs) >= 2
    done = play(tmp_path, ["--seed", "7", "--no-save"], answers, NO_COLOR="1")
    assert done.returncode == 0, done.stderr
    heading, *rows = detail_of(done.stdout)
    assert heading == "Coach: Your choices this game, and what each cost against the best:"
    assert len(rows) == len(costs)
    for row, cost in zip(rows, costs, strict=True):
        if cost > 1e-9:
            assert row.endswith(f": it cost {cost:.2f} points of expected score."), row
        else:
            assert ", the best (expected final score " in row, row
    best = sum(cost <= 1e-9 for cost in costs)
    total, costliest = summary_of(done.stdout)
    others = len(costs) - best
    assert total == (
        f"Coach: {best} of your {len(costs)} choices {'was' if best == 1 else 'were'} the best; "
        f"the other{'' if others == 1 else f' {others}'} cost {sum(costs):.2f} points of expected score."
    )
    first, second = sorted(range(len(costs)), key=lambda index: -costs[index])[:2]
    named = [re.match(r"  (Roll \d+) \([^)]*\): ([^(]+?) \(", rows[index]).groups() for index in (first, second)]  # type: ignore[union-attr]
    assert costliest == (
        f"Costliest: {named[0][0].lower()}, {named[0][1]} ({costs[first]:.2f} points of expected score) "
        f"and {named[1][0].lower()}, {named[1][1]} ({costs[second]:.2f} points of expected score)."
    )


@pytest.mark.slow
def test_an_optimal_game_costs_nothing(tmp_path: Path) -> None:
    answers, costs, _ = scripted(7, best_move, SOLUTION.best_dice)
    done = play(tmp_path, ["--seed", "7", "--no-save"], answers, NO_COLOR="1")
    assert done.returncode == 0, done.stderr
    rows = detail_of(done.stdout)[1:]
    assert len(rows) == len(costs) and all(", the best (" in row for row in rows)
    assert summary_of(done.stdout) == [f"Coach: all {len(costs)} of your choices were the best."]


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
def test_coach_shows_each_turns_choices_after_the_turn_and_the_game_does_not_repeat_them(tmp_path: Path) -> None:
    answers, costs, _ = scripted(7, worst_move, lambda mask: 1)
    done = play(tmp_path, ["--seed", "7", "--no-save", "--coach"], answers.replace("\nc\n", "\n"), NO_COLOR="1")
    after_turn = done.stdout.split("\nCoach, this turn:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert re.match(r"You score \d+ \(open tiles", done.stdout.split("\nCoach, this turn:\n")[0].splitlines()[-1])
    assert len(after_turn) == len(costs)
    for row in after_turn:  # a solo game of one turn: the turn's coach is the game's, shown once
        assert done.stdout.count(row) == 1, row


@pytest.mark.slow
def test_after_a_long_game_the_result_stays_on_screen_and_the_detail_waits_for_c() -> None:
    # Seed 3, three rounds: Ann shuts the worst move each time, Bob the best, optimal in the third seat.
    questions: list[str] = []

    def answer(shown: str) -> str | None:
        if shown.endswith("Rematch? [y/N]: "):
            questions.append(shown)
            return "c" if len(questions) == 1 else "n"
        return by_hints(shown, worst_for=("Ann",))

    status, shown = run_table(
        Rules(rounds=3), answer, players=("Ann", "Bob"), computers=("Robo=optimal",), seed=3, width=60
    )
    assert status == 0
    end = questions[0][questions[0].rindex("Robo scores") :].splitlines()
    assert end[2:4] == ["         Ann  Bob  Robo", "Round 1   22   14    23"] and "Bob wins with a total of 32." in end
    # Everything from the last turn's score to the question fits beside that turn on a 40-row terminal.
    assert len(end) <= 25, "\n".join(end)
    assert "Round 1, roll 1 (open" not in questions[0]
    summary = re.sub(r"\s+", " ", " ".join(end))
    assert "Coach: 0 of Ann's 5 choices were the best; the other 5 cost" in summary
    assert "Coach: 9 of Bob's 10 choices were the best; the other cost 1.3 points of win chance." in summary
    # Ann's costs are of both kinds: the costliest of each is named.
    assert re.search(
        r"Costliest: round 2, roll 1, shut 1 \+ 2 \+ 3 \+ 5 \([\d.]+ points of expected score\) and "
        r"round 3, roll 1, shut 1 \+ 2 \+ 6 \(less than 0\.1 points of win chance\)\.",
        summary,
    )
    detail = shown[len(questions[0]) :].split("Rematch? [y/N]: ", 1)[0]
    assert detail.startswith("c\n\nCoach: Ann's choices this game, and what each cost against\nthe best:\n")
    assert "  Round 3, roll 6 (open 4): two dice (wins 68.5% of the\n" in detail
    assert detail.endswith("points of win chance.\n\nBob wins with a total of 32.\n")  # the result again, below it


def test_costliest_names_the_costliest_of_each_kind_of_cost() -> None:
    def decision(roll: int, goal: Goal, cost: float) -> Decision:
        chosen, best = Choice(1, 0.0, 0.0), Choice(2, cost, 0.0)
        return Decision(0, False, roll, 0b111, (1, 2), goal, chosen, best, cost)

    win, score_high, score_low = (
        decision(1, Goal.WIN, 0.021),
        decision(2, Goal.SCORE, 1.5),
        decision(3, Goal.SCORE, 0.5),
    )
    assert costliest([win, score_high, score_low]) == [win, score_high]
    assert costliest([score_low, score_high]) == [score_high, score_low]
    assert summary_lines("Ann", [win, score_high, score_low], rounds=False)[1] == (
        "Costliest: roll 1, shut 1 (2.1 points of win chance) and roll 2, shut 1 (1.50 points of expected score)."
    )


def test_no_coach_turns_the_coach_off() -> None:
    answers = iter(scripted(7, worst_move, lambda mask: 1)[0].splitlines())
    status, shown = run_table(RULES, lambda shown: next(answers), seed=7, coaching=Coaching.OFF)
    assert status == 0 and "Coach" not in shown and "Type c" not in shown
    assert "Play again? [y/N]: c\nType y to play again, or n (or Enter) to stop.\n" in shown


def test_the_no_coach_option() -> None:
    answers = scripted(7, worst_move, lambda mask: 1)[0]
    done = CliRunner().invoke(app, ["play", "--seed", "7", "--no-save", "--no-coach"], input=answers)
    assert done.exit_code == 0 and "Result:" in done.output and "Coach" not in done.output
    both = CliRunner().invoke(app, ["play", "--coach", "--no-coach"])
    assert both.exit_code == 2 and "--coach and --no-coach cannot be used together" in both.output
