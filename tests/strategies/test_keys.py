"""Keyed strategies: a key declares the features of the game a strategy's decisions depend on;
it is shown those alone, a wrong declaration is refused, and `check` holds it to its key."""

from __future__ import annotations

import subprocess

import pytest

from shutbox_cli.game import Rules, TurnContext
from strategies import Strategy, View, check
from strategies.answers import make_view
from strategies.base import Undeclared
from strategies.keys import FEATURES, keyed_context
from strategies.loading import StrategyLoadError, build, check_class

from helpers.command import real_shutbox
from helpers.paths import ROOT

CONTEXT = TurnContext(1, 1, 0, False, (12, None, None), (0, 0, 0), (True, True, True))


class Chasing(Strategy):
    name = "chasing"
    key = ("to_beat", "to_come")

    def choose_move(self, view: View) -> tuple[int, ...]:
        return view.legal_moves[0 if view.context.to_beat is None else -1]


def view_of(strategy: Strategy) -> View:
    context = keyed_context(CONTEXT, ("to_beat", "to_come"))
    return make_view(strategy, Rules(), 0b111111111, (3, 4), (0b1000000, 0b1001, 0b110), (), context)


def test_a_keyed_strategy_is_shown_its_features_and_nothing_else() -> None:
    view = view_of(Chasing())
    assert (view.context.to_beat, view.context.to_come) == (12, 1)
    with pytest.raises(Undeclared, match=r'read view.context.round without declaring key = \(\.\.\., "round"\)'):
        view.context.round  # noqa: B018
    with pytest.raises(Undeclared, match=r"view\.turn"):
        view.turn  # noqa: B018


@pytest.mark.parametrize(
    ("key", "said"),
    [
        (("score_to_beat",), "each one of seat, round"),
        ("to_beat", None),  # one feature may be given bare
        (("to_beat", "to_beat"), "names a feature twice"),
        ((), "a key is a tuple of feature names"),
    ],
)
def test_a_key_must_name_known_features(key: object, said: str | None) -> None:
    cls = type("Keyed", (Chasing,), {"key": key})
    if said is None:
        check_class(cls, "keyed")
        return
    with pytest.raises(StrategyLoadError, match=said):
        check_class(cls, "keyed")


def test_a_stochastic_strategy_cannot_declare_a_key() -> None:
    cls = type("Lucky", (Chasing,), {"stochastic": True})
    with pytest.raises(StrategyLoadError, match="stochastic: it cannot declare a key"):
        check_class(cls, "lucky")


def test_check_holds_a_keyed_strategy_to_its_key() -> None:
    assert check.check_strategy(Chasing, samples=8).ok
    assert build(Chasing, {}, "chasing").tabulable() is False


@pytest.mark.slow
@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("tests/data/keyed_liars.py:Peeker", "read the game outside its key"),
        ("tests/data/keyed_liars.py:Hoarder", "different answers to one question with the same key"),
    ],
)
def test_shutbox_check_catches_a_lying_key(spec: str, said: str) -> None:
    done = real_shutbox("check", spec, columns=400)
    assert done.returncode == 1
    line = next(line for line in done.stdout.splitlines() if line.startswith(check.CONTEXT))
    assert "FAIL" in line and said in line


@pytest.mark.slow
def test_shutbox_check_passes_the_keyed_example() -> None:
    done: subprocess.CompletedProcess[str] = real_shutbox("check", "examples/chaser.py:Chaser", columns=400)
    assert done.returncode == 0, done.stdout
    assert "read only its key's features" in done.stdout


def test_the_strategies_guide_shows_the_keyed_example_and_every_feature() -> None:
    guide = (ROOT / "docs" / "strategies.md").read_text()
    example = (ROOT / "examples" / "chaser.py").read_text()
    shown = example[example.index("from strategies import") :]
    assert shown in guide
    for feature in FEATURES:
        assert f"| `{feature}` |" in guide


def test_shutbox_strategies_says_what_a_keyed_strategy_reads() -> None:
    from strategies.catalog import strategy_info

    nature = strategy_info("examples/chaser.py:Chaser").nature_in_full
    assert nature.startswith("deterministic, reads only to_beat of the game (its key)")
    assert "a table per key" in nature
