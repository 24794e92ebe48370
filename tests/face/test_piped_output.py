"""Output piped or redirected (no terminal, no COLUMNS) is not wrapped: no line is broken inside
a sentence, a word or a number, tables keep a row a line, and no line ends in padding."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from strategies.catalog import catalog

from helpers.command import SHUTBOX, environment


def piped(*args: str) -> str:
    env = environment(columns=None)
    done = subprocess.run([SHUTBOX, *args], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_a_tournament_piped_keeps_each_line_whole() -> None:
    out = piped("tournament", "-s", "optimal", "-s", "greedy-high", "-s", "tips", "--games", "60", "-j", "1")
    lines = out.splitlines()
    seed = re.search(r"seed (\d+) \(drawn; repeat with --seed (\d+)\)\.$", lines[0])
    assert seed is not None and seed[1] == seed[2]
    assert lines[0].startswith("Tournament: 3 strategies") and lines[1].startswith("Rules: ")
    # A ranking row: rank, name and every figure on one line (padded as the drawn seed's figures need).
    for name in ("optimal", "greedy-high", "tips"):
        assert any(re.fullmatch(rf"\d  {name} +[\d.]+% +[\d.]+–[\d.]+% .*(%|–)", line) for line in lines)
    assert any(line.startswith("each strategy played") and line.endswith("than the next.") for line in lines)
    assert all(line == line.rstrip() for line in lines)


@pytest.mark.slow
def test_the_strategy_list_piped_is_a_strategy_a_line() -> None:
    lines = piped("strategies").splitlines()
    for info in catalog():
        assert sum(line.startswith(f"{info.name} ") and line.endswith(info.description) for line in lines) == 1
    assert all(line == line.rstrip() for line in lines)


def test_columns_still_sets_the_width_when_piped() -> None:
    env = {**os.environ, "COLUMNS": "60"}
    done = subprocess.run([SHUTBOX, "strategies"], capture_output=True, text=True, env=env, timeout=60)
    assert max(len(line) for line in done.stdout.splitlines()) <= 60
