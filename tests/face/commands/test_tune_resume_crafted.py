"""QA s31 (failing on purpose, to show defects): a stopped tune's report, which `tune --resume`
reads as it reads a checkpoint but without a seal or range checks. An edited trial crowns the wrong
best with exit 0, and a malformed range or figure ends in a traceback instead of one sentence."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tournaments import Trial, TuneSettings, TuneStopped, parse_parameters, tune, write_table_atomically

from helpers.command import shutbox


def _stopped_report(folder: Path) -> Path:
    settings = TuneSettings("below", parse_parameters(["threshold=1..4"]), field=("optimal",))

    def stop_after_two(trial: Trial, found: int, most: int) -> None:
        if found == 2:
            raise KeyboardInterrupt

    with pytest.raises(TuneStopped) as stopped:
        tune(settings, told=stop_after_two)
    report = folder / "tune.toml"
    write_table_atomically(report, stopped.value.tuning.to_report())
    return report


def test_an_edited_stopped_report_does_not_crown_a_forged_best(tmp_path: Path) -> None:
    report = _stopped_report(tmp_path)
    text = report.read_text()
    first = tomllib.loads(text)["trial"][0]
    forged = text.replace(f"objective = {first['objective']}", "objective = 0.99", 1)
    assert forged != text
    report.write_text(forged)
    done = shutbox("tune", "--resume", str(report), "-q")
    # Either refused in one sentence, or the forged figure is not the best.
    assert done.returncode == 2 or tomllib.loads(report.read_text())["best"]["objective"] != 0.99, done.stdout


@pytest.mark.parametrize(
    ("old", "new"),
    [("step = 1", "step = 0"), ("step = 1", "step = -1"), ("low = 1", "low = 13")],
)
def test_a_malformed_range_in_a_stopped_report_is_one_sentence(tmp_path: Path, old: str, new: str) -> None:
    report = _stopped_report(tmp_path)
    text = report.read_text()
    assert old in text
    report.write_text(text.replace(old, new, 1))
    done = shutbox("tune", "--resume", str(report), "-q")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr


def test_a_trial_figure_that_is_not_a_number_is_one_sentence(tmp_path: Path) -> None:
    report = _stopped_report(tmp_path)
    text = report.read_text()
    first = tomllib.loads(text)["trial"][0]
    report.write_text(text.replace(f"objective = {first['objective']}", 'objective = "x"', 1))
    done = shutbox("tune", "--resume", str(report), "-q")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
