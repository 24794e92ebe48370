"""`shutbox diff A B`: the states where two strategies choose differently, each with its exact cost,
reach-weighted under A's play; the rows add up to the exact difference, which the exact engines
(`analyze`'s distribution, the duel) give independently; identical strategies are said so."""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

from shutbox_cli.game import Rules, Ties, dice_options, move_table, score
from shutbox_cli.game.moves import THROW_INDEX
from tournaments import ConfigError, PolicyDiff, analyze, diff, duel_exactly, seat_strategy

from helpers.command import WIDTH, real_shutbox, shutbox
from helpers.paths import DATA


@pytest.fixture
def copies() -> Path:
    return DATA / "greedy_copy.py"


def run(*arguments: str, status: int = 0, columns: int | None = WIDTH) -> subprocess.CompletedProcess[str]:
    done = shutbox("diff", *arguments, columns=columns)
    assert done.returncode == status, done.stderr
    return done


def greedy_value(rules: Rules) -> dict[int, float]:
    """greedy-high's expected score from every box, worked out here from its rule alone."""
    table = move_table(rules)

    @cache
    def value(mask: int) -> float:
        if not mask:
            return 0.0
        count = min(dice_options(rules, mask))
        total = 0.0
        for dice in itertools.product(range(1, 7), repeat=count):  # every way the dice fall, alike
            moves = table.row(mask)[THROW_INDEX[dice]]
            chance = 1 / 6**count
            if not moves:
                total += chance * score(rules, mask)
                continue
            shut = max(moves, key=lambda move: (move.bit_length(), -move.bit_count(), _descending(move)))
            total += chance * value(mask & ~shut)
        return total

    return {mask: value(mask) for mask in range(rules.full_box + 1)}


def _descending(move: int) -> list[int]:
    return sorted((tile for tile in range(1, 13) if move >> (tile - 1) & 1), reverse=True)


@pytest.mark.slow
def test_a_strategy_and_its_copy_under_another_name_are_identical_with_one_fingerprint(copies: Path) -> None:
    itself = run("greedy-high", "greedy-high")
    copied = run(f"{copies}:Copy", "greedy-high")
    for done in (itself, copied):
        assert "identical: they choose the same move in every state under these rules" in done.stdout
        assert "a match between them is unnecessary" in done.stdout
    report = json.loads(run(f"{copies}:Copy", "greedy-high", "--format", "json").stdout)
    assert report["identical"] is True
    assert report["fingerprint"] == report["opponent_fingerprint"]
    assert report["fingerprint"] in itself.stdout
    assert report["row"] == [] and report["difference"] == 0.0


@pytest.mark.slow
def test_a_one_state_change_is_that_state_alone_with_its_exact_cost(copies: Path, tmp_path: Path) -> None:
    path = tmp_path / "diff.json"
    done = run(f"{copies}:OneOff", "greedy-high", "--report", str(path))
    report = json.loads(path.read_text())
    assert report["kind"] == "diff" and report["identical"] is False
    assert report["fingerprint"] != report["opponent_fingerprint"]
    [row] = report["row"]
    rules = Rules()
    value = greedy_value(rules)
    full = rules.full_box
    cost = value[full & ~0b110000] - value[full & ~0b100000010]  # 5 + 6 shut, less 2 + 9 shut
    assert (row["box"], row["choice"], row["throw"]) == (list(range(1, 10)), "move", [5, 6])
    assert (row["a_shuts"], row["b_shuts"]) == ([5, 6], [2, 9])
    assert row["cost"] == pytest.approx(cost, abs=1e-12)
    assert row["reach"] == pytest.approx(2 / 36, abs=1e-15)
    assert report["difference"] == pytest.approx(2 / 36 * cost, abs=1e-12)
    assert report["value"] - report["opponent_value"] == pytest.approx(report["difference"], abs=1e-15)
    assert report["opponent_value"] == pytest.approx(value[full], abs=1e-12)
    assert re.search(r"\n123456789 +5\+6 +5\+6 +2\+9 +\+0\.6\d+ +5\.5556% ", done.stdout), done.stdout
    said = " ".join(done.stdout.split())
    assert re.search(r"one-off loses 0\.0\d+ points a turn beside greedy-high: the 1 row's loss is \+0\.0", said)


def test_two_that_differ_only_where_the_measure_does_not_reach_say_no_sum_of_no_rows() -> None:
    done = run("target", "optimal", "--tiles", "5")
    said = " ".join(done.stdout.split())
    assert "They choose alike in every state this measure reaches" in said
    assert "add up" not in said and "+0" not in said and "-0" not in said


@pytest.mark.parametrize(
    ("a", "b", "rules"),
    [
        ("greedy-high", "optimal", Rules()),
        ("tips", "max-shut", Rules(tiles=10, scoring="count")),
        ("lowest-first", "fewest-tiles", Rules(tiles=7, one_die="off")),
        pytest.param("most-tiles", "optimal", Rules(tiles=12), marks=pytest.mark.slow),
    ],
)
def test_the_rows_add_up_to_the_difference_in_expected_score_that_analyze_gives(a: str, b: str, rules: Rules) -> None:
    with seat_strategy(a, rules) as first, seat_strategy(b, rules) as second:
        found = diff(first, second)
        expected = analyze(first).expected_score - analyze(second).expected_score
    assert found.rows and not found.identical
    assert found.difference == pytest.approx(expected, abs=1e-9)
    assert math.fsum(row.loss for row in found.rows) == pytest.approx(expected, abs=1e-9)
    losses = [abs(row.loss) for row in found.rows]
    assert losses == sorted(losses, reverse=True)


