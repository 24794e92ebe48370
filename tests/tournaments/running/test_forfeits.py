"""Forfeits through the library: real runs of real failing strategies (one that raises, one that
hangs, one whose process exits 0, one that raises at its 1000th decision) go on under
`on_failure = "forfeit"` or `"disqualify"`, at -j 1 and in a pool of two: the same units are
forfeited either way, every other game is the run without the failure's, a disqualified strategy
leaves the report of the run without it, a resumed run keeps its forfeits; and the default still
stops at the failure."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tournaments
from tournaments import ConfigError, Interrupted, Options, TournamentFailure, report_table

from helpers.paths import HOSTILE

pytestmark = pytest.mark.slow  # whole tournaments of users' strategies, each in a process of its own

BUILT_IN = ("greedy-high", "tips")
SEED = 5
GAMES = 6000
"""Three work units of 2,000 games a matchup of a user's strategy: units 1 to 3 seat greedy-high
against it, 4 to 6 tips (unit 0 plays greedy-high against tips in bulk)."""
FORFEITED = [(3, "greedy-high vs {}"), (4, "tips vs {}"), (6, "tips vs {}")]
"""Where the strategies of `hostile/forfeits.py` fail under this seed: the same at any -j."""


def spec(name: str) -> str:
    return f"{HOSTILE}/forfeits.py:{name}"


def played(*strategies: str, workers: int = 1, games: int = GAMES, **settings: Any) -> tournaments.Summary:
    summary = tournaments.run(Options(strategies=strategies, games=games, seed=SEED, workers=workers, **settings))
    assert isinstance(summary, tournaments.Summary)
    return summary


def pairs(summary: tournaments.Summary, *names: str) -> list[dict[str, Any]]:
    """The report's head-to-head entries between these strategies."""
    return [
        pair
        for pair in report_table(summary)["head_to_head"]
        if pair["strategy"] in names and pair["opponent"] in names
    ]


@pytest.fixture(scope="module")
def without() -> tournaments.Summary:
    """The run of the built-in strategies alone."""
    return played(*BUILT_IN)


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("name", ["RaisesRarely", "ExitsRarely"])
def test_a_failing_strategy_forfeits_the_same_units_at_any_workers_and_the_rest_is_untouched(
    name: str, workers: int, without: tournaments.Summary, pooled: None
) -> None:
    summary = played(*BUILT_IN, spec(name), workers=workers, on_failure="forfeit")
    failing = summary.config.names[2]
    assert [(forfeit.unit, forfeit.titles) for forfeit in summary.forfeits] == [
        (unit, (title.format(failing),)) for unit, title in FORFEITED
    ]
    assert all(forfeit.strategy == failing and not forfeit.disqualified for forfeit in summary.forfeits)
    assert all(forfeit.games == 2000 for forfeit in summary.forfeits)
    assert pairs(summary, *BUILT_IN) == pairs(without, *BUILT_IN)
    assert summary.tallies[0] == without.tallies[0]  # greedy-high vs tips, game for game
    assert summary.forfeited == 3 * 2000 and summary.games == 3 * GAMES - 3 * 2000
    assert repr(summary).startswith("<Summary of 3 strategies, 12,000 games, seed 5; 3 forfeits (6,000 games); ")
    played_by = {standing.name: standing.games for standing in summary.ranking}
    assert played_by[failing] == 2 * GAMES - 3 * 2000
    table = report_table(summary)
    assert table["totals"]["forfeited"] == 6000 and table["totals"]["games"] == 12000
    assert [entry["unit"] for entry in table["forfeit"]] == [3, 4, 6]
    said = table["forfeit"][0]["why"]
    assert said.startswith(f"in matchup greedy-high vs {failing}, game ") and failing in said
    assert "\n" not in said and "\ue004" not in said


