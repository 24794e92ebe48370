"""The hint aims at the game in hand: the chance to win against others, the chance to stay in a
drop-out game, the expected score alone; its figures agree with a brute-force computation here."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pexpect
import pytest
from test_play_terminal import AGAIN, ONE_DIE, ROLL, SHUT, finish, quit_game, spawn, take_hint
from test_play_transcript import play

from shutbox_cli.face.play.aims import Goal, aim_for
from shutbox_cli.face.play.board import mask_text
from shutbox_cli.face.play.hints import move_hint
from shutbox_cli.game import (
    Rules,
    TurnContext,
    dice_options,
    legal_moves,
    mask_of,
    score,
    solution_distribution,
    solve_expected_score,
)

from helpers.play_table_helpers import by_hints, run_table


def best_worth(rules: Rules, worth: Callable[[int], float]) -> Callable[[int], float]:
    """By brute force: the highest expected worth of the box a turn ends with, from a box before a roll,
    over every ordered throw of one die or two, the number of dice chosen at best."""

    @cache
    def value(mask: int) -> float:
        if mask == 0:
            return worth(0)
        best = 0.0
        for count in dice_options(rules, mask):
            throws = [(a,) for a in range(1, 7)] if count == 1 else [(a, b) for a in range(1, 7) for b in range(1, 7)]
            total = 0.0
            for dice in throws:
                moves = legal_moves(rules, mask, tuple(sorted(dice)))
                total += max((value(mask & ~move) for move in moves), default=worth(mask))
            best = max(best, total / len(throws))
        return best

    return value


def play_by_hints(child: pexpect.spawn, stop: str) -> None:
    """Take every hint, of moves and of dice, up to `stop`."""
    while True:
        index = child.expect([stop, SHUT, ROLL, ONE_DIE, AGAIN])
        if index == 0:
            return
        assert index != 4, f"the game ended before {stop!r}"
        if index == 1:
            take_hint(child)
            continue
        child.sendline("h")
        child.expect(r"Hint: (?:roll (one die|two dice)|nothing to choose)")
        count = {"one die": "1", "two dice": "2", None: ""}[child.match.group(1)]
        child.expect([ROLL, ONE_DIE])
        child.sendline(count)


# Seed 34, Ann and Bob at the keyboard and `optimal` to come: Ann posts 4, and Bob, with
# 1 2 4 5 6 7 8 open, rolls 4 + 6. The lowest expected score says 2 + 8; the best chance to win,
# against Ann's 4 and optimal still to play, is 4 + 6.
BOB_OPEN = (1, 2, 4, 5, 6, 7, 8)
BOB_DICE = (4, 6)
ANN_POSTED = 4


def bob_wins(mask: int) -> float:
    """Bob's chance to win with this box at the end of his turn: a shut box wins at once; else he must
    not be above Ann's 4, and optimal (to come, its shut box a win for it) must not beat him."""
    mine = score(Rules(), mask)
    if mine == 0:
        return 1.0
    if mine > ANN_POSTED:
        return 0.0
    optimal = solution_distribution(solve_expected_score(Rules())).probabilities
    worse = sum(chance for points, chance in optimal.items() if points > mine)
    equal = optimal.get(mine, 0.0)
    if mine == ANN_POSTED:
        return worse / 2 + equal / 3
    return worse + equal / 2


