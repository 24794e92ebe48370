"""What a command loads before it does its work: typer's validation library (pydantic, a tenth
of a second) only where the command line gives a value shutbox does not convert itself."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from helpers.command import environment
from helpers.paths import ROOT

EXACT = {"tournaments.exact.analysis", "tournaments.exact.duel", "tournaments.exact.tournament"}
"""The exact games' modules: a simulated tournament neither plays nor reports with them (`optimal`'s
table is the solver's, which it loads)."""

MATCH = {"tournaments.statistics.elo", "tournaments.statistics.pairs", "tournaments.running.sequential"}
"""A match's modules (its pairs, its Elo and its SPRT): a tournament of no gauntlet plays and ranks
without them."""

LOADED = (
    "import atexit, runpy, sys; listing = sys.argv.pop(1); "
    "atexit.register(lambda: print(*sys.modules, sep='\\n', file=open(listing, 'w'))); "
    "runpy.run_module('shutbox_cli', run_name='__main__', alter_sys=True)"
)
"""`python -m shutbox_cli` writing the modules it loaded, by any means, to a file as it ends."""


def imported(*args: str, cwd: Path = ROOT) -> set[str]:
    """The modules the real command loads."""
    with tempfile.TemporaryDirectory() as folder:
        listing = Path(folder) / "modules"
        command = [sys.executable, "-c", LOADED, str(listing), *args]
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=environment(), timeout=120)
        assert done.returncode == 0, done.stderr
        return set(listing.read_text().split())


@pytest.mark.slow
def test_options_left_at_their_defaults_or_plainly_given_load_no_validation_library(tmp_path: Path) -> None:
    assert "pydantic" not in imported("rules")
    assert "pydantic" not in imported("strategies")  # its --format left at its default, an enum's member
    assert "pydantic" not in imported("analyze", "optimal")  # text, as typer reads it
    assert "pydantic" in imported("rules", "--tiles", "1_0")  # a number not plainly written: typer's
    given = ("tournament", "-n", "100", "--report", "r.toml", "-s", "optimal", "-s", "random", "--format", "json")
    loaded = imported(*given, cwd=tmp_path)
    assert "pydantic" not in loaded  # plain numbers, a path, texts, a choice
    assert not EXACT & loaded  # a simulated run's report is written without the exact modules
    commands = {name for name in loaded if name.startswith("shutbox_cli.face.commands.")}
    assert commands == {"shutbox_cli.face.commands.tournament"}  # nor the other commands


@pytest.mark.slow
def test_a_field_of_built_in_strategies_loads_no_isolation_nor_exact_games() -> None:
    """A user's strategy runs in a host of its own (`tournaments.referee.isolation`); built-ins run in
    the referee, so a run of only them loads none of that, nor, where one of them cannot be computed
    exactly (random), the exact games' modules; a field that can be computes them beside."""
    built_in = ("tournament", "-s", "greedy-high", "-s", "tips", "-s", "random", "-n", "20", "--seed", "1", "-j", "1")
    loaded = imported(*built_in)
    assert "tournaments.referee.isolation" not in loaded
    assert not EXACT & loaded
    assert not MATCH & loaded
    assert EXACT & imported("tournament", "-s", "greedy-high", "-s", "tips", "-n", "20", "--seed", "1", "-j", "1")
    assert "tournaments.referee.isolation" in imported(*built_in, "-s", "examples/cautious.py:Cautious")
