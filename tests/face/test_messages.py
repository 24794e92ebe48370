"""What a command says agrees with what it does: the bounds an error gives are those it checks,
and a count is in the singular when it is one."""

from __future__ import annotations

import pytest

from shutbox_cli.game import Rules, RulesError

from helpers.command import shutbox


def run(*args: str) -> tuple[int, str, str]:
    done = shutbox(*args, columns=None)
    return done.returncode, done.stdout, done.stderr


def test_a_drop_out_of_0_is_none_everywhere_and_the_error_says_so() -> None:
    assert Rules(drop_out=0) == Rules() and Rules.from_mapping({"drop_out": 0}).drop_out is None
    with pytest.raises(RulesError, match=r"from 0 \(no drop-out\) to 45,000 \(what a player can total"):
        Rules(drop_out=-5)
    status, out, _ = run("rules", "--drop-out", "0")
    assert status == 0 and out == run("rules")[1]
    status, _, err = run("play", "--drop-out", "-5")
    assert status == 2
    assert err.startswith("shutbox: error: --drop-out must be a whole number from 0 (no drop-out) to 45,000")


@pytest.mark.slow
def test_a_field_of_one_is_one_strategy() -> None:
    status, out, _ = run("tournament", "-t", "1", "-s", "optimal", "-n", "10", "--seed", "1")
    assert status == 0 and out.startswith("Tournament: 1 strategy, solo tables; 1 matchup × 10 games")
    status, out, _ = run("tournament", "--exact", "-t", "1", "-s", "optimal")
    assert status == 0 and out.startswith("Exact tournament: 1 strategy, solo tables; 1 matchup × 1 seating")


@pytest.mark.slow
def test_the_legend_speaks_of_shared_wins_only_where_the_tie_rule_shares() -> None:
    field = ["tournament", "-s", "optimal", "-s", "tips", "-n", "10", "--seed", "1"]
    assert "a shared win counts as a fraction" in run(*field)[1]
    for ties in ("seat", "playoff"):
        status, out, _ = run(*field, "--ties", ties)
        assert status == 0 and "each strategy played" in out and "shared" not in out
    status, out, _ = run("tournament", "--exact", "-s", "optimal", "-s", "tips", "--ties", "seat")
    assert status == 0 and "win rate: its chance of winning, averaged over them;" in out and "shared" not in out