@pytest.mark.slow
def test_against_others_the_hint_ranks_by_the_chance_to_win_and_it_is_exact(tmp_path: Path) -> None:
    rules = Rules()
    mask = mask_of(BOB_OPEN)
    chance = best_worth(rules, bob_wins)
    by_move = {move: chance(mask & ~move) for move in legal_moves(rules, mask, BOB_DICE)}
    winning = max(by_move, key=by_move.__getitem__)
    lowest = solve_expected_score(rules).best_move(mask, BOB_DICE)
    assert (mask_text(winning), mask_text(lowest)) == ("4 + 6", "2 + 8")  # the two goals disagree here

    child = spawn(tmp_path, "--seed", "34", "--player", "Ann", "--player", "Bob", "--computer", "optimal")
    play_by_hints(child, re.escape("Bob's turn.\r\nScore to beat: 4 (Ann).\r\n"))
    board = "  [1] [2]  -  [4] [5] [6] [7] [8]  -    score 33\r\n"
    play_by_hints(child, re.escape(f"{board}Roll [Enter]: "))
    child.sendline("")
    child.expect_exact("Bob rolls 4 + 6 = 10.\r\n")
    child.expect(SHUT)
    child.sendline("h")
    child.expect_exact("Hint: shut 4 + 6. Chance to win this game with each choice, with best play after it:\r\n")
    child.expect(SHUT)
    rows = child.before.split("\r\n")[:-1]
    assert [row.split("  wins")[0].strip() for row in rows] == [
        mask_text(move) for move in sorted(by_move, key=lambda move: -by_move[move])
    ]
    for row in rows:
        move = mask_of(map(int, row.split("  wins")[0].split(" + ")))
        assert re.search(rf"  wins +{100 * by_move[move]:.1f}% of the time", row), row
    assert rows[0].endswith("  best") and "16.5%" in rows[0] and "16.0%" in rows[1]
    quit_game(child)
    assert finish(child) == 0


@pytest.mark.slow
def test_the_one_die_choice_is_ranked_by_the_same_goal() -> None:
    rules = Rules()
    context = TurnContext(1, 1, 0, False, (ANN_POSTED, None, None), (0, 0, 0), (True, True, True))
    aim = aim_for(rules, context)
    mask = mask_of((1, 2, 3))
    chance = best_worth(rules, bob_wins)
    ranked = aim.ranked_dice(mask).choices
    assert aim.goal is Goal.WIN and {choice.pick for choice in ranked} == {1, 2}
    for choice in ranked:
        throws = [(a,) for a in range(1, 7)] if choice.pick == 1 else [(a, b) for a in range(1, 7) for b in range(1, 7)]
        exact = sum(
            max(
                (chance(mask & ~move) for move in legal_moves(rules, mask, tuple(sorted(dice)))), default=bob_wins(mask)
            )
            for dice in throws
        ) / len(throws)
        assert abs(choice.value - exact) < 1e-9


@pytest.mark.slow
def test_a_drop_out_hint_ranks_by_the_chance_to_stay_in_and_the_board_says_what_keeps_you_in(tmp_path: Path) -> None:
    rules = Rules(drop_out=20)
    done = play(tmp_path, ["--seed", "7", "--drop-out", "20", "--no-save"], "\nh\n", NO_COLOR="1")
    assert "Out at 20: a score of 19 or less keeps you in.\n" in done.stdout
    thrown = re.search(r"You roll (\d) \+ (\d) = \d+\.", done.stdout)
    assert thrown is not None
    dice = tuple(sorted(map(int, thrown.groups())))
    assert "Chance to stay in with each choice, with best play after it:\n" in done.stdout
    stays = best_worth(rules, lambda mask: float(score(rules, mask) < 20))
    moves = legal_moves(rules, rules.full_box, dice)
    for move in moves:
        expected = f"  {re.escape(mask_text(move))} +stays in +{100 * stays(rules.full_box & ~move):.1f}% of the time"
        assert re.search(expected, done.stdout), expected
    first = max(moves, key=lambda move: stays(rules.full_box & ~move))
    assert f"Hint: shut {mask_text(first)}. " in done.stdout


