"""The strategy contract, enforced: the built-ins pass `strategies.testing`'s contract tests; a
broken declaration fails them; a strategy writer's own project tests its strategy in three
lines; and a strategy that uses the global random generators in secret still gives the same
tournament report at any number of workers, and the same analysis twice."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import ClassVar

import pytest

import strategies
from shutbox_cli.game import OneDie, Roll, Rules, TurnContext
from strategies import Move, Strategy, View, questions
from strategies.base import SOLO_CONTEXT, Undeclared
from strategies.builtin import FewestTiles, GreedyHigh, LowestFirst, MostTiles, RandomMove, Tips
from strategies.solved import MaxShut, Optimal, Target
from strategies.testing import StrategyContract, check_strategy, make_view

from helpers.command import real_shutbox
from helpers.paths import ROOT, SNEAKY


@pytest.fixture(scope="module", autouse=True)
def questions_sampled() -> None:
    """The questions every contract check here asks, sampled once for the module (half a second)."""
    questions.sample_questions(StrategyContract.seed, StrategyContract.samples)


class TestGreedyHigh(StrategyContract):
    strategy = GreedyHigh


class TestRandom(StrategyContract):
    strategy = RandomMove


class TestFewestTiles(StrategyContract):
    strategy = FewestTiles


class TestMostTiles(StrategyContract):
    strategy = MostTiles


class TestLowestFirst(StrategyContract):
    strategy = LowestFirst


class TestTips(StrategyContract):
    strategy = Tips


@pytest.mark.slow
class TestOptimal(StrategyContract):
    strategy = Optimal


@pytest.mark.slow
class TestMaxShut(StrategyContract):
    strategy = MaxShut


@pytest.mark.slow
class TestTarget(StrategyContract):
    strategy = Target
    params: ClassVar[dict[str, int]] = {"margin": 1}
    # Fewer questions, from games that stay clear of its slowest decisions (12 tiles, digits
    # scoring, the last of several rounds: tens of seconds each, past the check's time limit).
    seed = 4
    samples = 15


def test_the_public_api_is_what_a_strategy_writer_needs() -> None:
    assert set(strategies.__all__) == {
        "Strategy",
        "View",
        "Move",
        "Roll",
        "TurnContext",
        "Rules",
        "ShutRule",
        "OneDie",
        "OneDieMode",
        "Scoring",
        "FirstRoll",
        "Ties",
    }
    assert all(hasattr(strategies, name) for name in strategies.__all__)
    assert strategies.Rules is Rules and strategies.OneDie is OneDie
    assert not hasattr(strategies, "no_such_name")


def test_the_runners_parts_are_not_exported() -> None:
    for name in ("StrategyPlayer", "StrategyError", "load_strategy", "registry", "LoadedStrategy"):
        assert not hasattr(strategies, name)
        with pytest.raises(ImportError):
            exec(f"from strategies import {name}")


@pytest.mark.parametrize(
    ("name", "failing", "says"),
    [
        ("SneakyRandom", "test_is_random_only_if_declared_stochastic", "declare `stochastic = True`"),
        ("SneakyContext", "test_reads_the_game_only_if_declared", "add `reads_context = True` to its class"),
        ("SneakyTurn", "test_reads_the_game_only_if_declared", "read view.turn without declaring reads_context"),
        ("HiddenState", "test_keeps_no_state_between_questions", "keep no state between questions"),
    ],
)
def test_a_broken_declaration_fails_its_contract_test_and_only_that(name: str, failing: str, says: str) -> None:
    from helpers import sneaky_strategies

    contract = type(f"Test{name}", (StrategyContract,), {"strategy": getattr(sneaky_strategies, name), "samples": 20})()
    tests = sorted(test for test in dir(contract) if test.startswith("test_"))
    failed = {}
    for test in tests:
        try:
            getattr(contract, test)()
        except AssertionError as error:
            failed[test] = str(error)
    assert list(failed) == [failing]
    assert says in failed[failing]


def test_check_strategy_reads_as_a_report() -> None:
    report = check_strategy(MostTiles, samples=5)
    assert report.ok and report.failures == ()
    text = str(report)
    assert text.startswith("strategy 'most-tiles': ") and text.endswith("every check holds.")
    assert "pass  legal answers" in text


class ToBeat(Strategy):
    """Keyed on the score to beat: the fewest tiles once one is posted, else the most."""

    key = ("to_beat",)

    def choose_move(self, view: View) -> Move:
        fewest = view.context.to_beat is not None
        return min(view.legal_moves, key=lambda move: len(move) if fewest else -len(move))


class ReadsTheGame(GreedyHigh):
    reads_context = True


class TestMakeView:
    def test_the_legal_moves_come_from_the_rules(self) -> None:
        view = make_view(open_tiles=(9, 1, 2, 3), dice=(5, 4))
        assert (view.open_tiles, view.dice, view.roll) == ((1, 2, 3, 9), (4, 5), 9)
        assert view.legal_moves == ((9,),)
        assert make_view(Rules(shut_rule="one-tile"), open_tiles=range(1, 10), dice=(3, 6)).legal_moves == (
            (3,),
            (6,),
            (9,),
        )

    def test_a_dice_question_has_no_moves_and_the_dice_options(self) -> None:
        view = make_view(Rules(tiles=6), open_tiles=(1, 2))
        assert (view.dice, view.legal_moves, view.dice_options) == (None, (), (1, 2))

    def test_the_turn_and_context_are_as_given_or_a_solo_games_first(self) -> None:
        assert make_view(open_tiles=(1, 2), dice=(1, 2)).context.score_to_beat is None
        context = TurnContext(1, 1, 0, False, (4, None), (0, 0), (True, True))
        view = make_view(open_tiles=(1, 2), dice=(1, 2), turn=[Roll((3, 4), 0b1000000)], context=context)
        assert view.context.score_to_beat == 4 and view.turn[0].shut_tiles == (7,)

    def test_a_keyed_strategy_is_shown_its_keys_features_alone(self) -> None:
        context = TurnContext(1, 1, 2, False, (4, None), (9, 3), (True, True))
        view = make_view(open_tiles=(1, 2), dice=(1, 2), context=context, strategy=ToBeat)
        assert (view.context.to_beat, view.legal_moves) == (4, ((1, 2),))
        with pytest.raises(Undeclared, match=r'read view.context.round without declaring key = \(..., "round"\)'):
            view.context.round  # noqa: B018  # reading it is the test
        with pytest.raises(Undeclared, match=r"read view\.turn without declaring reads_context = True"):
            view.turn  # noqa: B018
        assert ToBeat().choose_move(make_view(open_tiles=(1, 2, 3), dice=(1, 2), strategy=ToBeat())) == (1, 2)

    def test_a_strategy_that_reads_nothing_is_shown_no_context_and_one_that_reads_it_all(self) -> None:
        with pytest.raises(Undeclared, match=r"read view\.context without declaring reads_context = True"):
            make_view(open_tiles=(1, 2), dice=(1, 2), strategy=GreedyHigh).context  # noqa: B018
        assert make_view(open_tiles=(1, 2), dice=(1, 2), strategy=ReadsTheGame).context == SOLO_CONTEXT

    @pytest.mark.parametrize(
        ("tiles", "dice", "said"),
        [
            ((1, 10), None, "open_tiles must be distinct tiles from 1 to 9, not (1, 10)."),
            ((1, 1), None, "open_tiles must be distinct tiles from 1 to 9, not (1, 1)."),
            ((1, 2), (7,), "dice must be one or two faces from 1 to 6, not (7,)."),
            ((1, 2), (1, 2, 3), "dice must be one or two faces from 1 to 6, not (1, 2, 3)."),
        ],
    )
    def test_a_view_off_the_box_is_refused(
        self, tiles: tuple[int, ...], dice: tuple[int, ...] | None, said: str
    ) -> None:
        with pytest.raises(ValueError) as caught:
            make_view(open_tiles=tiles, dice=dice)
        assert str(caught.value) == said


WRITERS_STRATEGY = """
from strategies import Move, Strategy, View


