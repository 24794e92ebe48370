"""Keyed strategies play in bulk, one table per key met; the general engine asks them at every
decision with the context their key shows. Both must give the same report, byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from shutbox_cli.game import Rules, TurnContext
from strategies.keys import FEATURES, key_of
from tournaments import InProcess, Options, load_config, report_table, run
from tournaments.playing.plan import make_plan

from helpers.command import real_shutbox
from helpers.paths import ROOT

EXACT = ("optimal", "max-shut", "fewest-tiles", "greedy-high")
OTHERS = ("random", "examples/cautious.py:Cautious", "examples/chaser.py:Chaser", "tests/data/context_reader.py:Reader")
"""A stochastic strategy, a user's exact one, a user's keyed one and a user's context reader."""


@pytest.mark.slow
@settings(max_examples=12, deadline=None, derandomize=True)
@given(
    rules=st.from_type(Rules),
    table=st.integers(1, 4),
    one_round=st.booleans(),
    field=st.lists(st.sampled_from(EXACT + OTHERS), min_size=3, max_size=3, unique=True),
)
def test_keyed_bulk_and_the_general_engine_give_the_same_report(
    rules: Rules, table: int, one_round: bool, field: list[str]
) -> None:
    mapping = rules.to_mapping()
    if one_round:  # target is keyed in one-round games (playoffs too); else it reads the whole context
        mapping = {name: value for name, value in mapping.items() if name not in ("rounds", "drop_out")}
    options = Options(strategies=["target", *field], games=24, table=table, seed=11, rules=mapping)
    config = load_config(None, options)
    bulk, general = (report_table(run(config, backend=InProcess(), bulk=bulk)) for bulk in (True, False))
    assert tomli_w.dumps(bulk) == tomli_w.dumps(general)


@pytest.mark.slow
@pytest.mark.parametrize("table", [2, 3, 4])
@pytest.mark.parametrize("rules", [{}, {"ties": "playoff"}, {"ties": "seat", "instant_win": False}])
def test_target_in_bulk_gives_the_reports_it_gave_game_by_game(table: int, rules: dict[str, object]) -> None:
    config = load_config(
        None,
        Options(strategies=["target", "optimal", "tips", "greedy-high"], games=240, table=table, seed=5, rules=rules),
    )
    assert make_plan(config).keys[0] is not None  # target plays keyed, in bulk
    bulk, general = (report_table(run(config, backend=InProcess(), bulk=bulk)) for bulk in (True, False))
    assert tomli_w.dumps(bulk) == tomli_w.dumps(general)


def test_target_is_keyed_in_one_round_games_only() -> None:
    one_round = make_plan(load_config(None, Options(strategies=["target", "optimal"], games=10, seed=1)))
    several = make_plan(
        load_config(None, Options(strategies=["target", "optimal"], games=10, seed=1, rules={"rounds": 3}))
    )
    assert one_round.keys == (("to_beat", "to_beat_count", "to_come"), None)
    assert all(matchup.bulk for matchup in one_round.matchups)
    assert several.keys == (None, None) and not any(matchup.bulk for matchup in several.matchups)


def test_a_key_is_read_from_the_context_as_the_player_deciding_sees_it() -> None:
    context = TurnContext(2, 1, 0, False, (7, None, None, 4), (10, 3, 5, 8), (True, True, True, True))
    values = dict(zip(FEATURES, key_of(context, tuple(FEATURES)), strict=True))
    assert values == {
        "seat": 1,
        "round": 0,
        "playoff": False,
        "total": 5,
        "to_beat": 4,
        "to_beat_count": 1,
        "to_come": 1,
        "leader_total": 3,
    }


@pytest.mark.slow
@pytest.mark.parametrize("table", [2, 3])
def test_a_users_keyed_strategy_plays_in_bulk_from_tables_its_host_builds(table: int) -> None:
    field = ["examples/chaser.py:Chaser", "target", "optimal", "examples/cautious.py:Cautious"]
    config = load_config(None, Options(strategies=field, games=120, table=table, seed=3, rules={"ties": "playoff"}))
    assert make_plan(config).keys[0] == ("to_beat",)
    bulk, general = (report_table(run(config, backend=InProcess(), bulk=bulk)) for bulk in (True, False))
    assert tomli_w.dumps(bulk) == tomli_w.dumps(general)


@pytest.mark.slow
@pytest.mark.usefixtures("pooled")
def test_keyed_reports_are_the_same_with_one_worker_or_two(tmp_path: Path) -> None:
    reports = []
    for workers in ("1", "2"):
        report = tmp_path / f"j{workers}.toml"
        done = real_shutbox(
            "tournament", "-s", "examples/chaser.py:Chaser", "-s", "target", "-s", "optimal", "-s", "tips",
            "--games", "4000", "--seed", "9", "-j", workers, "-o", str(report), "-q", cwd=ROOT, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        reports.append(report.read_text())
    assert reports[0] == reports[1]


@pytest.mark.slow
@pytest.mark.usefixtures("pooled")  # the lie caught in a worker reaches the user as one sentence
def test_a_run_names_a_keyed_strategy_that_reads_outside_its_key_and_exits_1() -> None:
    done = real_shutbox(
        "tournament", "-s", "tests/data/keyed_liars.py:Peeker", "-s", "optimal", "--games", "200", "--seed", "1",
        cwd=ROOT, timeout=300,
    )  # fmt: skip
    assert done.returncode == 1
    assert "'peeker' read view.context.round without declaring key" in done.stderr
    assert "Traceback" not in done.stderr
