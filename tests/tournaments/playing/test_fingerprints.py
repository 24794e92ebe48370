"""A tournament's report fingerprints each exact strategy as `check` does, from the tables the run
made (none made twice), the same whatever the backend; none for one that draws at random or is keyed."""

from __future__ import annotations

import pytest

import tournaments.playing.fingerprints as fingerprints
from shutbox_cli.game import Rules
from tournaments import InProcess, Options, ProcessPool, load_config, report_table, run, seat_strategy

from helpers.paths import DATA


def field(method: str = "simulate") -> Options:
    strategies = ("greedy-high", f"{DATA / 'greedy_copy.py'}:Copy", "random", "target", "optimal")
    if method == "exact":
        return Options(
            strategies=tuple(one for one in strategies if one != "random"), rules={"tiles": 6}, method=method
        )
    return Options(strategies=strategies, games=20, seed=1, rules={"tiles": 6})


def expected(spec: str) -> str | None:
    with seat_strategy(spec, Rules(tiles=6)) as seated:
        return seated.fingerprint


@pytest.mark.slow
def test_a_tournament_fingerprints_its_exact_strategies_from_its_own_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fingerprints, "_made_here", lambda entry, config: pytest.fail(f"{entry.name} made again"))
    summary = run(load_config(None, field()), backend=InProcess())
    found = {entry["name"]: entry.get("fingerprint") for entry in report_table(summary)["ranking"]}
    assert found == {
        "greedy-high": expected("greedy-high"),
        "copy": expected("greedy-high"),
        "optimal": expected("optimal"),
        "random": None,
        "target": None,
    }
    monkeypatch.undo()
    pooled = run(load_config(None, field()), backend=ProcessPool(2))
    assert report_table(pooled)["ranking"] == report_table(summary)["ranking"]


@pytest.mark.slow
def test_an_exact_tournament_fingerprints_its_exact_strategies() -> None:
    summary = run(load_config(None, field("exact")))
    assert dict(summary.fingerprints) == {
        "greedy-high": expected("greedy-high"),
        "copy": expected("greedy-high"),
        "optimal": expected("optimal"),
    }
