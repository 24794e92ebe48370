"""Loading a strategy from its spec: built-in names, files, modules, installed packages; and every
way that can fail, each in one sentence."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import strategies.loading
import strategies.names
from strategies.catalog import catalog, strategy_info
from strategies.loading import StrategyLoadError, load_strategy, split_spec
from strategies.names import BUILTINS, ENTRY_POINT_GROUP, registry

from helpers.paths import ROOT
from helpers.venv import fresh_venv, pip_install

CAUTIOUS = "examples/cautious.py:Cautious"


def one_sentence(message: str) -> str:
    assert "\n" not in message and message.endswith(".")
    assert not re.search(r"[.!?]\s+[A-Z]", message), "a second sentence"
    return message


def failure(spec: str, **params: object) -> str:
    with pytest.raises(StrategyLoadError) as caught:
        load_strategy(spec, params or None)
    return one_sentence(str(caught.value))


def test_the_builtins_are_declared_as_entry_points_in_pyproject() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["entry-points"][ENTRY_POINT_GROUP] == BUILTINS
    assert {name: registry()[name] for name in BUILTINS} == BUILTINS


class TestSpecs:
    def test_a_builtin_name_with_parameters_in_the_spec_or_given_apart(self) -> None:
        assert load_strategy("greedy-high").name == "greedy-high"
        assert load_strategy("target(margin=2)").make().margin == 2
        loaded = load_strategy("target", {"margin": 3})
        assert (loaded.name, loaded.make().margin, loaded.origin) == ("target(margin=3)", 3, "built-in")
        assert load_strategy("target(margin=2)", name="Tee").name == "Tee"

    def test_split_spec_reads_plain_values(self) -> None:
        assert split_spec(" x.py:C(a=1, b='two', c=0.5, d=[1, 2]) ") == (
            "x.py:C",
            {"a": 1, "b": "two", "c": 0.5, "d": [1, 2]},
        )

    def test_a_single_file_by_path(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.chdir(ROOT)
        loaded = load_strategy(f"{CAUTIOUS}(margin=4)")
        assert (loaded.name, loaded.cls.__name__, loaded.make().margin) == ("cautious(margin=4)", "Cautious", 4)
        assert loaded.origin == "file examples/cautious.py"
        assert load_strategy(str(ROOT / CAUTIOUS)).cls is loaded.cls  # the same file is imported once

    def test_a_single_file_may_import_a_module_beside_it(self, tmp_path: Path) -> None:
        (tmp_path / "shutbox_test_helper_tiles.py").write_text("def highest(moves):\n    return max(moves)\n")
        (tmp_path / "uses_helper.py").write_text(
            "from shutbox_test_helper_tiles import highest\n"
            "from strategies import Strategy\n"
            "class High(Strategy):\n"
            "    def choose_move(self, view):\n"
            "        return highest(view.legal_moves)\n"
        )
        path_before = list(sys.path)
        loaded = load_strategy(f"{tmp_path / 'uses_helper.py'}:High")
        assert loaded.cls.__name__ == "High"
        assert sys.path == path_before  # the folder was on the path only while the file loaded

    def test_a_module_and_class(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        (tmp_path / "my_bots.py").write_text(
            "from strategies import Strategy\n"
            "class Low(Strategy):\n"
            "    def choose_move(self, view):\n"
            "        return min(view.legal_moves)\n"
        )
        monkeypatch.syspath_prepend(str(tmp_path))
        loaded = load_strategy("my_bots:Low")
        assert (loaded.name, loaded.origin) == ("my_bots:Low", "module my_bots")
        assert load_strategy("strategies.builtin:Tips").name == "tips"


class TestFailures:
    def test_no_such_name(self) -> None:
        assert failure("gredy-high").startswith(
            "no strategy named 'gredy-high' (did you mean 'greedy-high'?); known names: greedy-high, random,"
        )

    def test_no_such_module_or_file(self) -> None:
        assert (
            failure("no_such_module:Thing") == "no module named 'no_such_module' for strategy 'no_such_module:Thing'."
        )
        assert failure("nowhere/bot.py:Bot") == "no file 'nowhere/bot.py' for strategy 'nowhere/bot.py:Bot'."

    def test_a_file_without_its_class(self) -> None:
        assert failure("examples/cautious.py") == (
            "strategy 'examples/cautious.py' names a file but not its class: write examples/cautious.py:ClassName."
        )

    def test_a_module_that_fails_to_import(self, tmp_path: Path) -> None:
        broken = tmp_path / "broken.py"
        broken.write_text("import no_such_dependency\n")
        assert failure(f"{broken}:Bot").endswith(
            "failed to import: ModuleNotFoundError: No module named 'no_such_dependency'."
        )
        broken.write_text("def (:\n")
        assert "failed to import: SyntaxError: invalid syntax" in failure(f"{broken}:Bot")

    def test_no_such_class(self) -> None:
        assert (
            failure("strategies.builtin:Nope")
            == "'strategies.builtin' has no class 'Nope' (strategy 'strategies.builtin:Nope')."
        )

    def test_not_a_strategy(self) -> None:
        assert (
            failure("strategies.builtin:LOW_TILES")
            == "'LOW_TILES' in 'strategies.builtin' is not a subclass of strategies.Strategy."
        )
        assert (
            failure("strategies.base:Strategy")
            == "'Strategy' in 'strategies.base' does not define choose_move(self, view)."
        )

    def test_a_constructor_that_fails_says_its_message(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.chdir(ROOT)
        assert failure(f"{CAUTIOUS}(margin=-1)") == (
            f"strategy '{CAUTIOUS}(margin=-1)' could not be built: "
            "ValueError: margin must be a whole number, 0 or more, not -1."
        )

    def test_bad_parameters(self) -> None:
        assert failure("target(speed=3)") == (
            "strategy 'target(speed=3)' got bad parameters (got an unexpected keyword argument 'speed'); "
            "it takes: margin."
        )
        assert failure("greedy-high", depth=2).endswith("it takes: no parameters.")
        assert failure("target(margin=two)").startswith(
            "the parameters in 'target(margin=two)' are not of the form name=value"
        )
        assert failure("target(2)").startswith("the parameters in 'target(2)' are not")
        assert failure("target(margin=2)(margin=3)").startswith(
            "the parameters in 'target(margin=2)(margin=3)' are not"
        )
        assert failure("target(margin=2).h(x=1)").startswith("the parameters in")
        assert failure("  ") == "a strategy spec is empty; give a name such as 'greedy-high' or 'module:Class'."

    @pytest.mark.filterwarnings("ignore::strategies.names.StrategyNameClash")
    def test_two_strategies_with_the_same_name(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Entry points of packages with no name to qualify them by (strategies/test_plugins.py has named ones)."""
        installed = [
            EntryPoint("lucky", "first_pkg:Lucky", ENTRY_POINT_GROUP),
            EntryPoint("lucky", "second_pkg:Lucky", ENTRY_POINT_GROUP),
            EntryPoint("tips", "third_pkg:Tips", ENTRY_POINT_GROUP),
        ]
        monkeypatch.setattr(strategies.names, "declared", lambda: strategies.names.declared_by(installed))
        assert failure("lucky") == "2 installed strategies are named 'lucky'; uninstall one."
        assert load_strategy("tips").origin == "built-in"
        listed = {info.name: info for info in catalog()}
        assert "lucky" not in listed and listed["tips"].target == "strategies.builtin:Tips"


