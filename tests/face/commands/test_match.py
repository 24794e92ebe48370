"""`shutbox match`: game pairs, the SPRT's verdict as the exit status, the report's `[match]`."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from shutbox_cli.game import Rules
from tournaments import (
    InProcess,
    Interrupted,
    Options,
    ProcessPool,
    Sprt,
    Verdict,
    duel_exactly,
    parse_sprt,
    play_match,
    resume,
    seat_strategy,
)
from tournaments.playing.plan import Plan
from tournaments.playing.units import UnitResult
from tournaments.statistics.elo import elo

from helpers.command import real_shutbox, shutbox


@pytest.mark.slow
def test_an_sprt_without_games_plays_past_the_plain_default_until_it_decides() -> None:
    """Without -n a test has room to decide: this one needs 8,448 games, past the 2,000 a plain
    match plays."""
    done = real_shutbox(
        "match", "optimal", "fewest-tiles", "--seed", "3", "--sprt", "elo0=0 elo1=2", "-q", columns=None
    )
    assert done.returncode == 0, done.stderr
    assert "; 8,448 games: H1 accepted" in done.stdout  # -q: the one-line summary


@pytest.mark.slow
def test_a_stronger_strategy_is_accepted_as_such_and_the_report_says_so(tmp_path: Path) -> None:
    report = tmp_path / "match.toml"
    done = real_shutbox(
        "match", "optimal", "fewest-tiles", "-n", "400000", "--seed", "5", "--sprt", "elo0=0 elo1=2", "-o", str(report)
    )
    assert done.returncode == 0, done.stderr
    assert "H1 accepted" in done.stdout and "from the pairs" in done.stdout
    match = tomllib.loads(report.read_text())["match"]
    assert match["sprt"]["verdict"] == "H1" and match["sprt"]["llr"] >= match["sprt"]["bounds"][1]
    assert match["strategy"] == "optimal" and match["baseline"] == "fewest-tiles"
    assert sum(match["pentanomial"]) == match["pairs"] < 200_000  # stopped before the budget ran out
    low, high = match["score_ci95"]
    unpaired_low, unpaired_high = match["score_ci95_unpaired"]
    assert high - low < unpaired_high - unpaired_low
    path = match["sprt"]["path"]  # the LLR at each look: after each block of 128 games
    assert path["games"] == list(range(128, 2 * match["pairs"] + 1, 128))
    assert len(path["llr"]) == len(path["games"]) and path["llr"][-1] == match["sprt"]["llr"]
    bottom, top = match["sprt"]["bounds"]
    assert all(bottom < llr < top for llr in path["llr"][:-1])  # the test stopped at its first crossing


@pytest.mark.slow
def test_a_strategy_against_itself_splits_every_pair_and_h0_is_accepted() -> None:
    done = real_shutbox("match", "a=optimal", "b=optimal", "-n", "4000", "--seed", "1", "--sprt", "")
    assert done.returncode == 3, done.stderr
    assert "Pairs scoring 0, ½, 1, 1½, 2: 0 0 256 0 0" in done.stdout  # decided after 4 looks
    assert "H0 accepted" in done.stdout


@pytest.mark.slow
def test_a_budget_too_small_leaves_the_test_undecided() -> None:
    done = real_shutbox("match", "optimal", "fewest-tiles", "-n", "100", "--seed", "1", "--sprt", "elo0=0 elo1=5")
    assert done.returncode == 4, done.stderr
    assert "undecided" in done.stdout


@pytest.mark.parametrize(
    ("settings", "said"),
    [("elo0=5 elo1=0", "elo0 must be less than its elo1"), ("elo2=1", "not 'elo2=1'"), ("alpha=x", "a number")],
)
def test_a_bad_sprt_is_one_sentence(settings: str, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        parse_sprt(settings)
    assert parse_sprt("elo0=-3, beta=0.1") == Sprt(-3, 5, 0.05, 0.1)


@pytest.mark.slow
def test_the_command_says_a_bad_sprt_in_one_sentence() -> None:
    done = real_shutbox("match", "optimal", "tips", "--sprt", "elo0=5 elo1=0")
    assert done.returncode == 2
    assert "--sprt: the SPRT's elo0 must be less than its elo1." in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_the_test_stops_at_the_same_game_at_any_number_of_workers() -> None:
    options = Options(strategies=["optimal", "fewest-tiles"], games=400_000, seed=5)
    alone = play_match(options, Sprt(0, 2))
    pooled = play_match(options, Sprt(0, 2), backend=ProcessPool(2))
    assert alone.match is not None and alone.match.verdict is Verdict.H1
    assert alone.games == pooled.games < 400_000  # stopped after some units, not the first
    assert alone.games > 2048
    assert alone.match == pooled.match and alone.tallies == pooled.tallies
    assert [games for games, _ in alone.match.path] == list(range(128, alone.games + 1, 128))
    assert alone.match.path[-1][1] == alone.match.llr


@pytest.mark.slow
def test_the_elo_of_a_long_match_holds_the_exact_engine_s() -> None:
    # optimal against fewest-tiles, exactly: its chance of winning a game averaged over both seats.
    duel = duel_exactly(seat_strategy("optimal", Rules()), seat_strategy("fewest-tiles", Rules()))
    exact = float(duel.seats[-1].wins)
    summary = play_match(Options(strategies=["optimal", "fewest-tiles"], games=40_000, seed=3))
    assert summary.match is not None
    low, high = summary.match.estimate.interval
    assert low < elo(exact) < high


class Interrupting:
    """Plays in this process, and stops as Ctrl-C would once `after` units are counted."""

    def __init__(self, after: int) -> None:
        self.after = after

    def run(self, plan: Plan, finished: Callable[[UnitResult], None]) -> None:
        counted = 0

        def count(result: UnitResult) -> None:
            nonlocal counted
            finished(result)
            counted += 1
            if counted == self.after:
                raise KeyboardInterrupt

        InProcess().run(plan, count)


@pytest.mark.slow
def test_an_interrupted_match_resumes_to_the_uninterrupted_verdict(tmp_path: Path) -> None:
    options = Options(strategies=["optimal", "fewest-tiles"], games=400_000, seed=5)
    whole = play_match(options, Sprt(0, 2), report=tmp_path / "whole.toml")
    checkpoint = tmp_path / "part.checkpoint.toml"
    with pytest.raises(Interrupted) as stopped:
        play_match(
            options,
            Sprt(0, 2),
            backend=Interrupting(1),
            report=tmp_path / "part.toml",
            checkpoint=checkpoint,
            checkpoint_seconds=0,
        )
    assert stopped.value.checkpoint == checkpoint and 0 < stopped.value.games < whole.games
    told: list[int] = []
    again = resume(checkpoint, watch=lambda match, games: told.append(games))
    assert told[:2] == [2048, 2176] and told[-1] == whole.games  # from the unit kept on, block by block
    assert again.match == whole.match and again.games == whole.games
    assert whole.match is not None and len(whole.match.path) == whole.games // 128  # kept whole across the stop
    assert (tmp_path / "part.toml").read_bytes() == (tmp_path / "whole.toml").read_bytes()
    assert not checkpoint.exists()


@pytest.mark.slow
def test_a_normalized_test_resumes_with_its_model(tmp_path: Path) -> None:
    options = Options(strategies=["optimal", "fewest-tiles"], games=400_000, seed=5)
    test = Sprt(0, 2, model="normalized")
    whole = play_match(options, test, report=tmp_path / "whole.toml")
    checkpoint = tmp_path / "part.checkpoint.toml"
    with pytest.raises(Interrupted):
        play_match(
            options, test, backend=Interrupting(1), report=tmp_path / "part.toml", checkpoint=checkpoint,
            checkpoint_seconds=0,
        )  # fmt: skip
    again = resume(checkpoint)
    assert again.match is not None and again.match.sprt == test and again.match == whole.match
    assert (tmp_path / "part.toml").read_bytes() == (tmp_path / "whole.toml").read_bytes()


@pytest.mark.parametrize("columns", [60, 100])
def test_the_figures_fit_the_terminal_and_break_only_between_words(columns: int) -> None:
    """Each figure's line is wrapped at spaces to the terminal's width (the terminal would break it
    inside a word), its later lines indented; in a pipe each stays one line."""
    match = ("match", "greedy-high", "tips", "-n", "200", "--seed", "1", "--sprt", "elo1=5", "-j", "1")
    piped = shutbox(*match, columns=None)
    fitted = shutbox(*match, columns=columns)
    assert piped.returncode == fitted.returncode == 4, fitted.stderr
    figures = piped.stdout.splitlines()
    assert len(figures) == 10 and max(len(line) for line in figures) > 100  # the exact score among them
    assert figures[-1] == "exact: `shutbox diff greedy-high tips --measure win` says where they differ."
    lines = fitted.stdout.splitlines()
    assert all(len(line) <= columns for line in lines), fitted.stdout
    assert len(lines) > len(figures)
    assert fitted.stdout.replace("\n  ", " ") == piped.stdout


@pytest.mark.slow
def test_a_normalized_sprt_is_reported_with_its_model_and_the_nelo(tmp_path: Path) -> None:
    report = tmp_path / "match.toml"
    done = shutbox(
        "match",
        "optimal",
        "fewest-tiles",
        "-n",
        "4000",
        "--seed",
        "3",
        "--sprt",
        "model=normalized elo0=0 elo1=2",
        "-o",
        str(report),
    )
    match = tomllib.loads(report.read_text())["match"]
    assert done.returncode in (0, 3, 4), done.stderr
    assert match["sprt"]["model"] == "normalized" and next(iter(match["sprt"])) == "model"
    low, high = match["nelo_ci95"]
    assert low < match["nelo"] < high
    assert "Normalized Elo: " in done.stdout and "model=normalized elo0=0 elo1=2" in done.stdout
    logistic = tmp_path / "logistic.toml"
    shutbox(
        "match", "optimal", "fewest-tiles", "-n", "4000", "--seed", "3", "--sprt", "elo0=0 elo1=2", "-o", str(logistic)
    )
    assert "model" not in tomllib.loads(logistic.read_text())["match"]["sprt"]  # a logistic test's table as it was
