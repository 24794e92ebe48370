"""A stopped tune's report or checkpoint edited by hand: `tune --resume` believes only a sealed
checkpoint (the stopped report resumes by the checkpoint beside it), and refuses in one sentence,
exit 2, any value no tune writes, sealed or not: a figure that is not a finite number within the
objective's bounds, a negative game count or seed, a value outside its range, a range `-p` refuses."""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest

from tournaments import Trial, TuneSettings, TuneStopped, parse_parameters, tune, write_tune
from tournaments.parts import TuneKeeper, tune_checkpoint_path, write_table_atomically
from tournaments.running import seal

from helpers.command import shutbox

SIMULATED = TuneSettings(
    "below",
    parse_parameters(["threshold=1..4"]),
    field=("optimal",),
    method="grid",
    games=200,
    seed=3,
    confirm_games=200,
)
"""A small simulated tune, whose trials have games and a seed."""


def _stop_after_two(trial: Trial, found: int, most: int) -> None:
    if found == 2:
        raise KeyboardInterrupt


def _stopped_report(folder: Path) -> Path:
    """The report of a tune stopped after two trials, with no checkpoint."""
    settings = TuneSettings("below", parse_parameters(["threshold=1..4"]), field=("optimal",))
    with pytest.raises(TuneStopped) as stopped:
        tune(settings, told=_stop_after_two)
    report = folder / "tune.toml"
    write_table_atomically(report, stopped.value.tuning.to_report())
    return report


def _stopped_with_checkpoint(folder: Path) -> Path:
    """The report of a simulated tune stopped after two trials, its sealed checkpoint beside it."""
    report = folder / "tune.toml"
    keeper = TuneKeeper(tune_checkpoint_path(report), report)
    with pytest.raises(TuneStopped) as stopped:
        tune(SIMULATED, told=_stop_after_two, keeper=keeper)
    assert write_tune(report, stopped.value.tuning, keeper) == folder / "tune.checkpoint.toml"
    return report


def _first_figure(text: str) -> str:
    found = re.search(r"^objective = 0\.\d+$", text, re.MULTILINE)
    assert found, text
    return found[0]


def _resealed(path: Path, old: str, new: str) -> None:
    """The checkpoint at `path` with `old` made `new`, sealed again with the user's key, as shutbox
    seals it: only the values are wrong."""
    body = path.read_bytes()
    body = body[: body.index(b"\n[seal]\n")]
    text = body.decode()
    assert old in text, text
    edited = text.replace(old, new, 1).encode()
    path.write_bytes(edited + seal.seal_text(seal.own_key(), edited))


def _refused(done: object) -> str:
    code, err = done.returncode, done.stderr  # type: ignore[attr-defined]
    assert code == 2 and "Traceback" not in err and err.count("\n") == 1, err
    assert err.startswith("shutbox: error: "), err
    return str(err)


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


def test_a_stopped_report_without_its_checkpoint_is_not_resumed(tmp_path: Path) -> None:
    report = _stopped_report(tmp_path)
    said = _refused(shutbox("tune", "--resume", str(report), "-q"))
    assert said == (
        f"shutbox: error: {str(report)!r} is a stopped tune's report, which a resume does not take on its word, "
        f"and no checkpoint of it lies beside it ({str(tmp_path / 'tune.checkpoint.toml')!r}); give --resume "
        "the checkpoint its tune kept, or start the tune again.\n"
    )


@pytest.mark.slow
def test_a_forged_figure_in_a_stopped_report_is_not_believed(tmp_path: Path) -> None:
    report = _stopped_with_checkpoint(tmp_path)
    text = report.read_text()
    report.write_text(text.replace(_first_figure(text), "objective = 0.99", 1))
    done = shutbox("tune", "--resume", str(report), "-q")
    assert done.returncode == 0, done.stderr
    whole = tune(SIMULATED)
    resumed = tomllib.loads(report.read_text())
    assert resumed["best"]["objective"] == whole.to_report()["best"]["objective"] != 0.99
    assert resumed["trial"][0]["objective"] != 0.99 and not (tmp_path / "tune.checkpoint.toml").exists()


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (None, "objective = inf", "a trial's win-rate is inf, not a finite number."),
        (None, "objective = 1.5", "a trial's win-rate, 1.5, is not within 0..1."),
        (None, 'objective = "x"', "a trial's win-rate is 'x', not a finite number."),
        ("games = 200\nseed = 3\nround", "games = -1\nseed = 3\nround", "its trial's games must be a whole number"),
        ("seed = 3\nround", "seed = -1\nround", "its trial's seed must be a whole number, 0 or more, not -1."),
        ("seed = 3\ndice", "seed = -1\ndice", "its seed must be a whole number, 0 or more, not -1."),
        ("threshold = 2\n", "threshold = 99\n", "a trial's threshold, 99, is not a value of its range"),
        ("step = 1 }", "step = 0 }", "parameter 'threshold': STEP must be more than 0, not 0."),
        ("step = 1 }", "step = -1 }", "parameter 'threshold': STEP must be more than 0, not -1."),
        ("step = 1 }", 'step = "a" }', "not whole numbers or finite floats."),
        ("low = 1,", "low = 13,", "parameter 'threshold': HIGH 4 is below LOW 13."),
        ("high = 4,", "high = 100000000,", "the range holds more than 10,000 values; take a larger STEP."),
    ],
)
def test_a_sealed_checkpoint_holding_a_value_no_tune_writes_is_refused(
    tmp_path: Path, old: str | None, new: str, said: str
) -> None:
    report = _stopped_with_checkpoint(tmp_path)
    checkpoint = tmp_path / "tune.checkpoint.toml"
    _resealed(checkpoint, old or _first_figure(checkpoint.read_text()), new)
    for given in (report, checkpoint):
        err = _refused(shutbox("tune", "--resume", str(given), "-q"))
        assert err.startswith(f"shutbox: error: {str(checkpoint)!r}: ") and said in err, err


@pytest.mark.slow
def test_a_tune_checkpoint_resumes_from_a_moved_folder(tmp_path: Path) -> None:
    made = tmp_path / "made"
    made.mkdir()
    _stopped_with_checkpoint(made)
    moved = tmp_path / "moved"
    shutil.move(tmp_path / "made", moved)
    done = shutbox("tune", "--resume", str(moved / "tune.checkpoint.toml"), "-q")
    assert done.returncode == 0, done.stderr
    assert tomllib.loads((moved / "tune.toml").read_text())["done"] is True
    assert not (moved / "tune.checkpoint.toml").exists() and not (tmp_path / "made").exists()


def test_an_empty_resume_is_named_as_given() -> None:
    said = _refused(shutbox("tune", "--resume", ""))
    assert (
        said
        == "shutbox: error: --resume takes the checkpoint (or the stopped tune's report) to finish, and was given ''.\n"
    )
