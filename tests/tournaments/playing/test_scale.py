"""Runs bigger than their way of running expects: work units counted in closed form, exact
computations refused before they start when they would not finish in reasonable time, the
in-process estimate counting what a field of many strategies costs, and a time limit that
judges only the units a user's strategy plays in (a built-in one is never stuck)."""

from __future__ import annotations

import dataclasses
import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import tournaments.exact.tournament
from shutbox_cli.face.cli import app
from tournaments import ConfigError, InProcess, Options, ProcessPool, load_config, run, seat_strategy
from tournaments.backends.base import default_backend, estimated_seconds
from tournaments.exact.cost import refuse_costly
from tournaments.exact.tournament import run_exact
from tournaments.exact.turns import turn_odds
from tournaments.playing.plan import Plan, make_plan
from tournaments.playing.units import UnitPlayer, timed
from tournaments.running.checkpoint import Record
from tournaments.running.checkpoint_keeper import Keeper
from tournaments.running.checkpoint_reading import read_checkpoint

from helpers.paths import ROOT

CAUTIOUS = str(ROOT / "examples" / "cautious.py") + ":Cautious"


def config(**given: Any) -> tournaments.TournamentConfig:
    return load_config(None, Options(**({} if given.get("method") == "exact" else {"seed": 1}), **given))


def copies(count: int, name: str = "greedy-high") -> tuple[str, ...]:
    """A field of `count` copies of one built-in strategy, each named apart."""
    return tuple(f"{name}{number}={name}" for number in range(count))


# --- work units ------------------------------------------------------------------------------------

FIELDS = {
    "mixed": ("optimal", "tips", "target", "random"),
    "by turns": ("target", "random"),
    "bulk": ("optimal", "tips"),
}
SHAPES = [
    pytest.param(games, table, field, bulk, id=f"{games}-{table}-{name}-{'bulk' if bulk else 'general'}")
    for games, table, (name, field), bulk in itertools.product(
        (1, 7, 401, 16_385), (1, 2, 3), FIELDS.items(), (True, False)
    )
    if table <= len(field)
]


@pytest.mark.parametrize(("games", "table", "field", "bulk"), SHAPES)
def test_the_units_counted_in_closed_form_are_the_units_listed(
    games: int, table: int, field: tuple[str, ...], bulk: bool
) -> None:
    plan = make_plan(config(strategies=field, games=games, table=table), bulk)
    listed = [unit.number for unit in plan.units()]
    assert plan.unit_count == plan.all_unit_count == len(listed)
    resumed = dataclasses.replace(plan, done=frozenset(listed[::3]))
    assert resumed.unit_count == sum(1 for _ in resumed.units())
    assert [plan.unit(number) for number in listed] == list(plan.units())


