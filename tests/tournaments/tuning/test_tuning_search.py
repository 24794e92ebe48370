"""`tune`: the exact optimum where it can be computed (checked against duels and analyses computed
here, one by one), a simulated optimum within its interval, and a resumed tune that ends as the
uninterrupted one."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from shutbox_cli.face.settings import said as on_the_command_line
from shutbox_cli.game import Rules
from tournaments import (
    ConfigError,
    Options,
    Trial,
    TuneSettings,
    TuneStopped,
    analyze,
    duel_exactly,
    parse_parameters,
    read_tune,
    run,
    seat_strategy,
    tune,
)
from tournaments.exact import turns as exact_turns
from tournaments.exact.turns import Turns
from tournaments.parts import write_table_atomically
from tournaments.referee.seated import SeatedStrategy

RULES = Rules()
CHASER = str(Path(__file__).parents[3] / "examples" / "chaser.py") + ":Chaser"
THRESHOLDS = range(1, 9)


def _made_turns(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The specs whose turns an exact tournament makes from now on, one for each time it makes them."""
    made: list[str] = []
    seat_turns = exact_turns.seat_turns

    def counted(seated: SeatedStrategy, fractions: bool, table: int) -> Turns:
        made.append(seated.spec)
        return seat_turns(seated, fractions, table)

    monkeypatch.setattr(exact_turns, "seat_turns", counted)
    return made


def _exact_win_rates() -> dict[int, float]:
    """below(T)'s chance of beating optimal, both seats averaged, T by T."""
    optimal = seat_strategy("optimal", RULES)
    found = {}
    for threshold in THRESHOLDS:
        duel = duel_exactly(seat_strategy(f"below(threshold={threshold})", RULES), optimal)
        found[threshold] = next(seat.wins for seat in duel.seats if seat.seat is None)
    return found


@pytest.mark.slow
def test_an_exact_tune_finds_the_optimum_each_duel_computed_on_its_own_gives() -> None:
    exact = _exact_win_rates()
    found = tune(TuneSettings("below", parse_parameters(["threshold=1..8"]), field=("optimal",)))
    assert (found.method, found.search, found.done) == ("exact", "exhaustive", True)
    assert {trial.values["threshold"]: trial.objective for trial in found.trials} == pytest.approx(exact, abs=1e-12)
    assert found.best == {"threshold": max(exact, key=lambda threshold: exact[threshold])}
    default = duel_exactly(seat_strategy("below", RULES), seat_strategy("optimal", RULES)).seats[-1].wins
    assert found.start == {} and found.start_objective == pytest.approx(default, abs=1e-12)
    assert found.confirmation is None and found.seed is None


def test_an_exact_solo_tune_finds_the_lowest_mean_score_each_analysis_gives() -> None:
    scores = {t: analyze(seat_strategy(f"below(threshold={t})", RULES)).expected_score for t in (2, 6, 10, 14)}
    found = tune(TuneSettings("below(threshold=2)", parse_parameters(["threshold=2..14:4"])))
    assert found.method == "exact" and found.settings.goal == "mean-score"
    assert {trial.values["threshold"]: trial.objective for trial in found.trials} == pytest.approx(scores, abs=1e-9)
    assert found.best == {"threshold": min(scores, key=lambda threshold: scores[threshold])}
    assert found.start == {"threshold": 2} and found.start_objective == pytest.approx(scores[2], abs=1e-9)


@pytest.mark.slow
def test_a_simulated_tune_finds_a_point_whose_exact_figure_is_within_its_interval_of_the_optimum() -> None:
    exact = _exact_win_rates()
    settings = TuneSettings(
        "below", parse_parameters(["threshold=1..8"]), field=("optimal",), method="simulate", games=4000, seed=11
    )
    found = tune(dataclasses.replace(settings, confirm_games=4000, workers=1))
    assert (found.method, found.search, found.seed) == ("simulate", "grid", 11)
    assert found.best is not None
    best = next(trial for trial in found.trials if trial.values == found.best)
    assert best.interval is not None
    half = (best.interval[1] - best.interval[0]) / 2
    assert max(exact.values()) - exact[int(found.best["threshold"])] <= half
    confirmation = found.confirmation
    assert confirmation is not None and confirmation.seed == 12 and confirmation.difference_ci95 is not None
    low, high = confirmation.difference_ci95
    assert low <= confirmation.difference <= high  # type: ignore[operator]


