"""A game already decided before a turn is played: the table says so, and why the turn is still played
(every player still in plays each round out, as the rules have it)."""

from __future__ import annotations

import re
from functools import partial

import pytest

from shutbox_cli.face.play.aims import settled_chance
from shutbox_cli.face.play.standing import settled_line
from shutbox_cli.game import Rules, TurnContext

from helpers.play_table_helpers import by_hints, run_table

DROP_OUT = Rules(drop_out=60)


@pytest.mark.slow
def test_a_drop_out_game_decided_before_the_last_turn_of_the_round_says_so() -> None:
    # Seed 1: Ann, shutting the worst move every time, goes out at 69; Bob, at 1, cannot reach 60.
    status, shown = run_table(DROP_OUT, partial(by_hints, worst_for=("Ann",)), players=("Ann", "Bob"), seed=1)
    assert status == 0
    turn = shown.split("Totals: Bob 1, Ann 69 (out).\n", 1)[1].split("\nBob scores", 1)[0]
    assert turn.startswith(
        "Out at 60: Bob stays in this round whatever the score.\n"
        "The game is decided: Bob wins whatever this turn scores. "
        "The rules play the round out, so the turn still counts for the totals.\n"
    )
    assert "wins 100.0%" not in turn and re.search(r"Hint: shut [\d +]+\. Expected final score of each choice", turn)
    assert shown.count("The game is decided") == 1
    assert "Bob wins: the last player left" in shown


def test_a_game_is_decided_only_when_no_score_of_the_turn_and_nothing_else_can_change_it() -> None:
    out_at_69 = TurnContext(1, 1, 3, False, (30, None), (39, 1), (True, True))
    assert settled_chance(DROP_OUT, out_at_69) == 1.0
    assert settled_line(DROP_OUT, out_at_69, "You") == (
        "The game is decided: you win whatever this turn scores. "
        "The rules play the round out, so the turn still counts for the totals."
    )
    near = TurnContext(1, 1, 3, False, (30, None), (39, 30), (True, True))  # 30 + 45 could go out above 69
    assert settled_chance(DROP_OUT, near) is None and settled_line(DROP_OUT, near, "Bob") is None
    stays_in = TurnContext(1, 1, 3, False, (5, None), (39, 1), (True, True))  # Ann stays in: the game goes on
    assert settled_chance(DROP_OUT, stays_in) is None
    to_come = TurnContext(0, 0, 3, False, (None, None), (69, 1), (True, True))
    assert settled_chance(DROP_OUT, to_come) is None
    rounds = Rules(rounds=3)
    behind = TurnContext(1, 1, 2, False, (2, None), (8, 150), (True, True))  # Ann ends on 10; Bob has 150
    assert settled_chance(rounds, behind) == 0.0
    assert settled_line(rounds, behind, "Bob") == (
        "Nothing this turn can win the game for Bob. "
        "The rules play the round out, so the turn still counts for the totals."
    )
    assert settled_chance(rounds, TurnContext(1, 1, 1, False, (2, None), (8, 150), (True, True))) is None