@pytest.mark.parametrize("workers", [1, 2])
def test_a_strategy_that_fails_in_bulk_forfeits_its_matchups_and_the_unit_plays_on_without_it(
    workers: int, pooled: None
) -> None:
    field = played(*BUILT_IN, games=12000, workers=workers)
    summary = played(*BUILT_IN, spec("RaisesInBulk"), games=12000, workers=workers, on_failure="forfeit")
    assert [(forfeit.unit, forfeit.titles) for forfeit in summary.forfeits] == [
        (unit, ("greedy-high vs raises-in-bulk", "tips vs raises-in-bulk")) for unit in (0, 1, 2)
    ]
    assert summary.tallies[0] == field.tallies[0]  # greedy-high vs tips, played again in each unit without it
    assert pairs(summary, *BUILT_IN) == pairs(field, *BUILT_IN)
    assert summary.games == 12000 and summary.forfeited == 2 * 12000


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize(
    ("name", "games", "forfeited"),
    [
        ("RaisesInBulk", 2000, {0: ("{} vs plays-first", "{} vs tips")}),  # all three matchups in one bulk unit
        ("ExitsInBulk", 2000, {0: ("{} vs plays-first", "{} vs tips")}),
        ("RaisesRarely", 2000, {1: ("{} vs plays-first",), 2: ("{} vs tips",)}),  # game by game
    ],
)
def test_a_failure_beside_another_users_strategy_is_blamed_on_the_one_that_failed(
    name: str, games: int, forfeited: dict[int, tuple[str, ...]], workers: int, pooled: None
) -> None:
    summary = played(spec(name), spec("PlaysFirst"), "tips", games=games, workers=workers, on_failure="forfeit")
    failing = summary.config.names[0]
    assert {forfeit.unit: forfeit.titles for forfeit in summary.forfeits} == {
        unit: tuple(title.format(failing) for title in titles) for unit, titles in forfeited.items()
    }
    assert all(forfeit.strategy == failing for forfeit in summary.forfeits)
    assert pairs(summary, "plays-first", "tips") == pairs(
        played(spec("PlaysFirst"), "tips", games=games), "plays-first", "tips"
    )


def test_a_strategy_that_raises_at_its_thousandth_decision_forfeits_every_unit_it_reaches_it_in(
    without: tournaments.Summary,
) -> None:
    summary = played(*BUILT_IN, f"{HOSTILE}/raises.py:RaisesThousandth", on_failure="forfeit")
    assert [forfeit.unit for forfeit in summary.forfeits] == [1, 2, 3, 4, 5, 6]
    assert "raised an error" in summary.forfeits[0].why and "no luck today" in summary.forfeits[0].why
    assert pairs(summary, *BUILT_IN) == pairs(without, *BUILT_IN)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_disqualified_strategy_leaves_the_report_of_the_run_without_it(
    workers: int, without: tournaments.Summary, pooled: None
) -> None:
    summary = played(*BUILT_IN, spec("RaisesRarely"), workers=workers, on_failure="disqualify")
    ((forfeit,),) = [summary.forfeits]
    assert (forfeit.unit, forfeit.strategy, forfeit.disqualified) == (3, "raises-rarely", True)
    table, alone = report_table(summary), report_table(without)
    assert table.pop("forfeit")[0]["disqualified"] is True
    assert repr(summary).startswith("<Summary of 2 strategies, 6,000 games, seed 5; raises-rarely disqualified; ")
    assert table["config"].pop("on_failure") == "disqualify"
    assert table == alone


def test_a_report_with_forfeits_reads_back_and_runs_them_again(tmp_path: Path) -> None:
    report = tmp_path / "run.toml"
    options = Options(strategies=("tips", spec("RaisesRarely")), games=GAMES, seed=SEED, on_failure="forfeit")
    first = tournaments.run(options, report=report)
    again = tournaments.run(report)
    assert again.config.on_failure == "forfeit"
    assert [forfeit.unit for forfeit in again.forfeits] == [0, 2]  # tips' units of the bigger field's 4 and 6
    assert report_table(again) == report_table(first) == tournaments.read_report(report)


