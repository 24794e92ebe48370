"""A context reader's turns are asked of its host a step at a time, a thousand in one round trip,
and checked together (`playing.checked`): a host that forges one answer deep in such a batch is
named at that very turn (its game, round and seat), and one that dies in the middle of a batch is
its strategy's failure, in one sentence, through the real command."""

from __future__ import annotations

import re

import pytest

from helpers.command import real_shutbox
from helpers.paths import HOSTILE

SPEC = f"{HOSTILE}/deep_in_a_batch.py"
RUN = ("-s", "greedy-high", "-n", "4000", "--seed", "5", "-j", "1", "--checkpoint-seconds", "86400")


def error_line(stderr: str) -> str:
    """The run's one sentence of failure."""
    (line,) = [line for line in stderr.splitlines() if line.startswith("shutbox: error:")]
    return line


@pytest.mark.slow
def test_a_forged_answer_deep_in_a_batch_is_named_at_its_turn() -> None:
    done = real_shutbox("tournament", "-s", f"{SPEC}:ForgesLate", *RUN)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    forged = re.search(r"forged: round (\d+), seat (\d+), dice game (\d+)", done.stderr)
    assert forged is not None, done.stderr
    round_, seat, game = forged.groups()
    said = error_line(done.stderr)
    assert re.search(rf"round {round_}, seat {seat}, dealt from seed \d+ as game {game} \(watch", said), said
    assert "'forges-late' answered garbage (the move 511 where the legal moves are" in said
    assert int(game) > 500  # deep in the batch: turns before it were vouched for


@pytest.mark.slow
def test_a_host_that_dies_in_the_middle_of_a_batch_is_its_strategys_failure() -> None:
    done = real_shutbox("tournament", "-s", f"{SPEC}:DiesLate", *RUN)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    said = error_line(done.stderr)
    assert said.startswith("shutbox: error: in matchup ")
    assert "the process of strategy 'dies-late' ended with status 3" in said