@pytest.mark.slow
def test_a_drop_out_hint_against_others_shows_the_chance_to_win_and_to_stay_in(tmp_path: Path) -> None:
    rules = Rules(drop_out=20)
    options = ["--seed", "7", "--drop-out", "20", "--player", "Ann", "--player", "Bob", "--no-save"]
    done = play(tmp_path, options, "\nh\n", NO_COLOR="1")
    assert "Chance to win this game with each choice, with best play after it:\n" in done.stdout
    rows = re.findall(r"\n  ([\d +]+?) +wins +[\d.]+% of the time, stays in +([\d.]+)%", done.stdout)
    assert rows
    stays = best_worth(rules, lambda mask: float(score(rules, mask) < 20))
    for move, chance in rows:
        assert chance == f"{100 * stays(rules.full_box & ~mask_of(map(int, move.split(' + ')))):.1f}"


def test_alone_the_hint_aims_at_the_lowest_expected_score_and_before_the_last_round_too() -> None:
    alone = aim_for(Rules(), TurnContext(0, 0, 0, False, (None,), (0,), (True,)))
    assert alone.goal is Goal.SCORE and alone.note is None
    rounds = Rules(rounds=3)
    early = aim_for(rounds, TurnContext(1, 1, 0, False, (12, None), (0, 0), (True, True)))
    assert early.goal is Goal.SCORE and early.note is not None and "last round" in early.note
    last = aim_for(rounds, TurnContext(1, 1, 2, False, (12, None), (20, 25), (True, True)))
    assert last.goal is Goal.WIN


CERTAIN_TO_STAY_IN = [
    # Ann's second round of `--tiles 12 --player Ann --computer Robo=optimal --drop-out 100 --seed 8`
    (Rules(tiles=12, drop_out=100), TurnContext(0, 0, 1, False, (None, None), (24, 15), (True, True)), (2, 4)),
    # the first round of `--drop-out 45`, alone
    (Rules(drop_out=45), TurnContext(0, 0, 0, False, (None,), (0,), (True,)), (3, 6)),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "context", "dice"), CERTAIN_TO_STAY_IN, ids=["against optimal", "alone"])
def test_when_every_move_stays_in_for_certain_the_hint_ranks_by_expected_score_and_says_so(
    rules: Rules, context: TurnContext, dice: tuple[int, int]
) -> None:
    heading, *rows = move_hint(aim_for(rules, context), rules.full_box, dice)
    assert heading.endswith(
        ". Every choice stays in 100.0% of the time, so they are ranked by expected final score, "
        "with best play after it:"
    )
    expected = solve_expected_score(rules).move_values(rules.full_box, dice)
    ranked = sorted(expected, key=expected.__getitem__)
    assert heading.startswith(f"Hint: shut {mask_text(ranked[0])}. ")
    assert [row.split("  expected")[0].strip() for row in rows] == [mask_text(move) for move in ranked]
    for row, move in zip(rows, ranked, strict=True):
        assert f"expected final score {expected[move]:5.2f}" in row
    assert [row.endswith("  best") for row in rows] == [True] + [False] * (len(rows) - 1)


def test_when_every_move_stays_in_for_certain_the_coach_counts_the_expected_score_lost() -> None:
    rules = Rules(drop_out=45)
    typed: list[str] = []

    def answer(shown: str) -> str | None:
        if not typed and shown.endswith("Shut tiles for 9: "):  # seed 7 opens with 3 + 6: each shut stays in
            typed.append("1 2 6")
            return typed[0]
        if shown.endswith("Play again? [y/N]: ") and len(typed) == 1:
            typed.append("c")  # the coach's detail
            return "c"
        return by_hints(shown)

    status, shown = run_table(rules, answer, seed=7)
    assert status == 0
    values = solve_expected_score(rules).move_values(rules.full_box, (3, 6))
    worse, best = values[mask_of((1, 2, 6))], values[mask_of((9,))]
    assert (
        f"Round 1, roll 1 (open 1 2 3 4 5 6 7 8 9; 3 + 6 = 9): shut 1 + 2 + 6 (expected final score {worse:.2f}); "
        f"best 9 (expected final score {best:.2f}): it cost {worse - best:.2f} points of expected score."
    ) in shown
