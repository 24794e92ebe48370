"""The library's public surface: what a script or a notebook needs (`tournaments`, docs/library.md),
and apart from it what a front end builds on (`tournaments.parts`), each loaded lazily from one
list of its names (tests/test_layers.py checks the lists)."""

from __future__ import annotations

from pathlib import Path

import pytest

import tournaments
from tournaments import parts

NOTEBOOK = {
    "run": ("run", "resume", "play_match", "analyze", "duel_exactly", "tune", "find_game", "seat_strategy",
            "explain", "cheat_sheet", "solve", "fair_rules", "diff", "play_knockout"),
    "settings": ("Options", "TournamentConfig", "load_config", "TuneSettings", "parse_parameters", "parse_sprt"),
    "results": (
        "Summary", "ExactSummary", "Standing", "HeadToHead", "SeatStanding", "TournamentResults", "Match", "Forfeit",
        "Pentanomial", "Versus", "Sprt", "Verdict", "Analysis", "ExactDuel", "DuelSeat", "Tuning", "Trial",
        "OBJECTIVES", "TournamentGame", "SeatedStrategy", "Progress",
        "Explanation", "SampledExplanation", "CheatSheet", "GameValue", "FairRules", "PolicyDiff", "DiffRow",
        "Knockout", "Tie",
    ),
    "reports": (
        "write_report", "report_table", "read_report", "compare", "Comparison", "Change", "summarize_report",
        "MarkdownSummary", "read_tune", "write_tune", "checkpoint_path", "read_checkpoint",
    ),
    "errors": (
        "TournamentError", "ConfigError", "FileWriteError", "TournamentFailure", "Interrupted", "TuneStopped",
        "Setting", "Command",
    ),
    "backends": ("Backend", "InProcess", "ProcessPool", "DaskCluster", "default_backend"),
    "history": ("History", "HistoryError", "open_history"),
}  # fmt: skip
"""The notebook's names, by what they are for."""


def test_the_notebooks_surface_is_the_names_it_needs_and_no_front_ends_helpers() -> None:
    assert tournaments.__all__ == sorted(name for names in NOTEBOOK.values() for name in names)
    assert not set(tournaments.__all__) & set(parts.__all__)


def test_a_notebook_sees_the_names_before_they_load() -> None:
    assert {"run", "play_match", "tune", "analyze", "Options"} <= set(dir(tournaments))
    assert {"write_atomically", "report_figures"} <= set(dir(parts))


def test_a_report_is_read_from_a_path_given_as_text(tmp_path: Path) -> None:
    summary = tournaments.run(None, tournaments.Options(strategies=["optimal", "tips"], games=20, seed=1))
    tournaments.write_report(str(tmp_path / "report.toml"), summary)
    assert tournaments.read_report(str(tmp_path / "report.toml"))["ranking"][0]["games"] == 20


def test_a_tournament_runs_from_its_options_alone() -> None:
    options = tournaments.Options(strategies=["optimal", "tips"], games=20, seed=1)
    assert tournaments.run(options).ranking == tournaments.run(None, options).ranking
    with pytest.raises(tournaments.ConfigError, match="options are given twice"):
        tournaments.run(options, options)