class HighFirst(Strategy):
    name = "high-first"
    description = "Shuts the set with the highest tiles; one die whenever allowed."

    def choose_move(self, view: View) -> Move:
        return max(view.legal_moves, key=lambda move: move[::-1])

    def choose_dice(self, view: View) -> int:
        return min(view.dice_options)


class Peeks(HighFirst):
    def choose_move(self, view: View) -> Move:
        return view.legal_moves[0] if view.context.score_to_beat else super().choose_move(view)
"""

WRITERS_TESTS = """
from high_first import HighFirst, Peeks
from strategies.testing import StrategyContract, make_view


class TestHighFirst(StrategyContract):
    strategy = HighFirst


class TestPeeks(StrategyContract):
    strategy = Peeks
    samples = 10


def test_it_shuts_the_nine():
    assert HighFirst().choose_move(make_view(open_tiles=(1, 2, 3, 9), dice=(4, 5))) == (9,)
"""


@pytest.mark.slow
def test_a_strategy_writers_project_tests_its_strategy_with_strategies_testing(tmp_path: Path) -> None:
    project = tmp_path / "my-strategy"
    project.mkdir()
    (project / "high_first.py").write_text(textwrap.dedent(WRITERS_STRATEGY))
    (project / "test_high_first.py").write_text(textwrap.dedent(WRITERS_TESTS))
    assert not project.resolve().is_relative_to(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rf"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
        env={key: value for key, value in os.environ.items() if not key.startswith("PYTEST")},
    )
    assert done.returncode == 1, done.stdout + done.stderr  # one failure: Peeks reads the context undeclared
    assert "1 failed, 10 passed" in done.stdout
    assert "FAILED test_high_first.py::TestPeeks::test_reads_the_game_only_if_declared" in done.stdout
    assert "read view.context without declaring reads_context = True" in done.stdout


def shutbox(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return real_shutbox(*arguments, cwd=cwd, timeout=300)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["SneakyRandom", "HiddenState", "DeclaredRandom", "ContextRandom"])
@pytest.mark.usefixtures("pooled")
def test_a_tournament_report_is_the_same_at_any_workers_and_run_after_run(tmp_path: Path, name: str) -> None:
    """Undeclared, a strategy's table is the same in every process; declared, the global generator
    is seeded for each turn from the deal's seed, the game, the round and the seat."""
    field = ["-s", "optimal", "-s", f"{ROOT / SNEAKY}:{name}", "--seed", "1", "--games", "1000", "-q"]
    for report, workers in (("one.toml", "1"), ("two.toml", "2"), ("again.toml", "1")):
        done = shutbox("tournament", *field, "-j", workers, "--report", report, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    one, two, again = ((tmp_path / report).read_bytes() for report in ("one.toml", "two.toml", "again.toml"))
    assert one == two == again


@pytest.mark.slow
def test_analyze_of_a_strategy_using_the_global_random_in_secret_gives_the_same_figures_twice(tmp_path: Path) -> None:
    runs = [
        shutbox("analyze", f"{ROOT / SNEAKY}:SneakyRandom", "--report", f"{run}.toml", cwd=tmp_path) for run in "ab"
    ]
    assert [run.returncode for run in runs] == [0, 0]
    assert runs[0].stdout == runs[1].stdout
    assert (tmp_path / "a.toml").read_bytes() == (tmp_path / "b.toml").read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize(("name", "part"), [("SneakyContext", "context"), ("SneakyTurn", "turn")])
@pytest.mark.parametrize("command", ["analyze", "tournament"])
def test_an_undeclared_read_stops_analysis_and_tournaments_naming_the_declaration(
    tmp_path: Path, name: str, part: str, command: str
) -> None:
    arguments = [f"{ROOT / SNEAKY}:{name}"] if command == "analyze" else ["-s", f"{ROOT / SNEAKY}:{name}", "-s", "tips"]
    done = shutbox(command, *arguments, cwd=tmp_path)
    assert done.returncode == 1
    first = done.stderr.splitlines()[0]
    assert f"read view.{part} without declaring reads_context = True, with open tiles " in first
    assert first.endswith(
        "(asked while tabulating its answers): add `reads_context = True` to its class (a strategy that reads "
        "the game is simulated, not analysed exactly)."
    )
    assert done.stderr.splitlines()[1].startswith(f'  File "{ROOT / SNEAKY}", line ')
