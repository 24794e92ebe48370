"""The bulk engine plays context-free strategies' games many at once (exact ones from tables);
it must give exactly the results of the general engine, which plays every game turn by turn:
same tallies, same report bytes."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from shutbox_cli.game import Rules, solve_expected_score
from tournaments import InProcess, Options, load_config, report_table, run

from helpers.command import real_shutbox
from helpers.paths import ROOT

EXACT = ("optimal", "max-shut", "fewest-tiles", "tips", "greedy-high", "most-tiles")
SLOW = ("random", "target", "examples/cautious.py:Cautious")


def both_engines(options: Options) -> tuple[dict, dict]:
    config = load_config(None, options)
    found = [report_table(run(config, backend=InProcess(), bulk=bulk)) for bulk in (True, False)]
    return found[0], found[1]


@pytest.mark.slow
@settings(max_examples=15)
@given(
    rules=st.from_type(Rules),
    table=st.integers(1, 4),
    duplicate=st.booleans(),
    field=st.lists(st.sampled_from(EXACT + SLOW), min_size=4, max_size=5, unique=True),
    seed=st.integers(0, 2**40),
)
def test_bulk_and_general_engines_give_the_same_report(
    rules: Rules, table: int, duplicate: bool, field: list[str], seed: int
) -> None:
    options = Options(strategies=field, games=24, table=table, seed=seed, duplicate=duplicate, rules=rules.to_mapping())
    bulk, general = both_engines(options)
    assert tomli_w.dumps(bulk) == tomli_w.dumps(general)


def test_matchups_of_context_free_strategies_share_bulk_units_and_the_others_play_game_by_game() -> None:
    from tournaments.playing.plan import make_plan

    field = ["optimal", "max-shut", "fewest-tiles", "random", "target"]  # target reads the context
    plan = make_plan(load_config(None, Options(strategies=field, games=2000, seed=1, rules={"rounds": 2})))
    units = list(plan.units())
    bulk = [unit for unit in units if unit.bulk]
    assert len(bulk) == 1 and len(bulk[0].matchups) == 6  # the six pairs of the first four
    assert {unit.matchups[0] for unit in units if not unit.bulk} == {
        matchup.index for matchup in plan.matchups if 4 in matchup.players
    }


@pytest.mark.slow
def test_solo_bulk_scores_agree_with_the_exact_expected_score() -> None:
    games = 200_000
    config = load_config(None, Options(strategies=["optimal", "greedy-high"], games=games, table=1, seed=5))
    summary = run(config, backend=InProcess())
    optimal = next(standing for standing in summary.ranking if standing.name == "optimal")
    low, high = optimal.score_interval
    assert low <= solve_expected_score(Rules()).value <= high
    assert optimal.turns == games


def shutbox(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return real_shutbox("tournament", *arguments, cwd=cwd, timeout=300)


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        ["--games", "2000"],  # two bulk units of the ten matchups
        ["--games", "300", "--table", "3", "--drop-out", "60", "--ties", "playoff"],
        ["--games", "100", "--table", "4", "--rounds", "3", "--no-duplicate", "--tiles", "10"],
    ],
    ids=["default field", "drop-out, three seats", "rounds, four seats, 10 tiles"],
)
@pytest.mark.usefixtures("pooled")
def test_the_command_writes_the_same_report_with_either_engine_at_any_workers(
    tmp_path: Path, options: list[str]
) -> None:
    # A user's strategy (cautious.py) too; -j 2 plays in a pool (`pooled`), however small the run.
    field = ["-s", "optimal", "-s", "max-shut", "-s", "tips", "-s", "greedy-high", "-s", "random"]
    field += ["-s", "examples/cautious.py:Cautious"]
    runs = {
        "bulk-1": ["-j", "1"],
        "bulk-2": ["-j", "2"],
        "general": ["-j", "1", "--general-engine"],
    }
    reports = {}
    for name, extra in runs.items():
        done = shutbox(
            *field, *options, "--seed", "11", "-q", "--report", str(tmp_path / f"{name}.toml"), *extra, cwd=ROOT
        )
        assert done.returncode == 0, done.stderr
        reports[name] = (tmp_path / f"{name}.toml").read_bytes()
    assert reports["bulk-1"] == reports["bulk-2"] == reports["general"]
