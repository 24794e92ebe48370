"""`shutbox analyze` and `shutbox strategies`, through the real command; and atomic file writes."""

from __future__ import annotations

import errno
import os
import subprocess
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shutbox_cli.face.cli import app
from shutbox_cli.game import Rules, distribution, solve_expected_score
from strategies.player import StrategyPlayer
from strategies.runner import BUILTINS, load_strategy
from tournaments import seat_strategy
from tournaments.errors import FileWriteError
from tournaments.exact.analysis import simulate
from tournaments.files import reason, write_atomically, write_table_atomically
from tournaments.records.schema import rules_table

from helpers.command import real_shutbox
from helpers.paths import ROOT


def shutbox(*arguments: str, status: int = 0, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    done = real_shutbox(*arguments, cwd=cwd, timeout=600)
    assert done.returncode == status, done.stderr
    return done


def narrow(text: str) -> str:
    assert max(len(line) for line in text.splitlines()) <= 80
    return text


def exact(spec: str, rules: Rules) -> float:
    player = StrategyPlayer(load_strategy(spec).make(), rules)
    return distribution(rules, player.move_policy, player.dice_policy).expected_score


@pytest.mark.slow
class TestExact:
    def test_a_tabulable_strategy_gets_its_exact_distribution_on_screen_and_in_the_report(self, tmp_path: Path) -> None:
        report = tmp_path / "greedy.toml"
        shown = narrow(shutbox("analyze", "greedy-high", "--report", str(report)).stdout)
        assert "Method: exact" in shown and "Expected score: 12.268294" in shown and "Shuts the box: 5.563%" in shown
        assert "Rules for a turn: standard." in shown
        assert "    0  5.563%  ███" in shown
        data = tomllib.loads(report.read_text())
        assert set(data) == {
            "schema",
            "kind",
            "shutbox_version",
            "method",
            "arithmetic",
            "strategy",
            "spec",
            "fingerprint",
            "mean_score",
            "shut_rate",
            "rules",
            "distribution",
        }
        assert data["strategy"] == "greedy-high" and data["method"] == "exact" and data["kind"] == "analysis"
        assert data["rules"] == rules_table(Rules())
        assert data["mean_score"] == pytest.approx(exact("greedy-high", Rules()), rel=1e-13)
        assert data["shut_rate"] == data["distribution"]["0"]
        assert sum(data["distribution"].values()) == pytest.approx(1, abs=1e-12)
        assert data["mean_score"] == pytest.approx(
            sum(int(score) * chance for score, chance in data["distribution"].items()), rel=1e-12
        )
        assert "turns" not in data and "seed" not in data

    def test_the_rule_options_are_the_rules_analysed(self, tmp_path: Path) -> None:
        report = tmp_path / "optimal.toml"
        shown = shutbox("analyze", "optimal", "--tiles", "12", "--one-die-mode", "compulsory", "--report", str(report))
        assert "Rules for a turn: tiles = 12, one_die_mode = compulsory." in shown.stdout
        data = tomllib.loads(report.read_text())
        rules = Rules(tiles=12, one_die_mode="compulsory")
        assert data["rules"] == rules_table(rules)
        assert data["mean_score"] == pytest.approx(solve_expected_score(rules).value, rel=1e-13)

    def test_huge_digits_scores_fit_the_screen_and_the_report_has_every_one(self, tmp_path: Path) -> None:
        report = tmp_path / "digits.toml"
        rules = Rules(tiles=12, scoring="digits")
        shown = narrow(
            shutbox("analyze", "greedy-high", "--tiles", "12", "--scoring", "digits", "--report", str(report)).stdout
        )
        data = tomllib.loads(report.read_text())
        player = StrategyPlayer(load_strategy("greedy-high").make(), rules)
        found = distribution(rules, player.move_policy, player.dice_policy)
        assert data["distribution"] == {str(score): chance for score, chance in found.probabilities.items()}
        assert "2389101112  " in shown  # 2 3 8 9 10 11 12 left open
        hidden = len(found.probabilities) - 46
        assert f"\n{hidden} less likely scores are not shown (" in shown

    def test_a_users_file_is_analysed_with_its_parameters(self) -> None:
        shown = shutbox("analyze", "examples/cautious.py:Cautious(margin=3)").stdout
        rules = Rules()
        assert f"Expected score: {exact('examples/cautious.py:Cautious(margin=3)', rules):.9g}" in shown
        assert shown.startswith("cautious(margin=3): Leaves the most dice totals")


@pytest.mark.slow
class TestSimulation:
    def test_the_same_seed_gives_the_same_report(self, tmp_path: Path) -> None:
        first, second = tmp_path / "a.toml", tmp_path / "b.toml"
        shown = shutbox("analyze", "random", "--turns", "3000", "--seed", "7", "--report", str(first)).stdout
        shutbox("analyze", "random", "--turns", "3000", "--seed", "7", "--report", str(second))
        assert first.read_bytes() == second.read_bytes()
        data = tomllib.loads(first.read_text())
        assert (data["method"], data["turns"], data["seed"]) == ("simulate", 3000, 7)
        low, high = data["mean_score_ci95"]
        assert low < data["mean_score"] < high
        assert "Method: simulation of 3,000 turns, seed 7 (given)." in narrow(shown)
        assert "95% CI" in shown
        assert all(f"\n{score:>5}  " in shown for score in data["distribution"])  # a 9-tile box is shown whole
        assert "not shown" not in shown

    def test_without_a_seed_one_is_drawn_printed_and_recorded(self, tmp_path: Path) -> None:
        report = tmp_path / "target.toml"
        shown = shutbox("analyze", "target", "--turns", "200", "--report", str(report)).stdout
        seed = tomllib.loads(report.read_text())["seed"]
        assert f"seed {seed} (drawn; pass --seed to repeat)" in shown

    def test_simulation_agrees_with_the_exact_value_within_its_interval(self) -> None:
        rules = Rules()
        found = simulate(seat_strategy("tips", rules), 20_000, seed=11)
        low, high = found.expected_score_interval or (0, 0)
        assert low < exact("tips", rules) < high
        assert found.counts is not None and sum(found.counts.values()) == 20_000


@pytest.mark.slow
class TestErrors:
    def test_an_unknown_strategy_is_one_sentence_and_status_2(self) -> None:
        done = shutbox("analyze", "gredy", status=2)
        assert done.stderr.startswith("shutbox: error: no strategy named 'gredy'") and done.stderr.count("\n") == 1

    def test_a_report_that_cannot_be_written_is_one_sentence_and_status_2(self, tmp_path: Path) -> None:
        done = shutbox("analyze", "optimal", "--report", str(tmp_path / "missing" / "r.toml"), status=2)
        assert (
            done.stderr
            == f"shutbox: error: cannot write '{tmp_path}/missing/r.toml': there is no folder '{tmp_path}/missing'.\n"
        )
        assert shutbox("analyze", "optimal", "--report", str(tmp_path), status=2).stderr.endswith("it is a folder.\n")
        assert done.stdout == ""

    def test_a_failing_strategy_stops_with_its_name_and_state_and_writes_no_report(self, tmp_path: Path) -> None:
        (tmp_path / "bad.py").write_text(
            "from strategies import Strategy\n"
            "class Bad(Strategy):\n"
            "    name = 'bad'\n"
            "    def choose_move(self, view):\n"
            "        return (99,)\n"
        )
        done = shutbox("analyze", "bad.py:Bad", "--report", "r.toml", status=1, cwd=tmp_path)
        assert done.stderr.startswith(
            "shutbox: error: strategy 'bad' answered with something other than one of the legal moves"
        )
        assert "it answered (99,); the legal moves are " in done.stderr and "Traceback" not in done.stderr
        assert not (tmp_path / "r.toml").exists()


@pytest.mark.slow
class TestStrategiesCommand:
    def test_the_table_lists_every_builtin_with_its_nature(self) -> None:
        listed = narrow(shutbox("strategies").stdout)
        for name in BUILTINS:
            assert f"\n{name} " in listed
        assert "\noptimal       exact  " in listed and "\ntarget        reads context  " in listed

    def test_one_strategy_in_full(self) -> None:
        shown = narrow(shutbox("strategies", "target").stdout)
        assert "parameters   margin: int = 0" in shown
        assert "from         built-in (strategies.solved:Target)" in shown
        assert "drop-out: going out in a later round is better" in shown

    def test_an_unknown_one_is_one_sentence_and_status_2(self) -> None:
        assert shutbox("strategies", "nope", status=2).stderr.startswith("shutbox: error: no strategy named 'nope'")


class TestAtomicReports:
    def test_a_report_replaces_the_old_file_whole_and_leaves_no_temporary_file(self, tmp_path: Path) -> None:
        path = tmp_path / "report.toml"
        path.write_text("old = true\n")
        path.chmod(0o640)
        write_table_atomically(path, {"new": 1, "table": {"0": 0.5}})
        assert tomllib.loads(path.read_text()) == {"new": 1, "table": {"0": 0.5}}
        assert path.stat().st_mode & 0o777 == 0o640
        assert os.listdir(tmp_path) == ["report.toml"]

    def test_a_report_that_cannot_be_encoded_leaves_the_old_file(self, tmp_path: Path) -> None:
        path = tmp_path / "report.toml"
        path.write_text("old = true\n")
        with pytest.raises(TypeError):
            write_table_atomically(path, {"bad": None})
        assert path.read_text() == "old = true\n" and os.listdir(tmp_path) == ["report.toml"]

    def test_a_missing_folder_is_one_sentence(self, tmp_path: Path) -> None:
        with pytest.raises(FileWriteError, match=r"^cannot write '.*/no/r\.toml': there is no folder '.*/no'\.$"):
            write_table_atomically(tmp_path / "no" / "r.toml", {"a": 1})

    def test_a_new_file_gets_the_permissions_the_umask_gives_not_private_ones(self, tmp_path: Path) -> None:
        for umask, mode in ((0o022, 0o644), (0o027, 0o640)):
            previous = os.umask(umask)
            try:
                write_atomically(tmp_path / f"new-{umask:o}", b"data")
            finally:
                os.umask(previous)
            assert (tmp_path / f"new-{umask:o}").stat().st_mode & 0o777 == mode

    def test_the_data_reaches_the_disk_before_it_replaces_the_old_file(self, tmp_path: Path, monkeypatch) -> None:
        path = tmp_path / "scores.json"
        path.write_bytes(b"old")
        synced = []
        real_fsync = os.fsync

        def fsync(handle: int) -> None:
            synced.append(path.read_bytes())  # what the target holds while the new data is synced
            real_fsync(handle)

        monkeypatch.setattr(os, "fsync", fsync)
        write_atomically(path, b"new")
        assert synced == [b"old"] and path.read_bytes() == b"new"

    def test_a_failed_rename_leaves_the_old_file_and_no_temporary_file(self, tmp_path: Path, monkeypatch) -> None:
        path = tmp_path / "scores.json"
        path.write_bytes(b"old")

        def refuse(source: str, target: object) -> None:
            raise OSError(errno.EXDEV, "Invalid cross-device link")

        monkeypatch.setattr(os, "replace", refuse)
        with pytest.raises(OSError, match="cross-device"):
            write_atomically(path, b"new")
        assert path.read_bytes() == b"old" and os.listdir(tmp_path) == ["scores.json"]

    def test_a_reason_is_the_system_message_else_the_errors_own_words(self) -> None:
        assert reason(PermissionError(errno.EACCES, "Permission denied")) == "Permission denied"
        assert reason(ValueError("not a best-score table")) == "not a best-score table"
        assert reason(KeyError()) == "KeyError"


@pytest.mark.slow
def test_simulation_options_given_for_an_exact_strategy_are_pointed_out() -> None:
    done = shutbox("analyze", "greedy-high", "--turns", "500", "--seed", "1")
    assert done.stderr == "shutbox: --turns and --seed apply to simulations; this strategy is analysed exactly.\n"
    assert "Method: exact" in done.stdout
    assert shutbox("analyze", "greedy-high").stderr == ""


def in_process(*arguments: str) -> tuple[int, str, str]:
    """`shutbox analyze` run in this process, piped: status, stdout, stderr."""
    done = CliRunner().invoke(app, ["analyze", *arguments], env={"COLUMNS": "100", "FORCE_COLOR": None})
    return done.exit_code, done.stdout, done.stderr


@pytest.mark.parametrize(
    "given, said",
    [
        (["--rounds", "3"], "--rounds"),
        (["--drop-out", "45"], "--drop-out"),
        (["--ties", "seat"], "--ties"),
        (["--instant-win"], "--instant-win"),
        (["--no-instant-win"], "--no-instant-win"),
        (["--drop-out", "45", "--tiles", "10", "--rounds", "2", "--ties", "share"], "--ties, --rounds and --drop-out"),
    ],
)
def test_game_format_options_are_refused_in_one_sentence(given: list[str], said: str) -> None:
    status, out, err = in_process("random", *given)
    verb = "apply" if " and " in said else "applies"
    solo = "" if said == "--ties" else " (a solo game: `shutbox tournament --table 1 ...`)"  # no ties when alone
    assert (status, out) == (2, "")
    assert err == (
        f"shutbox: error: analyze studies single turns; {said} {verb} to a game: "
        f"add --against SPEC to play one{solo}.\n"
    )


def test_the_help_lists_the_options_of_a_game_apart_as_needing_against() -> None:
    status, out, _ = in_process("--help")
    turn, _, game = out.partition("Rules of a game (with --against only):")
    assert status == 0 and game
    for flag in ("--ties", "--rounds", "--drop-out", "--instant-win"):
        assert flag in game and flag not in turn
    assert all(flag in turn for flag in ("--tiles", "--shut-rule", "--one-die", "--scoring", "--first-roll"))


@pytest.mark.slow
def test_the_tie_rule_applies_to_a_game_against_another_and_only_share_shares() -> None:
    status, out, err = in_process("optimal", "--against", "greedy-high", "--ties", "seat")
    assert (status, err) == (0, "")
    assert "Tie settled: the chance the tie rule (seat) decided." in out and "shared" not in out
    status, out, err = in_process("optimal", "--against", "greedy-high")
    assert "A shared win counts half; tie settled: the chance the tie rule (share) decided." in out


@pytest.mark.slow
def test_a_margin_of_0_says_it_holds_wins_at_once_where_a_shut_box_wins_at_once() -> None:
    status, out, err = in_process("optimal", "--against", "greedy-high", "--tiles", "6")
    assert (status, err) == (0, "")
    said = " ".join(out.split())  # as wrapped to the terminal
    assert (
        "0 also counts the games a shut box won at once in the first round, before the other seat's turn "
        "(both totals 0)." in said
    )
    status, out, err = in_process("optimal", "--against", "greedy-high", "--tiles", "6", "--rounds", "2")
    assert (status, err) == (0, "") and "Margin: " in out and "at once" not in out


def test_the_help_gives_the_librarys_default_number_of_turns() -> None:
    from shutbox_cli.face.commands.analyze import DEFAULT_TURNS as SAID  # the help's figure, kept out of the library
    from tournaments.exact.analysis import DEFAULT_TURNS  # so that `shutbox --help` does not import it

    assert SAID == DEFAULT_TURNS


def test_the_help_gives_the_librarys_time_limit_on_a_users_strategy() -> None:
    from shutbox_cli.face.arguments import STRATEGY_TIMEOUT as SAID
    from tournaments.parts import STRATEGY_TIMEOUT

    assert SAID == STRATEGY_TIMEOUT


def test_a_simulation_tells_its_progress_until_every_turn_is_played() -> None:
    told: list[tuple[int, int]] = []
    simulate(seat_strategy("random", Rules()), 1001, 7, lambda done, total: told.append((done, total)))
    done = [played for played, _ in told]
    assert {total for _, total in told} == {1001} and done[-1] == 1001
    assert done == sorted(set(done)) and len(told) <= 201  # every 5 turns (1001 // 200), and the last