@pytest.mark.slow
@pytest.mark.parametrize("ties", [Ties.SHARE, Ties.SEAT])
@pytest.mark.parametrize(("a", "b"), [("tips", "optimal"), ("target", "optimal"), ("greedy-high", "target")])
def test_the_win_measure_is_the_exact_duels_chance_and_the_rows_add_up_to_it(a: str, b: str, ties: Ties) -> None:
    rules = Rules(tiles=8, ties=ties)
    with seat_strategy(a, rules) as first, seat_strategy(b, rules) as second:
        for seat in (None, 1, 2):
            found = diff(first, second, "win", seat)
            assert found.a_value == pytest.approx(duel_exactly(first, second, seat).seats[-1].wins, abs=1e-12)
            assert found.b_value == pytest.approx(duel_exactly(second, second, seat).seats[-1].wins, abs=1e-12)
            assert found.rows_total == pytest.approx(-found.difference, abs=1e-9)  # what A loses


@pytest.mark.parametrize("measure", ["score", "win"])
def test_the_rows_and_their_total_are_one_sign_what_a_loses_said_in_words(measure: str) -> None:
    """A loss above 0 is what A loses in a state; their total is signed alike, and said as A gaining
    or losing, in both measures (in points, a higher score is the worse)."""
    said = {}
    for a, b in (("tips", "optimal"), ("optimal", "tips")):
        report = json.loads(run(a, b, "--measure", measure, "--tiles", "6", "--format", "json").stdout)
        assert report["rows_total"] == pytest.approx(math.fsum(row["loss"] for row in report["row"]), abs=1e-12)
        said[a] = run(a, b, "--measure", measure, "--tiles", "6", "--top", "1", columns=300).stdout
    assert re.search(r"\ntips loses [0-9.]+%? .*beside optimal", said["tips"]), said["tips"]
    if measure == "win":  # optimal's choices win more: the rows are its gains, below 0
        assert re.search(r"\noptimal gains [0-9.]+% .*beside tips: .* add up to -[0-9.]+%", said["optimal"])
    assert "for tips" not in said["tips"]


def test_a_keyed_strategy_is_set_beside_the_other_key_by_key() -> None:
    rules = Rules(tiles=6)
    with seat_strategy("target", rules) as first, seat_strategy("optimal", rules) as second:
        found = diff(first, second, "win", 2)
        alone = diff(first, second)
    assert found.rows and {row.seat for row in found.rows} == {2}
    assert {feature for row in found.rows for feature, _ in row.key} == {"to_beat", "to_beat_count", "to_come"}
    assert found.rows_total == pytest.approx(-found.difference, abs=1e-9)
    assert repr(found).startswith("<PolicyDiff target against optimal; ")
    # Alone, target plays as optimal does: no row, though its tables for other keys differ.
    assert alone.rows == () and alone.difference == 0 and not alone.identical


def test_identical_strategies_have_a_one_line_repr() -> None:
    with seat_strategy("optimal", Rules()) as first, seat_strategy("optimal", Rules()) as second:
        found = diff(first, second)
    assert isinstance(found, PolicyDiff) and found.identical
    assert repr(found) == f"<PolicyDiff optimal and optimal; identical ({found.fingerprint})>"


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["random", "optimal"], "'random' draws at random: diff compares strategies that choose alike every time"),
        (["optimal", "optimal", "--measure", "win", "--rounds", "3"], "the win measure is for a game of one round"),
        (["optimal", "optimal", "--measure", "win", "--ties", "playoff"], "with playoffs use --measure score"),
        (["optimal", "optimal", "--seat", "1"], "only in the win measure"),
        (["optimal", "nosuch"], "nosuch"),
        (["optimal", "optimal", "--seat", "3"], "--seat"),
        (["optimal", "optimal", "--measure", "odds"], "--measure"),
        (["optimal", "optimal", "--tiles", "13"], "--tiles"),
        (["optimal", "tips", "--report", "/nonexistent/diff.toml"], "cannot write '/nonexistent/diff.toml'"),
    ],
)
def test_bad_input_is_one_sentence_and_status_2(arguments: list[str], said: str) -> None:
    done = run(*arguments, status=2)
    assert said in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_the_library_refuses_a_measure_it_does_not_know() -> None:
    with (
        seat_strategy("optimal", Rules()) as first,
        seat_strategy("optimal", Rules()) as second,
        pytest.raises(ConfigError, match="must be score or win"),
    ):
        diff(first, second, "odds")  # type: ignore[arg-type]


RIVAL_COPY = '''
from strategies import Strategy


class Same(Strategy):
    """shutbox-rival's strategy, written again: as few tiles as it can, the lowest set first."""

    def choose_move(self, view):
        return min(view.legal_moves, key=lambda move: (len(move), move))
'''


@pytest.mark.slow
def test_an_installed_strategy_is_set_beside_a_users_file_and_a_builtin(tmp_path: Path) -> None:
    """shutbox-rival on the path as installed (its metadata written by hand), diffed in real commands."""
    info = tmp_path / "shutbox_rival-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: shutbox-rival\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[shutbox.strategies]\nrival = shutbox_rival:Rival\n")
    (tmp_path / "same.py").write_text(RIVAL_COPY)
    path = f"{tmp_path}{os.pathsep}{DATA / 'shutbox-rival'}"
    done = real_shutbox("diff", "rival", "same.py:Same", cwd=tmp_path, env={"PYTHONPATH": path})
    assert done.returncode == 0, done.stderr
    assert "identical: they choose the same move in every state under these rules" in done.stdout
    done = real_shutbox("diff", "rival", "greedy-high", "--format", "json", cwd=tmp_path, env={"PYTHONPATH": path})
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["spec"] == "rival" and not report["identical"] and report["row"]
    assert report["rows_total"] == pytest.approx(report["difference"], abs=1e-9)
