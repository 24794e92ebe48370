"""What a view holds, as an attacker reaches it (the collector's referents of the view, and of
what it holds): the game only for a strategy that reads it, a keyed strategy's features alone for
a keyed one, and for any other strategy stand-ins that raise as `view.context` and `view.turn` do."""

from __future__ import annotations

import dataclasses
import gc
import itertools
from collections.abc import Callable

import pytest

from shutbox_cli.game import Roll, Rules, TurnContext, turn_rolls
from strategies import Move, Strategy, View
from strategies.answers import make_view
from strategies.base import Undeclared
from strategies.keys import FeaturesRead, KeyedContext
from strategies.player import StrategyPlayer

RULES = Rules(tiles=6)  # a choice of dice from the start: choose_dice is asked too
POSTED = TurnContext(player=1, seat=1, round=0, playoff=False, scores=(4, None), totals=(0, 0), active=(True, True))
"""A turn after the other player posted 4: what a strategy that reads nothing must not learn."""


def _dealt(game: int) -> bytes:
    """A turn's dice as a host is dealt them (outcome codes), as many as a turn can use."""
    pairs = itertools.islice(turn_rolls(1, game, 0, 1), RULES.tiles + 1)
    return bytes((first - 1) * 6 + second - 1 for first, second in pairs)


def _held(view: View) -> list[object]:
    """What the view holds, and what that holds in turn, as the collector sees it (types left out)."""
    found = [thing for thing in gc.get_referents(view) if not isinstance(thing, type)]
    return found + [inner for thing in found for inner in gc.get_referents(thing) if not isinstance(inner, type)]


def _game(held: list[object]) -> list[object]:
    return [thing for thing in held if isinstance(thing, (TurnContext, Roll))]


class Looks(Strategy):
    """Plays the first legal move and keeps what each view it is shown holds; stochastic, so it is
    asked every time (never tabulated)."""

    name = "looks"
    stochastic = True

    def __init__(self) -> None:
        self.held: list[list[object]] = []

    def choose_dice(self, view: View) -> int:
        self.held.append(_held(view))
        return 2

    def choose_move(self, view: View) -> Move:
        self.held.append(_held(view))
        return view.legal_moves[0]


class KeyedLooks(Looks):
    key = ("to_beat",)


class ReadingLooks(Looks):
    reads_context = True


def _hosts_turns(cls: type[Looks]) -> list[list[object]]:
    """What the views of a host's turns (`answer_turns`, the fast path) held, over ten games."""
    strategy = cls()
    turns = [(dataclasses.astuple(POSTED), 1, game, _dealt(game)) for game in range(10)]
    StrategyPlayer(strategy, RULES).answer_turns(turns, [], [])
    assert len(strategy.held) > 10
    return strategy.held


def _asked(cls: type[Looks]) -> list[list[object]]:
    """What the view of one question asked through `make_view` (the check's, the general engine's) held."""
    strategy = cls()
    context = POSTED if cls.key is None else KeyedContext(cls.key, (4,))
    history = (Roll((1, 2), 0b100),)
    strategy.choose_move(make_view(strategy, RULES, 0b111011, (1, 2), (0b11, 0b100), history, context))
    return strategy.held


Shown = Callable[[type[Looks]], list[list[object]]]
"""How a view is shown: `_hosts_turns` or `_asked`, what each view held."""
SHOWN = pytest.mark.parametrize("shown", [_hosts_turns, _asked], ids=["a host's turns", "asked"])


@SHOWN
def test_a_strategy_that_reads_nothing_holds_nothing_of_the_game_but_stand_ins_that_raise(shown: Shown) -> None:
    assert all(_game(held) for held in shown(ReadingLooks))  # the game is found where it is shown
    for held in shown(Looks):
        assert not _game(held)
        stand_ins = [thing for thing in held if type(thing).__name__ == "_Hidden"]
        assert len(stand_ins) == 2
        for stand_in, part in zip(stand_ins, ("context", "turn"), strict=True):
            with pytest.raises(Undeclared, match=rf"read view\.{part} without declaring reads_context = True"):
                len(stand_in)  # type: ignore[arg-type]
            with pytest.raises(Undeclared, match=rf"read view\.{part} without declaring reads_context = True"):
                object.__getattribute__(stand_in, "__class__").__getattribute__(stand_in, "scores")


@SHOWN
def test_a_keyed_strategy_holds_its_key_s_features_alone(shown: Shown) -> None:
    for held in shown(KeyedLooks):
        assert not _game(held)
        (context,) = [thing for thing in held if isinstance(thing, KeyedContext)]
        assert [thing for thing in gc.get_referents(context) if isinstance(thing, dict)] == [{"to_beat": 4}]


def test_the_context_noting_what_a_check_s_strategy_reads_holds_its_features_not_the_game() -> None:
    noted = FeaturesRead().of(POSTED)
    assert not [thing for thing in gc.get_referents(noted) if isinstance(thing, TurnContext)]
    assert (noted.score_to_beat, noted.to_come) == (4, 0)
    with pytest.raises(Undeclared, match=r"read view\.context\.scores without declaring reads_context = True"):
        noted.scores  # noqa: B018
    assert (noted.fitting_key(), noted.renamed) == (None, {"score_to_beat"})
