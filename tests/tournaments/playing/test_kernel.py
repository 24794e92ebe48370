"""The compiled bulk kernel (the `fast` extra, numba) against the numpy engine, its reference: the
same tallies unit by unit, the same report bytes with the extra and with it hidden, at any -j.
Both engines run in one session (the kernel where numba is installed, numpy by the switch), so
the reference path is tested even where the extra is installed."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shutbox_cli.game import Rules, kernel
from tournaments import Options, load_config
from tournaments.playing.bulk import BulkUnit
from tournaments.playing.compiled import CompiledUnits
from tournaments.playing.plan import Plan, make_plan
from tournaments.playing.units import UnitPlayer

from helpers.command import real_shutbox
from helpers.paths import ROOT

EXACT = ("optimal", "max-shut", "fewest-tiles", "tips", "greedy-high", "lowest-first")
STOCHASTIC = ("random",)  # context-free, not exact: its turns are played turn by turn, handed to the kernel
NO_NUMBA = "the compiled kernel needs the fast extra (numba), not installed here"


def test_the_switch_forces_the_numpy_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(kernel.SWITCH, "numpy")
    assert not kernel.available()


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(
    rules=st.from_type(Rules),
    table=st.integers(1, 4),
    duplicate=st.booleans(),
    field=st.lists(st.sampled_from(EXACT + STOCHASTIC), min_size=4, max_size=5, unique=True),
    seed=st.integers(0, 2**40),
)
def test_the_kernel_counts_every_unit_as_the_numpy_engine_does(
    rules: Rules, table: int, duplicate: bool, field: list[str], seed: int
) -> None:
    pytest.importorskip("numba", reason=NO_NUMBA)
    options = Options(strategies=field, games=40, table=table, seed=seed, duplicate=duplicate, rules=rules.to_mapping())
    assert_same_units(options)


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(
    rules=st.from_type(Rules),
    table=st.integers(1, 4),
    field=st.lists(
        st.sampled_from(EXACT + STOCHASTIC + ("examples/chaser.py:Chaser",)), min_size=3, max_size=3, unique=True
    ),
    seed=st.integers(0, 2**40),
)
def test_keyed_strategies_play_in_the_kernel_as_in_the_numpy_engine(
    rules: Rules, table: int, field: list[str], seed: int
) -> None:
    pytest.importorskip("numba", reason=NO_NUMBA)
    # target is keyed in one-round games (playoffs too); chaser, a user's, in any
    mapping = {name: value for name, value in rules.to_mapping().items() if name not in ("rounds", "drop_out")}
    options = Options(strategies=["target", *field], games=40, table=table, seed=seed, rules=mapping)
    assert_same_units(options)


FIELDS = {
    "exact": ["optimal", "greedy-high", "tips", "max-shut"],
    "given": ["optimal", "random", "fewest-tiles"],
    "keyed": ["target", "optimal", "random"],
}
CASES = {
    "one round, shared ties": ("exact", 2, {}, {}),
    "one round, ties by seat": ("exact", 2, {"ties": "seat"}, {}),
    "3 rounds": ("exact", 2, {"rounds": 3}, {}),
    "20 rounds (past the turns kept)": ("exact", 2, {"rounds": 20, "ties": "seat"}, {}),
    "drop-out": ("exact", 2, {"drop_out": 60}, {}),
    "drop-out, playoffs": ("given", 3, {"drop_out": 60, "ties": "playoff"}, {}),
    "playoffs": ("exact", 4, {"ties": "playoff"}, {}),
    "no instant win, 12 tiles": ("exact", 3, {"instant_win": False, "tiles": 12, "scoring": "count"}, {}),
    "a gauntlet": ("given", 2, {}, {"gauntlet": 1}),
    "duplicate deals": ("exact", 2, {}, {"duplicate": True}),
    "duplicate, 3 seats": ("given", 3, {"rounds": 2}, {"duplicate": True}),
    "given turns": ("given", 2, {}, {}),
    "keyed, playoffs": ("keyed", 2, {"ties": "playoff"}, {}),
    "keyed, 3 seats": ("keyed", 3, {}, {}),
}
"""Fields, tables and rules the kernel plays by different paths (its turns made ahead or kept, its
two-seat matchups played whole, the general loop), each compiled against numpy."""


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_the_kernel_counts_each_path_as_the_numpy_engine_does(case: str) -> None:
    pytest.importorskip("numba", reason=NO_NUMBA)
    field, table, rules, more = CASES[case]
    options = Options(strategies=FIELDS[field], games=60, table=table, seed=11, rules=rules, **more)
    assert_same_units(options, check=lambda fits: pytest.fail("no bulk unit the kernel plays") if not fits else None)


def assert_same_units(options: Options, check: Callable[[bool], object] = assume) -> None:
    """Every bulk unit of the plan counted alike by the kernel and the numpy engine (`check` is
    given whether it has bulk units the kernel plays: hypothesis's `assume` by default)."""
    plan = make_plan(load_config(None, options))
    player = UnitPlayer(plan)
    try:
        bulk = player.bulk
        compiled = CompiledUnits(plan, bulk.table, bulk.strategy_turns, bulk.keyed_table)
        units = [unit for unit in plan.units() if unit.bulk]
        check(bool(units) and all(compiled.fits(unit) for unit in units))
        for unit in units:
            reference = BulkUnit(plan, unit, bulk.strategy_turns, bulk.keyed_turns).play()
            assert compiled.play(unit) == reference
    finally:
        player.close()


def test_big_digit_scores_keep_the_numpy_engine() -> None:
    plan = make_plan(
        load_config(
            None, Options(strategies=["optimal", "tips"], games=4, seed=1, rules={"tiles": 12, "scoring": "digits"})
        )
    )
    units = CompiledUnits(plan, pytest.fail, pytest.fail, pytest.fail)
    assert not units.plays(next(iter(plan.units())))


def small_and_big_plans() -> tuple[Plan, Plan]:
    """Plans of one bulk matchup: 2,000 games (4,000 turns), and 2,000,000 (4,000,000 turns)."""
    return tuple(  # type: ignore[return-value]
        make_plan(load_config(None, Options(strategies=["optimal", "tips"], games=games, seed=1)))
        for games in (2_000, 2_000_000)
    )


def test_a_small_run_keeps_the_numpy_engine_rather_than_load_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(kernel.SWITCH, raising=False)
    small, _ = small_and_big_plans()
    assert not CompiledUnits(small, pytest.fail, pytest.fail, pytest.fail).plays(next(iter(small.units())))


@pytest.mark.slow
def test_a_big_run_plays_compiled_and_so_does_a_small_one_the_switch_asks_it_of(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("numba", reason=NO_NUMBA)
    monkeypatch.delenv(kernel.SWITCH, raising=False)
    small, big = small_and_big_plans()
    assert CompiledUnits(big, pytest.fail, pytest.fail, pytest.fail).plays(next(iter(big.units())))
    monkeypatch.setenv(kernel.SWITCH, kernel.COMPILED)
    assert CompiledUnits(small, pytest.fail, pytest.fail, pytest.fail).plays(next(iter(small.units())))


@pytest.mark.slow
@pytest.mark.usefixtures("pooled")
def test_the_command_writes_the_same_report_with_the_extra_and_hidden_at_any_workers(tmp_path: Path) -> None:
    pytest.importorskip("numba", reason=NO_NUMBA)
    blocked = tmp_path / "blocked"
    (blocked / "numba").mkdir(parents=True)
    (blocked / "numba" / "__init__.py").write_text('raise ImportError("numba hidden by the test")\n')
    path = os.pathsep.join(filter(None, [str(blocked), os.environ.get("PYTHONPATH")]))
    # -j 2 plays in a pool (`pooled`); random's turns are handed to the kernel; chaser is keyed, and
    # target too in one-round games (the drop-out rule is the units' and goldens' to test).
    field = ["optimal", "random", "examples/cautious.py:Cautious", "examples/chaser.py:Chaser", "target"]
    field = [argument for spec in field for argument in ("-s", spec)]
    options = ["--games", "120", "--table", "3", "--ties", "playoff", "--seed", "5", "-q"]
    runs = {
        "kernel-1": ({kernel.SWITCH: kernel.COMPILED}, "1"),
        "kernel-2": ({kernel.SWITCH: kernel.COMPILED}, "2"),
        "hidden-1": ({"PYTHONPATH": path}, "1"),
        "hidden-2": ({"PYTHONPATH": path}, "2"),
        "switch-2": ({kernel.SWITCH: "numpy"}, "2"),
    }
    reports = {}
    for name, (env, workers) in runs.items():
        report = tmp_path / f"{name}.toml"
        done = real_shutbox("tournament", *field, *options, "-j", workers, "--report", str(report), cwd=ROOT, env=env)
        assert done.returncode == 0, done.stderr
        reports[name] = report.read_bytes()
    assert len(set(reports.values())) == 1


@pytest.mark.slow
@pytest.mark.parametrize(
    "arguments",
    [
        ["--help"],
        ["--version"],
        ["tournament", "-s", "target", "-s", "tips", "--rounds", "2", "--games", "4"],
        ["tournament", "-s", "optimal", "-s", "tips", "--games", "2000"],
    ],
    ids=["help", "version", "nothing in bulk", "too little in bulk"],
)
def test_numba_is_not_loaded_by_a_run_that_plays_little_or_nothing_in_bulk(arguments: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "shutbox_cli", *arguments], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "numba" not in done.stderr