def test_the_catalogue_shows_nature_and_parameters() -> None:
    info = strategy_info("target")
    assert (info.nature, info.origin, info.target) == ("reads context", "built-in", "strategies.solved:Target")
    assert [(p.name, p.default, p.annotation) for p in info.parameters] == [("margin", 0, "int")]
    assert strategy_info("random").nature == "stochastic"
    assert strategy_info("optimal").nature == "exact"
    assert "analysed exactly" in strategy_info("tips").nature_in_full


@pytest.mark.slow
def test_an_installed_package_registers_its_strategy_by_entry_point(tmp_path: Path) -> None:
    """A real `pip install` of examples/shutbox-lucky into a throwaway environment, then the real command."""
    python = fresh_venv(tmp_path / "venv")
    pip_install(python, ROOT / "examples" / "shutbox-lucky", tmp_path / "shutbox-lucky")

    def shutbox(*arguments: str) -> str:
        done = subprocess.run(
            [python, "-m", "shutbox_cli", *arguments],
            capture_output=True,
            text=True,
            env={**os.environ, "COLUMNS": "100"},
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    listed = shutbox("strategies")
    assert re.search(r"^lucky +stochastic +Shuts the highest tile it can", listed, re.MULTILINE)
    assert "package shutbox-lucky 0.1.0 (shutbox_lucky:Lucky)" in shutbox("strategies", "lucky")
    assert "Method: simulation of 200 turns, seed 4" in shutbox("analyze", "lucky", "--turns", "200", "--seed", "4")


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Robo=optimal", ("Robo", "optimal")),
        ("target(margin=2)", (None, "target(margin=2)")),
        ("T2=target(margin=2)", ("T2", "target(margin=2)")),
        (" greedy-high ", (None, "greedy-high")),
        ("=optimal", (None, "=optimal")),
    ],
)
def test_name_equals_spec_names_a_strategy_and_a_bare_spec_does_not(text: str, named: tuple) -> None:
    assert strategies.loading.split_name(text) == named


def test_a_builtin_class_is_told_from_a_subclass_of_it() -> None:
    """A built-in strategy's table is made without re-seeding the global generators; a user's class
    derived from one is a user's strategy all the same."""
    from strategies.builtin import GreedyHigh
    from strategies.solved import Optimal

    class Mine(GreedyHigh):
        name = "mine"

    assert strategies.loading.builtin_class(GreedyHigh) and strategies.loading.builtin_class(Optimal)
    assert not strategies.loading.builtin_class(Mine)
    assert not strategies.loading.builtin_class(load_strategy(CAUTIOUS).cls)
