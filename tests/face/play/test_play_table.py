"""The table between turns: quitting in the middle of a game asks first, wins are tallied over
rematches, a person who calls themselves Me is "you", and the typing examples are legal shuts."""

from __future__ import annotations

import re
from itertools import product

import pytest
from hypothesis import given

from shutbox_cli.face.play.entry import how_to_type, read_tiles
from shutbox_cli.face.play.result import tally_line
from shutbox_cli.face.play.seats import make_seats
from shutbox_cli.game import Rules, legal_moves, mask_of

from helpers.play_table_helpers import by_hints, run_table

QUIT_QUESTION = "The game is not over. Quit anyway? [y/N]: "


def test_q_in_the_middle_of_a_match_asks_and_no_plays_on() -> None:
    answers = iter(["", "q", "n", "q", "", "q", "y"])
    status, shown = run_table(
        Rules(rounds=3), lambda shown: next(answers), players=("Ann",), computers=("Robo=optimal",), seed=7
    )
    assert status == 0 and shown.endswith(f"Shut tiles for 9: q\n{QUIT_QUESTION}y\nGoodbye.\n")
    assert shown.count(QUIT_QUESTION) == 3 and f"{QUIT_QUESTION}n\nShut tiles for 9: q\n" in shown


def test_q_then_the_end_of_piped_input_quits() -> None:
    answers = iter(["q"])
    status, shown = run_table(Rules(), lambda shown: next(answers, None), seed=7)
    assert status == 0 and shown.endswith(f"Roll [Enter]: q\n{QUIT_QUESTION}\nGoodbye.\n")


def test_q_at_the_rematch_question_quits_at_once() -> None:
    status, shown = run_table(Rules(), lambda shown: "q" if shown.endswith("[y/N]: ") else by_hints(shown), seed=7)
    assert status == 0 and shown.endswith("Play again? [y/N]: q\nGoodbye.\n") and QUIT_QUESTION not in shown


def test_the_wins_are_tallied_over_rematches() -> None:
    games = iter(["y", "y", "n"])

    def answer(shown: str) -> str | None:
        return next(games) if shown.endswith("Rematch? [y/N]: ") else by_hints(shown)

    status, shown = run_table(Rules(), answer, players=("Ann",), computers=("Robo=optimal",), seed=2)
    assert status == 0
    winners = re.findall(r"^(Ann|Robo) (?:wins|shuts the box and wins)", shown, re.MULTILINE)
    shared = re.findall(r"^Ann and Robo share the win", shown, re.MULTILINE)
    assert len(winners) + len(shared) == 3 and "Wins after" not in shown.split("Game 2.")[0]
    ann = winners.count("Ann") + len(shared) / 2
    robo = winners.count("Robo") + len(shared) / 2
    tally = re.findall(r"^Wins after (\d) games: Ann ([\d.]+), Robo ([\d.]+)\.$", shown, re.MULTILINE)
    assert len(tally) == 2 and tally[-1] == ("3", f"{ann:g}", f"{robo:g}")


def test_a_shared_win_counts_in_equal_parts() -> None:
    assert tally_line(("Ann", "Bob", "Cy"), (1.5, 0.5, 1 / 3), 3) == "Wins after 3 games: Ann 1.5, Bob 0.5, Cy 0.33."


def test_a_person_called_me_is_you() -> None:
    assert [seat.name for seat in make_seats(Rules(), ["Me", "Ann", "i"], ["optimal"])] == [
        "You",
        "Ann",
        "You 2",
        "optimal",
    ]
    answers = iter(["", "q", "y"])
    status, shown = run_table(Rules(), lambda shown: next(answers), players=("me",), computers=("optimal",), seed=7)
    assert status == 0 and "Players: You and optimal (computer).\n" in shown
    assert "\nYour turn.\n" in shown and "\nYou roll 3 + 6 = 9.\n" in shown and "Me" not in shown


def test_the_typing_examples_fit_the_box_and_the_shut_rule() -> None:
    assert how_to_type(Rules()) == "Type the tiles to shut as 3 6, 3,6, 3+6 or 36."
    assert how_to_type(Rules(tiles=12)) == "Type the tiles to shut as 3 6, 3,6 or 3+6."
    assert how_to_type(Rules(tiles=2)) == "Type the tiles to shut as 1 2, 1,2, 1+2 or 12."
    assert how_to_type(Rules(shut_rule="one-tile")) == "Type the tile to shut, such as 6."


@pytest.mark.slow
@given(...)
def test_every_typing_example_is_a_legal_shut_under_the_rules(rules: Rules) -> None:
    sentence = how_to_type(rules).rstrip(".")
    forms = re.split(r", | or ", sentence.split(" as ")[-1])
    throws = [(a,) for a in range(1, 7)] + [tuple(sorted(dice)) for dice in product(range(1, 7), repeat=2)]
    for form in forms:
        tiles = read_tiles(form, rules)
        mask = mask_of(tiles)
        assert any(mask in legal_moves(rules, mask, dice) for dice in throws), (form, rules)
