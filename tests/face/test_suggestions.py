"""A mistyped strategy name gets a "did you mean", as a mistyped command or option does: wherever
a strategy is looked up by name (a spec, a gate, a matchup), in one sentence."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from shutbox_cli.face.cli import app
from strategies.loading import StrategyLoadError, load_strategy
from strategies.shown import did_you_mean
from tournaments import ConfigError, Options, load_config
from tournaments.ci.gates import GateError, check_names, parse_tournament_gate
from tournaments.playing.replay import find_game

BUILT_IN = (
    "greedy-high, random, fewest-tiles, most-tiles, lowest-first, tips, optimal, max-shut, target, perfect, below"
)
KNOWN = f"known names: {BUILT_IN}."


def not_found(spec: str) -> str:
    with pytest.raises(StrategyLoadError) as caught:
        load_strategy(spec)
    return str(caught.value)


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("optimall", "'optimal'"),
        ("Optimal", "'optimal'"),
        ("greedy_high", "'greedy-high'"),
        ("maxshut", "'max-shut'"),
        ("tip", "'tips'"),
        ("most-tile", "'most-tiles' or 'fewest-tiles'"),
    ],
)
def test_a_mistyped_strategy_name_says_what_was_meant(typed: str, meant: str) -> None:
    assert not_found(typed) == f"no strategy named {typed!r} (did you mean {meant}?); {KNOWN}"


def test_a_name_close_to_none_lists_the_names_alone() -> None:
    assert not_found("zebra") == f"no strategy named 'zebra'; {KNOWN}"


def test_every_command_that_takes_a_strategy_suggests_one() -> None:
    for args in (
        ["tournament", "-s", "optimall", "-s", "tips"],
        ["analyze", "optimall"],
        ["analyze", "tips", "--against", "optimall"],
        ["play", "--computer", "optimall"],
        ["strategies", "optimall"],
        ["check", "optimall"],
        ["replay", "-s", "optimall", "-s", "tips", "--seed", "1", "-g", "0"],
    ):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2, (args, result.stderr)
        assert "no strategy named 'optimall' (did you mean 'optimal'?); known names: " in result.stderr, args
        assert result.stderr.count("\n") == 1


def test_a_gate_naming_a_strategy_not_in_the_run_suggests_one() -> None:
    gate = parse_tournament_gate("optimall.rank > 1")
    with pytest.raises(GateError) as caught:
        check_names([gate], ["optimal", "tips"])
    assert str(caught.value) == (
        "fail_if 'optimall.rank > 1' names no strategy of this run (did you mean 'optimal'?); its strategies "
        "are optimal, tips."
    )


def test_a_mistyped_matchup_suggests_the_closest() -> None:
    config = load_config(None, Options(strategies=("optimal", "tips", "random"), games=6, seed=1))
    with pytest.raises(ConfigError) as caught:
        find_game(config, 0, "optimal vs tip")
    assert "is not a matchup of the tournament (did you mean 'optimal vs tips'" in str(caught.value)


def test_suggestions_are_the_closest_known_words_as_they_are_written() -> None:
    assert did_you_mean("TIPS", ["tips", "target"]) == " (did you mean 'tips'?)"
    assert did_you_mean("lucky", ["greedy-high", "optimal"]) == ""
    assert did_you_mean("ab", ["abc", "abd", "abe", "abf"]).count("'") == 6  # three at most