def test_a_trillion_games_are_counted_without_listing_a_unit(monkeypatch: pytest.MonkeyPatch) -> None:
    # In games of two rounds target reads the whole context (in one round it is keyed, in bulk).
    plan = make_plan(config(strategies=("optimal", "tips", "target"), games=10**12, rules={"rounds": 2}))
    monkeypatch.setattr(Plan, "_all_units", lambda self: pytest.fail("the units were listed"))
    deals = 10**12 // 2
    bulk = -(-deals // plan.deals_per_bulk_unit)
    by_turns = 2 * -(-deals // plan.deals_per_unit)  # target's two matchups, game by game
    assert plan.unit_count == bulk + by_turns
    assert estimated_seconds(plan) > 3600 and default_backend(2, plan, idle=lambda: 2.0) == ProcessPool(2)


@pytest.mark.slow
def test_a_checkpoint_of_a_trillion_games_is_read_back_without_listing_a_unit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = make_plan(config(strategies=("optimal", "tips"), games=10**12))
    record = Record.empty(plan)
    player = UnitPlayer(plan)
    for number in (0, 1, 7):
        record.add(player.play(plan.unit(number)))
    Keeper(tmp_path / "run.checkpoint.toml", plan, record, seed_drawn=False, seconds=0).tick()
    monkeypatch.setattr(Plan, "_all_units", lambda self: pytest.fail("the units were listed"))
    saved = read_checkpoint(tmp_path / "run.checkpoint.toml", Options())
    assert saved.record.units == {0, 1, 7} and saved.record.games == record.games
    assert saved.plan.unit_count == plan.unit_count - 3


# --- exact computations ----------------------------------------------------------------------------


@pytest.fixture
def nothing_computed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if any exact game is computed."""
    monkeypatch.setattr(tournaments.exact.tournament, "game", lambda rules, turns: pytest.fail("a game was computed"))


@pytest.mark.slow
@pytest.mark.usefixtures("nothing_computed")
def test_an_exact_tournament_of_a_thousand_rounds_is_refused_saying_how_many_fit() -> None:
    exact = config(strategies=("optimal", "tips"), method="exact", rules={"rounds": 1000})
    with pytest.raises(ConfigError) as refused:
        run_exact(exact)
    message = str(refused.value)
    assert message.startswith("computing these 2 games exactly would take about ")
    assert message.endswith("rounds fit; or enter fewer strategies, or simulate them (without method='exact').")
    fit = int(re.search(r"up to ([\d,]+) rounds fit", message)[1].replace(",", ""))  # type: ignore[index]
    turns = [
        turn_odds(seat_strategy(entry.spec, exact.rules, entry.params, entry.name), False) for entry in exact.strategies
    ]
    for rounds, fits in ((fit, True), (fit + 1, False)):
        rules = dataclasses.replace(exact.rules, rounds=rounds)
        if fits:
            refuse_costly(rules, turns, [(0, 1)], 2, "these", "not")
        else:
            with pytest.raises(ConfigError):
                refuse_costly(rules, turns, [(0, 1)], 2, "these", "not")


@pytest.mark.slow
@pytest.mark.usefixtures("nothing_computed")
def test_an_exact_drop_out_game_too_long_is_refused_saying_what_limit_fits() -> None:
    with pytest.raises(
        ConfigError, match=r": a drop-out limit up to [\d,]+ fits; or enter fewer strategies, or simulate them"
    ):
        run_exact(config(strategies=("optimal", "tips"), method="exact", rules={"drop_out": 40_000}))


@pytest.mark.slow
def test_the_digits_scoring_is_refused_where_its_totals_would_not_fit_in_memory() -> None:
    args = ["tournament", "--exact", "-s", "optimal", "-s", "tips", "--scoring", "digits", "--rounds", "4"]
    done = CliRunner().invoke(app, args, env={"COLUMNS": "80"})
    assert done.exit_code == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("shutbox: error: computing these 2 games exactly would take about ")
    assert "totals per seat at once" in done.stderr and "up to 3 rounds fit" in done.stderr


@pytest.mark.slow
def test_an_exact_duel_too_long_is_refused_too() -> None:
    args = ["analyze", "optimal", "--against", "tips", "--rounds", "600"]
    done = CliRunner().invoke(app, args, env={"COLUMNS": "80"})
    assert done.exit_code == 2
    assert done.stderr.startswith("shutbox: error: computing this game exactly would take about ")
    assert done.stderr.endswith("rounds fit; or simulate it (shutbox tournament, without --exact).\n")


# --- the in-process estimate and the time limit ----------------------------------------------------


@pytest.mark.slow
def test_a_field_of_many_copies_is_estimated_to_cost_their_tables_and_matchups() -> None:
    """100 copies of greedy-high with 2 games each: 4,950 matchups and 100 tables to build, seconds
    of work, not the fraction of a second their 9,900 games would take."""
    plan = make_plan(config(strategies=copies(100), games=2))
    assert estimated_seconds(plan) > 5
    assert default_backend(2, plan, idle=lambda: 2.0) == ProcessPool(2)


def test_a_plan_resumed_is_estimated_on_the_units_it_has_left() -> None:
    plan = make_plan(config(strategies=("optimal", "tips", "target"), games=400_000))
    unit_numbers = range(plan.unit_count)
    nearly_done = dataclasses.replace(plan, done=frozenset(unit_numbers[1:]))
    assert estimated_seconds(nearly_done) < estimated_seconds(plan) / 10


def test_only_units_that_seat_a_users_strategy_are_timed() -> None:
    mixed = make_plan(config(strategies=("greedy-high", "tips", CAUTIOUS), games=10))
    for unit in mixed.units():
        players = {player for index in unit.matchups for player in mixed.matchups[index].players}
        assert timed(mixed, unit) == (2 in players)
        assert timed(mixed, unit, loading=True)  # its worker loads the user's strategy first
    builtin = make_plan(config(strategies=("greedy-high", "tips"), games=10))
    assert not any(timed(builtin, unit, loading=True) for unit in builtin.units())


@pytest.mark.slow
@pytest.mark.parametrize("backend", [InProcess(), ProcessPool(1)], ids=["in process", "pool"])
def test_built_in_strategies_are_never_stopped_as_stuck(backend: Any) -> None:
    """A unit of built-in strategies that takes longer than the time limit (tabulating optimal
    and max-shut alone takes longer than a millisecond) plays to its end."""
    field = config(strategies=("optimal", "max-shut", "tips"), games=20_000, timeout=0.001)
    summary = run(field, backend=backend)
    assert summary.games == 3 * 20_000
