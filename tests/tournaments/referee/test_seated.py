"""Seated strategies (`tournaments.seat_strategy`): a built-in one plays in this process, a user's
in a host of its own, with one face; what a host sends back (a table, a turn's answers, a check's
answers) is checked here, and a host that forges it, dies or exits is its strategy's failure."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from shutbox_cli.game import Rules, play_turn, turn_rolls
from strategies.base import SOLO_CONTEXT
from strategies.check import TIME, check_strategy
from strategies.loading import load_strategy
from strategies.player import StrategyPlayer
from tournaments import TournamentFailure, seat_strategy
from tournaments.referee.remote import RemotePlayer
from tournaments.referee.replies import RemoteFailure

from helpers.paths import ROOT

pytestmark = pytest.mark.slow  # every test starts a host

CAUTIOUS = f"{ROOT / 'tests' / 'golden' / 'cautious.py'}:Cautious(margin=4)"

STRATEGIES = """import os

import tournaments.referee.host as host
from strategies import Strategy


class Fails(Strategy):
    \"\"\"Answers until five tiles are left, then raises.\"\"\"

    name = "fails"
    reads_context = True

    def choose_move(self, view):
        if len(view.open_tiles) <= 5:
            raise RuntimeError("lost count")
        return view.legal_moves[0]


class Plays(Strategy):
    name = "plays"

    def choose_move(self, view):
        return view.legal_moves[0]


class Forges(Plays):
    \"\"\"Has its host forge what a check asks (FORGE_CHECKS says what): an answer of no move at
    all given as legal, a failure for want of a declaration no one asks for, an answer to another
    question, or its declarations.\"\"\"

    name = "forges"


class ExitsInCheck(Plays):
    name = "exits-in-check"

    def choose_move(self, view):
        if len(view.open_tiles) <= 6:
            os._exit(0)
        return view.legal_moves[0]


def _forged(self, request):
    return host.Answered(request.order[0], 0, 0.0)


def _forged_declarations(self, request):
    return host.Declared(False, False, False, [None] * len(self.questions(request.seed, request.samples)))


def _forged_failure(self, request):
    return host.Answered(request.order[0], ("a failure", "made_up = True", True, None, []), 0.0)


def _forged_features(self, request):
    return host.Answered(request.order[0], ("a failure", "reads_context = True", True, ["cards"], []), 0.0)


def _late(self, request):
    return host.Answered(request.order[0] + 1, 0, 0.0)


FORGED = {"answer": _forged, "failure": _forged_failure, "features": _forged_features, "order": _late}
if os.environ.get("FORGE_CHECKS") == "declarations":
    host._Host.declared = _forged_declarations
elif os.environ.get("FORGE_CHECKS"):
    host._Host.check_answers = FORGED[os.environ["FORGE_CHECKS"]]
