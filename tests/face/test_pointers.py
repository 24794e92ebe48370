"""The line after a match's or a tournament's table that points to the exact command answering what
its games leave to chance: `diff` of two strategies that are each exact or keyed, `explain` of the
first of a solo tournament, under the run's rules; none where a strategy is neither, and none in a
report or a document on stdout (reports do not change)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers.command import shutbox

SMALL = ("--tiles", "5", "--seed", "1")
"""A small box: the games are quick, and the pointer spells the rule that differs."""

COPY = '''
from strategies import Strategy


class MyHigh(Strategy):
    """greedy-high, written again under another name."""

    name = "my-high"

    def choose_move(self, view):
        return max(view.legal_moves, key=lambda move: (move[-1], -len(move), move[::-1]))

    def choose_dice(self, view):
        return min(view.dice_options)
'''


def test_a_match_of_two_exact_strategies_points_to_diff() -> None:
    done = shutbox("match", "tips", "greedy-high", "-n", "40", "-j", "1", *SMALL, columns=200)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == (
        "exact: `shutbox diff tips greedy-high --measure win --tiles 5` says where they differ."
    )


@pytest.mark.parametrize(
    "spec",
    ["random", "tests/data/turn_reader.py:FirstRollHigh"],  # stochastic; reads the context without a key
)
def test_a_match_with_a_strategy_neither_exact_nor_keyed_points_nowhere(spec: str) -> None:
    done = shutbox("match", spec, "greedy-high", "-n", "20", "-j", "1", *SMALL, columns=200)
    assert done.returncode == 0, done.stderr
    assert "exact:" not in done.stdout and "shutbox diff" not in done.stdout


def test_a_keyed_strategy_is_pointed_to_too_in_the_win_measure_a_match_ranks_by() -> None:
    done = shutbox("match", "target", "optimal", "-n", "20", "-j", "1", *SMALL, columns=200)
    said = "exact: `shutbox diff target optimal --measure win --tiles 5` says where they differ."
    assert done.stdout.splitlines()[-1] == said


def test_the_pointer_of_a_table_of_two_leads_to_a_diff_that_finds_the_difference() -> None:
    done = shutbox("match", "target", "optimal", "-n", "20", "-j", "1", *SMALL, columns=200)
    pointed = done.stdout.splitlines()[-1].split("`")[1].split()[1:]
    followed = shutbox(*pointed, columns=200)
    assert followed.returncode == 0, followed.stderr
    assert "They choose alike in every state this measure reaches" not in followed.stdout
    assert "--measure win" in done.stdout and "chance of winning" in followed.stdout


def test_two_names_for_one_strategy_are_said_to_play_alike_not_pointed_to_diff() -> None:
    done = shutbox("tournament", "-s", "a=perfect", "-s", "b=perfect", "-n", "20", *SMALL, columns=200)
    assert done.returncode == 0, done.stderr
    assert "shutbox diff" not in done.stdout
    assert done.stdout.splitlines()[-1].startswith("exact: the top two, a and b, choose alike in every state")


def test_a_copy_of_a_built_in_is_said_to_play_as_it_does(tmp_path: Path) -> None:
    mine = tmp_path / "mine.py"
    mine.write_text(COPY)
    done = shutbox("match", f"{mine}:MyHigh", "greedy-high", "-n", "20", "-j", "1", *SMALL, columns=200)
    assert done.returncode == 0, done.stderr
    assert "shutbox diff" not in done.stdout
    said = "exact: my-high and greedy-high choose alike in every state (one fingerprint): their games differ by luck."
    assert done.stdout.splitlines()[-1] == said


def test_a_tournament_points_to_the_diff_of_its_top_two_by_their_specs() -> None:
    field = ("-s", "x=greedy-high", "-s", "optimal", "-s", "target(margin=1)")
    done = shutbox("tournament", *field, "-n", "60", *SMALL, "--format", "json")
    ranking = [entry["spec"] for entry in json.loads(done.stdout)["ranking"]]
    assert "exact:" not in done.stdout + done.stderr  # a document on stdout: nothing but the report
    done = shutbox("tournament", *field, "-n", "60", *SMALL, columns=200)
    first, second = ranking[:2]
    said = f"exact: `shutbox diff {first} {second} --measure win --tiles 5` says where the top two differ."
    assert done.stdout.splitlines()[-1] == said.replace("target(margin=1)", "'target(margin=1)'")


def test_a_solo_tournament_points_to_explain_of_its_first() -> None:
    done = shutbox("tournament", "--table", "1", "-s", "greedy-high", "-s", "optimal", "-n", "20", *SMALL)
    assert done.stdout.splitlines()[-1] == "exact: `shutbox explain optimal --tiles 5` says where the first loses."


def test_a_quiet_run_has_no_pointer() -> None:
    done = shutbox("match", "tips", "greedy-high", "-n", "20", "-j", "1", "-q", *SMALL)
    assert "exact:" not in done.stdout + done.stderr
