"""Reports through the library: a summary's report table, written as TOML or JSON, reads back as the
same table, holds the configuration that runs the tournament again, and nothing of one run alone."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

import tournaments
from tournaments import InProcess, Options, load_config

from helpers.field import small_config


@pytest.fixture(scope="module")
def summary() -> tournaments.Summary:
    return tournaments.run(small_config(rules={"tiles": 4}), backend=InProcess())


def test_toml_and_json_reports_read_back_as_the_report_table(summary: tournaments.Summary, tmp_path: Path) -> None:
    tournaments.write_report(tmp_path / "report.toml", summary)
    tournaments.write_report(tmp_path / "report.json", summary)
    table = tournaments.report_table(summary)
    assert tomllib.loads((tmp_path / "report.toml").read_text()) == table
    assert json.loads((tmp_path / "report.json").read_text()) == table


def test_the_report_holds_the_config_that_runs_the_tournament_again(
    summary: tournaments.Summary, tmp_path: Path
) -> None:
    tournaments.write_report(tmp_path / "report.toml", summary)
    again = load_config(tmp_path / "report.toml", Options())
    assert again == summary.config
    assert tournaments.report_table(tournaments.run(again, backend=InProcess())) == tournaments.report_table(summary)


def test_the_report_holds_no_time_and_no_worker_count(summary: tournaments.Summary) -> None:
    text = json.dumps(tournaments.report_table(summary))
    for word in ("time", "seconds", "workers", "elapsed"):
        assert f'"{word}"' not in text