def test_a_strategy_that_hangs_forfeits_its_unit_past_the_time_limit() -> None:
    """Not a matter of load: the time limit bounds only a unit that seats a user's strategy, here a
    hang that never ends (past any limit), with ample time to load its host first; the unit plays
    on with the built-ins alone, which no clock bounds."""
    summary = played("greedy-high", "tips", spec("HangsFirst"), games=2000, timeout=6.0, on_failure="forfeit")
    ((forfeit,),) = [summary.forfeits]
    assert (forfeit.unit, forfeit.strategy, forfeit.titles) == (
        0,
        "hangs-first",
        ("greedy-high vs hangs-first", "tips vs hangs-first"),
    )
    assert "did not answer within 6 seconds" in forfeit.why
    assert summary.games == 2000 and summary.forfeited == 2 * 2000


def test_by_default_the_run_stops_at_the_failure_and_names_the_strategy(tmp_path: Path) -> None:
    report = tmp_path / "report.toml"
    with pytest.raises(TournamentFailure) as failed:
        tournaments.run(Options(strategies=(*BUILT_IN, spec("RaisesRarely")), games=GAMES, seed=SEED), report=report)
    assert "strategy 'raises-rarely' raised an error" in str(failed.value)
    assert "\ue004" not in str(failed.value)
    assert not report.exists()


def test_a_resumed_run_keeps_its_forfeits(tmp_path: Path) -> None:
    whole = played(*BUILT_IN, spec("RaisesRarely"), on_failure="forfeit")
    checkpoint = tmp_path / "run.checkpoint.toml"
    with pytest.raises(Interrupted) as stopped:
        tournaments.run(
            Options(
                strategies=(*BUILT_IN, spec("RaisesRarely")), games=GAMES, seed=SEED, workers=1, on_failure="forfeit"
            ),
            checkpoint=checkpoint,
            checkpoint_seconds=0.001,
            progress=_stop_after(GAMES + 5 * 2000),  # units 0 to 5 in order, 3 and 4 forfeited
        )
    assert stopped.value.checkpoint == checkpoint
    assert "[[forfeit]]" in checkpoint.read_text()
    resumed = tournaments.resume(checkpoint, report=None)
    assert [forfeit.unit for forfeit in resumed.forfeits] == [3, 4, 6]
    assert report_table(resumed) == report_table(whole)
    assert not checkpoint.exists()


def _stop_after(games: int) -> Callable[[int, int], None]:
    """A progress that stops the run (as Ctrl-C does) once this many games are done or forfeited."""

    def told(done: int, total: int) -> None:
        if done >= games:
            raise KeyboardInterrupt

    return told


def test_a_match_forfeits_the_failing_units_pairs_and_refuses_to_disqualify() -> None:
    options = Options(strategies=(spec("RaisesRarely"), "greedy-high"), games=GAMES, seed=SEED)
    summary = tournaments.play_match(dataclasses.replace(options, on_failure="forfeit"))
    assert [forfeit.unit for forfeit in summary.forfeits] == [2]
    assert summary.match is not None and summary.match.pairs.pairs == (GAMES - 2000) // 2
    with pytest.raises(ConfigError, match=r"^on_failure='disqualify' does not apply to a match"):
        tournaments.play_match(dataclasses.replace(options, on_failure="disqualify"))


@pytest.mark.parametrize(
    ("settings", "said"),
    [
        ({"on_failure": "skip"}, "on_failure must be 'stop', 'forfeit' or 'disqualify', not 'skip'."),
        (
            {"on_failure": "forfeit", "method": "exact"},
            "on_failure='forfeit' does not apply to an exact tournament: it deals no games, it computes every "
            "seating's chances.",
        ),
    ],
)
def test_a_setting_that_cannot_be_is_one_sentence(settings: dict[str, Any], said: str) -> None:
    with pytest.raises(ConfigError) as refused:
        tournaments.load_config(None, Options(strategies=BUILT_IN, **settings))
    assert str(refused.value) == said