@pytest.mark.slow
def test_a_large_grid_is_halved_on_the_same_dice_and_a_resumed_tune_ends_as_the_whole_one(tmp_path: Path) -> None:
    settings = TuneSettings(
        "below",
        parse_parameters(["threshold=1..12"]),
        field=("optimal",),
        method="simulate",
        games=500,
        seed=3,
        confirm_games=500,
        workers=1,
    )
    whole = tune(settings)
    assert whole.search == "successive-halving"
    rounds = [trial.round for trial in whole.trials]
    assert rounds == sorted(rounds) and [rounds.count(r) for r in range(4)] == [12, 6, 3, 2]
    assert {trial.seed for trial in whole.trials} == {3}
    assert [trial.games for trial in whole.trials if trial.round == 3] == [4000, 4000]

    def stop_after_five(trial: Trial, found: int, most: int) -> None:
        if found == 5:
            raise KeyboardInterrupt

    with pytest.raises(TuneStopped) as stopped:
        tune(settings, told=stop_after_five)
    report = tmp_path / "tune.toml"
    write_table_atomically(report, stopped.value.tuning.to_report())
    read, trials, done = read_tune(report)
    assert not done and len(trials) == 5
    resumed = tune(dataclasses.replace(read, workers=1), done=trials)
    assert resumed.to_report() == whole.to_report()


@pytest.mark.parametrize(
    ("ranges", "said"),
    [
        (["threshold=5..2"], "--param threshold: HIGH 2 is below LOW 5."),
        (["threshold=1..4:0"], "--param threshold: STEP must be more than 0, not 0."),
        (["threshold=a..4"], "--param threshold: LOW 'a' is not a number."),
        (["threshold"], "--param 'threshold' is not of the form NAME=LOW..HIGH or NAME=LOW..HIGH:STEP."),
        (["threshold=1..2", "threshold=3..4"], "--param threshold is given more than once."),
        ([], "a tune needs at least one --param NAME=LOW..HIGH."),
    ],
)
def test_a_bad_range_is_one_sentence_naming_the_setting_to_the_library_and_the_flag_to_the_face(
    ranges: list[str], said: str
) -> None:
    with pytest.raises(ConfigError) as refused:
        parse_parameters(ranges)
    assert str(refused.value) == said.replace("--param", "parameters")
    assert on_the_command_line(refused.value, command="tune") == said


def test_a_float_range_without_a_step_is_cut_in_ten() -> None:
    (found,) = parse_parameters(["x=0.0..1"])
    assert found.values() == tuple(step / 10 for step in range(11))


def _stopped_after(settings: TuneSettings, trials: int, folder: Path) -> Path:
    """The report of `settings`' tune stopped (as by Ctrl-C) after `trials` trials."""

    def stop(trial: Trial, found: int, most: int) -> None:
        if found == trials:
            raise KeyboardInterrupt

    with pytest.raises(TuneStopped) as stopped:
        tune(settings, told=stop)
    report = folder / "stopped.toml"
    write_table_atomically(report, stopped.value.tuning.to_report())
    return report


@pytest.mark.slow
def test_an_optuna_tune_comes_within_its_interval_of_the_optimum_and_asks_the_same_trials_again(
    tmp_path: Path,
) -> None:
    pytest.importorskip("optuna", reason="Optuna is the tune extra")
    exact = _exact_win_rates()
    settings = TuneSettings(
        "below", parse_parameters(["threshold=1..8"]), field=("optimal",), method="optuna", games=4000, seed=11,
        confirm_games=1000, trials=10, workers=1,
    )  # fmt: skip
    found = tune(settings)
    assert (found.method, found.search, len(found.trials)) == ("simulate", "optuna", 10)
    assert {(trial.games, trial.seed, trial.round) for trial in found.trials} == {(4000, 11, 0)}  # common dice
    assert found.best is not None
    best = next(trial for trial in found.trials if trial.values == found.best)
    assert best.interval is not None
    assert max(exact.values()) - exact[int(found.best["threshold"])] <= (best.interval[1] - best.interval[0]) / 2
    assert found.to_report()["trials"] == 10 and found.to_report()["search"] == "optuna"
    assert tune(settings).to_report() == found.to_report()
    read, trials, done = read_tune(_stopped_after(settings, 4, tmp_path))
    assert not done and len(trials) == 4 and read.method == "optuna" and read.trials == 10
    assert tune(dataclasses.replace(read, workers=1), done=trials).to_report() == found.to_report()


