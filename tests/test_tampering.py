"""Strategies that tamper with the referee (the random generators, the rules, the engine's score,
the dice) through the real command: caught with one sentence naming them in the default mode, at
one worker and at two."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile"
TAMPERERS = {
    "tamper-random": ("tamper_random.py:TamperRandom", "random.Random.random was set"),
    "tamper-rules": ("tamper_rules.py:TamperRules", "the rules' scoring was changed from 'sum' to 'count'"),
    "tamper-score": ("tamper_score.py:TamperScore", "shutbox_cli.game.box.score was replaced"),
    "tamper-dice": ("tamper_dice.py:TamperDice", "shutbox_cli.game.dice.PAIRS was replaced"),
}
FIELD = ("greedy-high", "optimal")


def shutbox(*args: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in ("FORCE_COLOR", "NO_COLOR", "TERM")}
    return subprocess.run(
        [sys.executable, "-m", "shutbox_cli", "tournament", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**env, "COLUMNS": "80"},
    )


def field_args(*specs: str) -> list[str]:
    return [argument for spec in specs for argument in ("-s", spec)]


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("name", sorted(TAMPERERS))
def test_a_tamperer_is_caught_and_named_in_one_sentence(name: str, workers: str, tmp_path: Path) -> None:
    spec, change = TAMPERERS[name]
    report = tmp_path / "report.toml"
    done = shutbox(
        *field_args(str(HOSTILE / spec), *FIELD), "-n", "400", "--seed", "5", "-j", workers, "--report", str(report)
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    message = done.stderr.strip()
    assert message.count("\n") == 0, message
    assert message.startswith(f"shutbox: error: strategy {name!r} tampered with the referee ")
    assert change in message
    assert "--isolate" in message
    assert not report.exists()


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_honest_strategy_of_a_users_file_is_not_taken_for_a_tamperer(workers: str) -> None:
    done = shutbox(
        *field_args("examples/cautious.py:Cautious", *FIELD, "tips"), "-n", "400", "--seed", "5", "-j", workers
    )
    assert done.returncode == 0, done.stderr
    assert "tampered" not in done.stderr
