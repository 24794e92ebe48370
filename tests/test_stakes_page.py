"""docs/stakes.md shows what the commands print: the published game's value for a stake, the
standard game's fair rules, and the figures it quotes (the published fair payout is held by
tests/game/test_fair.py, a minute and a half to print whole)."""

from __future__ import annotations

import pytest

from helpers.command import shutbox
from helpers.pages import block, page

PUBLISHED = ("--scoring", "digits", "--one-die", "low-sum", "--one-die-mode", "compulsory", "--shut-pays", "2")


def printed(*args: str) -> list[str]:
    done = shutbox(*args, columns=None)
    assert done.returncode == 0, done.stderr
    return [line.rstrip() for line in done.stdout.splitlines()]


@pytest.mark.slow
def test_the_published_games_value_is_what_solve_prints() -> None:
    shown = block("stakes", "text", "  winnings").splitlines()
    assert all(line.rstrip() in printed("solve", *PUBLISHED) for line in shown)


@pytest.mark.slow
def test_the_standard_games_fair_rules_are_what_fair_prints() -> None:
    shown = block("stakes", "text", "playoff  none").splitlines()
    assert all(line.rstrip() in printed("fair") for line in shown)


def test_the_figures_side_by_side_are_those_the_tests_hold() -> None:
    text = " ".join(page("stakes").split())
    for figure in ("-0.02456 stakes (-2.456%)", "0.998%", "3.931 (3.963 with the play of the game paying 2 kept)"):
        assert figure in text