@pytest.mark.slow
def test_an_optuna_tune_of_a_continuous_range_draws_floats_within_it() -> None:
    pytest.importorskip("optuna", reason="Optuna is the tune extra")
    (risk,) = parse_parameters(["risk=0.0..1"])
    assert risk.continuous and risk.step is None
    settings = TuneSettings(
        f"{RISKY}:Risky", (risk,), objective="mean-score", method="simulate", games=200, seed=4, confirm_games=200,
        trials=4, workers=1,
    )  # fmt: skip
    found = tune(settings)
    assert found.search == "optuna"
    drawn = [trial.values["risk"] for trial in found.trials]
    assert all(isinstance(value, float) and 0 <= value <= 1 for value in drawn) and len(set(drawn)) > 2
    assert found.to_report()["parameters"] == [{"name": "risk", "low": 0.0, "high": 1.0}]


RISKY = str(Path(__file__).parent / "risky.py")
"""A user's strategy with a float knob and two whole ones (below's threshold, from the risk)."""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("ranges", "method", "search"),
    [
        (["threshold=1..8"], "simulate", "grid"),
        (["threshold=1..9"], "simulate", "successive-halving"),
        (["threshold=1..3"], "halving", "successive-halving"),
        (["threshold=1..16"], "grid", "grid"),
    ],
)
def test_the_search_is_the_one_asked_for_else_the_ranges(ranges: list[str], method: str, search: str) -> None:
    """Told of its first trial, the tune is stopped there: its search is known, one trial played."""

    def stop(trial: Trial, found: int, most: int) -> None:
        raise KeyboardInterrupt

    settings = TuneSettings("below", parse_parameters(ranges), objective="mean-score", method=method, games=20)
    with pytest.raises(TuneStopped) as stopped:
        tune(dataclasses.replace(settings, workers=1), told=stop)
    assert stopped.value.tuning.search == search


@pytest.mark.slow
@pytest.mark.parametrize(
    "ranges", [["risk=0.0..1"], ["risk=0.0..1:0.25", "low=1..2", "high=1..2"]], ids=["continuous", "three"]
)
def test_a_continuous_range_or_three_parameters_take_optuna_and_without_it_one_sentence_says_what_to_install(
    ranges: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "optuna", None)  # as if the tune extra were not installed
    settings = TuneSettings(f"{RISKY}:Risky", parse_parameters(ranges), objective="mean-score", method="simulate")
    with pytest.raises(ConfigError) as refused:
        tune(settings)
    said = (
        'this search needs Optuna, which shutbox installs with its tune extra: pip install ".[tune]" '
        "in shutbox's checkout (or give --method grid or halving)."
    )
    assert str(refused.value) == said.replace("--method grid", "method='grid'")
    assert on_the_command_line(refused.value, command="tune") == said


