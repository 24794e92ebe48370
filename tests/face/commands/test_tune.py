"""`shutbox tune`: the exact optimum said to be exact, the same trials at -j 1 and -j 2, a resumed
report, and bad input as one sentence with exit status 2."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import Trial, TuneSettings, TuneStopped, parse_parameters, tune, write_tune
from tournaments.parts import TuneKeeper, tune_checkpoint_path, write_table_atomically

from helpers.command import real_shutbox, shutbox
from helpers.terminal import on_a_terminal


@pytest.mark.slow
def test_a_tune_shows_rates_in_percent_and_a_paired_difference_in_points() -> None:
    exact = shutbox("tune", "below", "-p", "threshold=12..13", "-s", "optimal")
    assert exact.returncode == 0, exact.stderr
    assert "Best: threshold=13, win-rate 49.980% (exact: the true optimum over the ranges)." in exact.stdout
    assert "Starting values (the defaults): 49.804%." in exact.stdout
    assert _best_rows(exact.stdout) == ["13"]
    simulated = shutbox(
        "tune", "below", "-p", "threshold=12..13", "-s", "optimal", "--method", "simulate", "-n", "400",
        "--confirm-games", "400", "--seed", "1",
    )  # fmt: skip
    assert simulated.returncode == 0, simulated.stderr
    assert re.search(r"Difference \(paired\): [+-]\d+\.\d{3} points \(95% CI [+-]\d+\.\d{3} to [+-]", simulated.stdout)
    best = re.search(r"Best: threshold=(\d+),", simulated.stdout)
    assert best is not None and _best_rows(simulated.stdout) == [best[1]]


def _best_rows(shown: str) -> list[str]:
    """The first parameter's value in each row of a tune's table marked best."""
    return re.findall(r"^│ best │ +(\S+) │", shown, re.MULTILINE)


@pytest.mark.slow
def test_an_exact_tune_says_its_optimum_is_exact_and_reports_every_trial(tmp_path: Path) -> None:
    report = tmp_path / "tune.json"
    done = shutbox("tune", "below(threshold=3)", "-p", "threshold=1..4", "-s", "optimal", "-o", str(report))
    assert done.returncode == 0, done.stderr
    assert "(exact: the true optimum over the ranges)" in done.stdout
    assert "Starting values (threshold=3)" in done.stdout
    written = json.loads(report.read_text())
    assert (written["kind"], written["method"], written["done"], written["search"]) == (
        "tune",
        "exact",
        True,
        "exhaustive",
    )
    assert [trial["values"]["threshold"] for trial in written["trial"]] == [1, 2, 3, 4]
    best = max(written["trial"], key=lambda trial: trial["objective"])
    assert written["best"] == best
    assert written["start"] == {"threshold": 3} and written["goal"] == "max"


@pytest.mark.slow
@pytest.mark.usefixtures("pooled")
def test_the_same_command_plays_the_same_trials_at_one_and_two_workers(tmp_path: Path) -> None:
    """A user's strategy, in its host; -j 2 plays in a pool of two (`pooled`), however few the games."""
    reports = []
    for workers in ("1", "2"):
        report = tmp_path / f"j{workers}.toml"
        done = real_shutbox(
            "tune", "examples/cautious.py:Cautious", "-p", "margin=4..8:2", "-s", "optimal", "--method", "simulate",
            "-n", "2000", "--confirm-games", "2000", "--seed", "9", "-j", workers, "-q", "-o", str(report),
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        quiet = r"best: margin=\d, win-rate .* points \(95% CI .* over the start; 3 trials; seed 9\n"
        assert re.fullmatch(quiet, done.stdout), done.stdout
        reports.append(tomllib.loads(report.read_text()))
    assert reports[0] == reports[1]
    assert reports[0]["confirmation"]["seed"] == 10 and len(reports[0]["trial"]) == 3


@pytest.mark.slow
def test_an_interrupted_tune_resumes_from_its_report_by_the_checkpoint_beside_it(tmp_path: Path) -> None:
    settings = TuneSettings("below", parse_parameters(["threshold=1..4"]), field=("optimal",))

    def stop_after_two(trial: Trial, found: int, most: int) -> None:
        if found == 2:
            raise KeyboardInterrupt

    report = tmp_path / "tune.toml"
    keeper = TuneKeeper(tune_checkpoint_path(report), report)  # not yet due: the written report makes it so
    with pytest.raises(TuneStopped) as stopped:
        tune(settings, told=stop_after_two, keeper=keeper)
    kept = write_tune(report, stopped.value.tuning, keeper)
    assert tomllib.loads(report.read_text())["done"] is False
    assert kept == tmp_path / "tune.checkpoint.toml" and kept.exists()
    assert tomllib.loads(kept.read_text())["report"] == "tune.toml"  # by its name: the folder may move
    done = shutbox("tune", "--resume", str(report), "-q")
    assert done.returncode == 0, done.stderr
    assert not kept.exists()
    assert tomllib.loads(report.read_text()) == tomllib.loads(_dumped(tune(settings).to_report(), tmp_path))
    again = shutbox("tune", "--resume", str(report))
    assert (again.returncode, again.stderr.strip()) == (
        2,
        f"shutbox: error: the tune of {str(report)!r} is done: there is nothing to resume.",
    )


def _dumped(table: dict[str, object], folder: Path) -> str:
    path = folder / "whole.toml"
    write_table_atomically(path, table)  # type: ignore[arg-type]
    return path.read_text()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["-p", "threshold=4..1"], "--param threshold: HIGH 1 is below LOW 4."),
        (
            ["-p", "risk=1..3"],
            "below with --param risk=1..3: below has no parameter 'risk'; its parameters are threshold.",
        ),
        (["-p", "threshold=0..3"], "threshold must be a whole number of points, 1 or more, not 0"),
        (
            ["-p", "threshold=1..3", "--objective", "elo"],
            "the objective must be one of win-rate, mean-score, shut-rate, not 'elo'.",
        ),
        (["-p", "threshold=1..3", "--objective", "win-rate"], "alone there is no win rate to tune"),
        (
            ["-p", "threshold=1..3", "--method", "sampled"],
            "the method must be one of exact, simulate, grid, halving, optuna, not 'sampled'.",
        ),
        (["-p", "threshold=1..3", "--trials", "0"], "--trials must be at least 1"),
        (["-p", "threshold=1..3", "--trials", "5"], "and this tune's search is exhaustive"),
        ([], "a tune needs at least one --param NAME=LOW..HIGH."),
    ],
)
def test_bad_input_is_one_sentence_and_exit_status_2(args: list[str], said: str) -> None:
    done = shutbox("tune", "below", *args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and said in lines[0], done.stderr


@pytest.mark.parametrize(
    ("spec", "ranges", "said"),
    [
        (
            "below(threshold=x)",
            ["threshold=1..3"],
            "the strategy to tune: the parameters in 'below(threshold=x)' are not of the form name=value",
        ),
        ("optimal(", ["threshold=1..3"], "the strategy to tune 'optimal(' is not NAME or NAME(name=value, ...)"),
        ("below)", ["threshold=1..3"], "the strategy to tune 'below)' is not NAME or NAME(name=value, ...)"),
        ("below(2)", ["threshold=1..3"], "the parameters in 'below(2)' are not of the form name=value"),
        (" ", ["threshold=1..3"], "the strategy to tune: a strategy spec is empty"),
        ("nosuch", ["threshold=1..3"], "the strategy to tune 'nosuch': no strategy named 'nosuch'"),
        ("nosuch.py:B", ["threshold=1..3"], "the strategy to tune 'nosuch.py:B': no file 'nosuch.py'"),
        ("below(threshold=0)", ["threshold=1..3"], "strategy 'below(threshold=0)' could not be built"),
        ("below", ["threshold=0.5..3"], "--param threshold=0.5..3: strategy 'below(threshold=0.5)' could not"),
        ("below", ["risk=1..3"], "below with --param risk=1..3: below has no parameter 'risk'; its parameters are"),
        (
            "below",
            ["threshold=1..3", "nope=1..3"],
            "below with --param nope=1..3: below has no parameter 'nope'; its parameters are threshold.",
        ),
        ("below", ["threshold=1e400..1e401"], "--param threshold: LOW '1e400' is not a number."),
        ("below", ["threshold=\u0663..5"], "--param threshold: LOW '\u0663' is not a number."),
        ("below", ["threshold=1..3:"], "--param 'threshold=1..3:' is not of the form NAME=LOW..HIGH"),
    ],
)
def test_a_bad_spec_or_range_is_one_sentence_naming_what_was_written(spec: str, ranges: list[str], said: str) -> None:
    done = shutbox("tune", spec, *(f"-p{one}" for one in ranges), "-q")
    lines = done.stderr.strip().splitlines()
    assert (done.returncode, len(lines)) == (2, 1), done.stderr
    assert lines[0].startswith("shutbox: error: ") and said in lines[0], done.stderr


_VALUES = ["1", "2", "3", "0.5", "-1", "x", "'a'", "", "(", "1e400", "nan", "\u0663"]
_SPECS = st.tuples(
    st.sampled_from(["below", "optimal", "nosuch.py:B", "", " "]),
    st.sampled_from(["", "(", ")", "()", "(("]),
    st.sampled_from(["threshold", "x", ""]),
    st.sampled_from(["=", ""]),
    st.sampled_from(_VALUES),
    st.sampled_from(["", ")", "))"]),
).map("".join)
_NUMBERS = ["1", "3", "0.5", "1e400", "nan", "x", "\u0663"]
_RANGES = st.tuples(
    st.sampled_from(["threshold", "x", ""]),
    st.just("="),
    st.sampled_from(_NUMBERS),
    st.sampled_from(["..", "..."]),
    st.sampled_from(_NUMBERS),
    st.sampled_from(["", ":", ":0", ":1e-300", ":0.5"]),
).map("".join)


def _runs_or_says_one_sentence(spec: str, text: str) -> None:
    """A tune of three tiles either runs or says one sentence, exit status 2, never a traceback."""
    done = shutbox("tune", spec, f"-p{text}", "--tiles", "3", "-n", "4", "--confirm-games", "4", "-q")
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        assert (done.returncode, len(lines)) == (2, 1), done.stderr
        assert lines[0].startswith("shutbox: error: "), done.stderr


@pytest.mark.slow
@settings(max_examples=50)
@given(_SPECS)
def test_any_spec_tunes_or_says_one_sentence(spec: str) -> None:
    _runs_or_says_one_sentence(spec, "threshold=1..2")


@pytest.mark.slow
@settings(max_examples=100)
@given(_RANGES)
def test_any_range_tunes_or_says_one_sentence(text: str) -> None:
    _runs_or_says_one_sentence("below", text)


@pytest.mark.parametrize(
    ("ranges", "said"),
    [
        (
            "threshold=12..13",
            "the best threshold, 13, is the highest value of its range, 12..13: the best may lie above it; "
            "widen the range to see.",
        ),
        (
            "threshold=13..15",
            "the best threshold, 13, is the lowest value of its range, 13..15: the best may lie below it; "
            "widen the range to see.",
        ),
        ("threshold=12..14", None),
        (
            "threshold=1..3",
            "the best threshold, 1, is the lowest value of its range, 1..3, and below takes no threshold below it.",
        ),
    ],
)
def test_a_best_value_at_an_end_of_its_range_is_a_note_on_the_terminal_and_in_the_report(
    tmp_path: Path, ranges: str, said: str | None
) -> None:
    report = tmp_path / "tune.toml"
    done = shutbox("tune", "below", "-p", ranges, "-s", "optimal", "-q", "-o", str(report))
    assert done.returncode == 0, done.stderr
    notes = [line.removeprefix("shutbox: note: ") for line in done.stderr.splitlines() if "note" in line]
    assert notes == ([] if said is None else [said])
    assert tomllib.loads(report.read_text()).get("notes", []) == notes


def test_a_tune_file_gives_the_settings_and_the_options_override_it(tmp_path: Path) -> None:
    config = tmp_path / "tune.toml"
    config.write_text('[tune]\nspec = "below"\nparams = ["threshold=1..3"]\nfield = ["tips"]\n\n[rules]\ntiles = 4\n')
    report = tmp_path / "tune.json"
    done = shutbox("tune", "--config", str(config), "-s", "optimal", "-q", "-o", str(report))
    assert done.returncode == 0, done.stderr
    written = json.loads(report.read_text())
    assert (written["spec"], written["field"], written["rules"]["tiles"]) == ("below", ["optimal"], 4)
    assert [trial["values"] for trial in written["trial"]] == [{"threshold": t} for t in (1, 2, 3)]


def test_a_tune_file_with_a_key_of_the_wrong_type_is_one_sentence(tmp_path: Path) -> None:
    config = tmp_path / "tune.toml"
    config.write_text('[tune]\ngames = "many"\n')
    done = shutbox("tune", "--config", str(config))
    assert (done.returncode, done.stderr.strip()) == (
        2,
        f"shutbox: error: {config}: tune.games must be a whole number, not 'many'.",
    )


EXACT = ("tune", "below", "-p", "threshold=12..14", "-s", "optimal")
"""A short exact tune: three candidates against optimal, the best in the middle."""


@pytest.mark.slow
def test_progress_is_a_live_bar_on_a_terminal_a_line_a_trial_in_a_pipe_and_never_on_stdout() -> None:
    status, out, shown = on_a_terminal(*EXACT, "--format", "json")
    assert status == 0 and json.loads(out)["kind"] == "tune"
    assert "trials " in shown and "3/3 " in shown and "best threshold=13: 49.980%" in shown
    assert "trial 1/3" not in shown
    piped = shutbox(*EXACT, "--format", "json")
    assert piped.returncode == 0 and json.loads(piped.stdout) == json.loads(out)
    assert piped.stderr.splitlines() == [
        "trial 1/3: threshold=12: 49.897%",
        "trial 2/3: threshold=13: 49.980%",
        "trial 3/3: threshold=14: 49.955%",
    ]
    quiet = shutbox(*EXACT, "--format", "json", "-q")
    assert quiet.returncode == 0 and quiet.stderr == ""


@pytest.mark.slow
def test_optuna_is_imported_only_by_a_tune_that_searches_with_it() -> None:
    assert "optuna" not in _imported("--help")
    assert "optuna" not in _imported(*EXACT, "-q")
    if importlib.util.find_spec("optuna") is not None:
        sampled = ("--method", "optuna", "--trials", "2", "-n", "100", "--confirm-games", "100", "-q")
        assert "optuna" in _imported(*EXACT, *sampled)


def _imported(*args: str) -> set[str]:
    """The top-level packages the real command imports (as `python -X importtime` lists them)."""
    done = real_shutbox(*args, env={"PYTHONPROFILEIMPORTTIME": "1"})
    assert done.returncode == 0, done.stderr
    lines = [line.rsplit("|", 1)[-1] for line in done.stderr.splitlines() if line.startswith("import time:")]
    return {line.strip().split(".")[0] for line in lines}


@pytest.mark.slow
@pytest.mark.usefixtures("pooled")
def test_an_optuna_tune_asks_the_same_trials_at_one_and_two_workers(tmp_path: Path) -> None:
    pytest.importorskip("optuna", reason="Optuna is the tune extra")
    reports = []
    for workers in ("1", "2"):
        report = tmp_path / f"j{workers}.json"
        done = real_shutbox(
            "tune", "examples/cautious.py:Cautious", "-p", "margin=0..12", "-s", "optimal", "--method", "optuna",
            "--trials", "3", "-n", "1000", "--confirm-games", "200", "--seed", "3", "-j", workers, "-q",
            "-o", str(report),
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        reports.append(json.loads(report.read_text()))
    assert reports[0] == reports[1]
    assert reports[0]["search"] == "optuna" and len(reports[0]["trial"]) == 3


def test_without_the_tune_extra_an_optuna_tune_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "optuna", None)  # as if the tune extra were not installed
    done = shutbox("tune", "below", "-p", "threshold=1..3", "--method", "optuna")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "shutbox: error: this search needs Optuna, which shutbox installs with its tune extra: pip install "
        '".[tune]" in shutbox\'s checkout (or give --method grid or halving).\n'
    )