"""


@pytest.fixture
def strategies(tmp_path: Path) -> Path:
    path = tmp_path / "seated_strategies.py"
    path.write_text(STRATEGIES)
    return path


def test_a_built_in_plays_here_and_a_users_strategy_in_its_host_with_one_face() -> None:
    rules = Rules(tiles=10)
    with seat_strategy("tips", rules) as tips, seat_strategy(CAUTIOUS, rules) as cautious:
        assert (tips.builtin, type(tips.player())) == (True, StrategyPlayer)
        assert (cautious.builtin, type(cautious.player())) == (False, RemotePlayer)
        assert (cautious.name, cautious.params, cautious.exact, cautious.context_free) == (
            "cautious(margin=4)",
            {"margin": 4},
            True,
            True,
        )
        assert cautious.description.startswith("Leaves the most dice totals still playable")
        loaded = load_strategy(CAUTIOUS)
        here = StrategyPlayer(loaded.make(), rules, loaded.name).policy
        assert cautious.table.next_mask == here.next_mask and cautious.table.dice == here.dice


def test_a_hosted_check_finds_what_a_check_in_process_finds() -> None:
    loaded = load_strategy(CAUTIOUS)
    here = check_strategy(loaded.cls, loaded.params, name=loaded.name, seed=3, samples=4)
    told: list[tuple[int, int]] = []
    with seat_strategy(CAUTIOUS, Rules()) as seated:
        hosted = seated.check(3, 4, lambda done, total: told.append((done, total)))
    assert (hosted.strategy, hosted.seed, hosted.rule_sets, hosted.questions) == (
        here.strategy,
        here.seed,
        here.rule_sets,
        here.questions,
    )
    untimed = [result for result in here.results if result.name != TIME]
    assert [result for result in hosted.results if result.name != TIME] == untimed
    assert told[-1][0] == told[-1][1] and len(told) == told[-1][1]


@pytest.mark.parametrize(
    ("forged", "said"),
    [
        ("answer", "an illegal answer given for a legal one (open tiles"),
        ("failure", "a failed answer missing a declaration the engine never asks for"),
        ("features", "a failed answer reading features the game does not have"),
        ("order", "a check's answer out of order"),
        ("declarations", "declarations other than those it loaded with"),
    ],
)
def test_a_host_that_forges_what_a_check_asks_answers_garbage(
    strategies: Path, monkeypatch: pytest.MonkeyPatch, forged: str, said: str
) -> None:
    """The referee judges every answer against its own copy of the question, and holds the
    declarations a check is told to those the strategy loaded with (exact: tabulable)."""
    monkeypatch.setenv("FORGE_CHECKS", forged)
    with seat_strategy(f"{strategies}:Forges", Rules()) as seated, pytest.raises(RemoteFailure) as failed:
        seated.check(0, 2)
    assert f"the process of strategy 'forges' answered garbage ({said}" in str(failed.value)


def test_a_host_that_exits_with_status_0_during_a_check_fails_it(strategies: Path) -> None:
    with seat_strategy(f"{strategies}:ExitsInCheck", Rules()) as seated, pytest.raises(RemoteFailure) as failed:
        seated.check(0, 5)
    assert "the process of strategy 'exits-in-check' ended with status 0" in str(failed.value)


def test_a_host_that_hangs_as_it_loads_is_the_strategys_failure(tmp_path: Path) -> None:
    (tmp_path / "hangs.py").write_text("while True:\n    try:\n        pass\n    except BaseException:\n        pass\n")
    with pytest.raises(TournamentFailure, match=r"did not answer while loading strategy '.*hangs.py:Plays' within 1"):
        seat_strategy(f"{tmp_path / 'hangs.py'}:Plays", Rules(), timeout=1)


def test_a_turn_that_fails_midway_fails_at_the_question_after_the_answers_given(strategies: Path) -> None:
    rules = Rules()
    here = StrategyPlayer(load_strategy(f"{strategies}:Fails").make(), rules)
    with seat_strategy(f"{strategies}:Fails", rules) as seated:
        there = seated.player()
        for player in (here, there):
            asked: list[int] = []
            player.start_turn(SOLO_CONTEXT, 8, 0)
            recorder = Recorder(player, asked)
            with pytest.raises(Exception, match="lost count"):
                play_turn(rules, turn_rolls(8, 0, 0, 0), recorder)
            if player is here:
                expected = asked
            else:
                assert asked == expected and len(asked) > 1


def test_each_turn_a_seated_host_plays_has_a_time_limit_of_its_own() -> None:
    """A turn asked of a seated user's strategy (`play --computer`, `replay`) gets `timeout`
    seconds of its own, whatever time has passed since the host was last asked anything."""
    rules = Rules(tiles=10)
    here = StrategyPlayer(load_strategy(CAUTIOUS).make(), rules)
    with seat_strategy(CAUTIOUS, rules) as seated:
        there = seated.player()
        assert isinstance(there, RemotePlayer)
        there.host.deadline = time.monotonic() - 1  # the time limit of the request that made the player, long past
        asked: tuple[list[int], list[int]] = ([], [])
        for player, answers in zip((here, there), asked, strict=True):
            player.start_turn(SOLO_CONTEXT, 8, 0)
            play_turn(rules, turn_rolls(8, 0, 0, 0), Recorder(player, answers))
        assert asked[1] == asked[0] and asked[0]


class Recorder:
    """A player whose answers are noted as they come."""

    def __init__(self, player: StrategyPlayer | RemotePlayer, asked: list[int]) -> None:
        self.player, self.asked = player, asked

    def choose_dice(self, open_mask: int, history: object = ()) -> int:
        self.asked.append(self.player.choose_dice(open_mask))
        return self.asked[-1]

    def choose_move(self, open_mask: int, dice: tuple[int, ...], moves: tuple[int, ...], history: object = ()) -> int:
        self.asked.append(self.player.choose_move(open_mask, dice, moves))
        return self.asked[-1]