@pytest.mark.slow
def test_an_exact_tune_against_a_field_computes_the_candidate_s_games_as_a_round_robin_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only the candidate's games are computed, the field's turns made once for the whole tune (a
    user's keyed strategy's from one host, asked for the keys each candidate meets): its figures
    are those of the whole round robin."""
    made = _made_turns(monkeypatch)
    field, rules = ("optimal", "tips", CHASER), {"tiles": 6}
    found = tune(TuneSettings("below", parse_parameters(["threshold=4..5"]), field=field, rules=rules))
    assert sorted(made) == sorted(["below", *(f"below(threshold={one})" for one in range(4, 6)), *field])
    for trial in found.trials:
        spec = f"below(threshold={trial.values['threshold']})"
        whole = run(None, Options(strategies=[spec, *field], method="exact", rules=rules))
        standing = next(one for one in whole.ranking if one.spec == spec)
        assert trial.objective == pytest.approx(standing.win_rate, abs=1e-12)


@pytest.mark.slow
def test_a_grid_of_more_than_ten_thousand_candidates_is_refused_and_sampled_by_optuna() -> None:
    pytest.importorskip("optuna", reason="Optuna is the tune extra")
    ranges = parse_parameters(["risk=0.0..1:0.01", "low=1..100", "high=1..2"])  # 20,200 candidates
    settings = TuneSettings(f"{RISKY}:Risky", ranges, objective="mean-score", games=20, seed=1, workers=1)
    with pytest.raises(ConfigError) as refused:
        tune(dataclasses.replace(settings, method="halving"))
    said = (
        "the ranges make more than 10,000 candidates; take larger steps or fewer parameters "
        "(or --method optuna, which samples them)."
    )
    assert str(refused.value) == said.replace("--method optuna", "method='optuna'")
    assert on_the_command_line(refused.value, command="tune") == said

    def stop(trial: Trial, found: int, most: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(TuneStopped) as stopped:
        tune(dataclasses.replace(settings, method="simulate"), told=stop)
    assert stopped.value.tuning.search == "optuna" and len(stopped.value.tuning.trials) == 1


@pytest.mark.slow
def test_a_tune_against_target_in_drop_out_at_a_table_of_two_is_exact_as_each_duel_computed_on_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Target's turns are made once for the whole tune, each candidate's for itself: the same figures."""
    made = _made_turns(monkeypatch)
    rules = {"tiles": 4, "drop_out": 12}
    seated = Rules.from_mapping(rules)
    target = seat_strategy("target", seated)
    exact = {
        threshold: next(
            seat.wins
            for seat in duel_exactly(seat_strategy(f"below(threshold={threshold})", seated), target).seats
            if seat.seat is None
        )
        for threshold in (2, 4, 6)
    }
    found = tune(TuneSettings("below", parse_parameters(["threshold=2..6:2"]), field=("target",), rules=rules))
    assert found.method == "exact"
    assert {trial.values["threshold"]: trial.objective for trial in found.trials} == pytest.approx(exact, abs=1e-12)
    assert sorted(made) == ["below", *(f"below(threshold={threshold})" for threshold in (2, 4, 6)), "target"]


def test_a_report_naming_a_search_shutbox_does_not_know_is_refused(tmp_path: Path) -> None:
    report = tmp_path / "tune.toml"
    found = tune(TuneSettings("below(threshold=2)", parse_parameters(["threshold=2..6:4"]), rules={"tiles": 4}))
    write_table_atomically(report, {**found.to_report(), "search": "nonsense", "done": False})
    with pytest.raises(ConfigError, match="names a search shutbox does not know"):
        read_tune(report)


@pytest.mark.parametrize(
    ("settings", "library", "face"),
    [
        (
            TuneSettings("below", parse_parameters(["threshold=1..3"]), objective="win-rate"),
            "alone there is no win rate to tune: give a field (field) or objective='mean-score' or shut-rate.",
            "alone there is no win rate to tune: give a field (-s) or --objective mean-score or shut-rate.",
        ),
        (
            TuneSettings("below", parse_parameters(["threshold=1..3"]), field=("tips",), method="grid", trials=5),
            "trials sets how many candidates an Optuna search tries, and this tune's search is grid (every "
            "candidate played): leave trials out, or give method='optuna'.",
            "--trials sets how many candidates an Optuna search tries, and this tune's search is grid (every "
            "candidate played): leave --trials out, or give --method optuna.",
        ),
    ],
    ids=["alone", "trials"],
)
def test_a_tune_asked_the_impossible_names_the_settings_to_the_library_and_the_options_to_the_face(
    settings: TuneSettings, library: str, face: str
) -> None:
    with pytest.raises(ConfigError) as refused:
        tune(settings)
    assert str(refused.value) == library
    assert on_the_command_line(refused.value, command="tune") == face
