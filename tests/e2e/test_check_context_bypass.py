"""A strategy that declares it reads nothing is never handed the game: reaching past its view's
guard (View's own slots, `object.__getattribute__`, `gc.get_referents`) finds only a stand-in that
raises as `view.context` and `view.turn` do, so `check` fails it exactly as its honest twin, and a
tournament stops on it naming the same declaration. (First written by QA in s31, failing: `check`
took the host's word that such a strategy read nothing.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers.command import real_shutbox

pytestmark = pytest.mark.slow  # the real command, several times

SNEAK = """
import gc
import sys
import types

from strategies import Move, Strategy, View

PART, HOW = {part!r}, {how!r}


def _reached(view):
    if HOW == "view":
        return getattr(view, PART)
    if HOW == "slot":
        for klass in type(view).__mro__:
            slot = klass.__dict__.get(PART)
            if type(slot).__name__ == "member_descriptor":
                return slot.__get__(view, klass)
    if HOW == "getattribute":
        return object.__getattribute__(view, PART)
    if HOW == "referents":  # the slots' values, as the collector sees them: by slot name, in sorted order
        names = sorted(name for klass in type(view).__mro__ for name in klass.__dict__.get("__slots__", ()))
        values = [thing for thing in gc.get_referents(view) if not isinstance(thing, type)]
        return dict(zip(names, values))[PART]
    if HOW == "frames":  # the scores of a turn's context, as a host's frames may hold them
        frame = sys._getframe(1)
        while frame is not None:
            for value in list(frame.f_locals.values()):
                if type(value) is tuple and len(value) == 7 and type(value[4]) is tuple:
                    return types.SimpleNamespace(scores=value[4])
            frame = frame.f_back
    return None


class Sneak(Strategy):
    name = "sneak"
    stochastic = {stochastic}

    def choose_move(self, view: View) -> Move:
        reached = _reached(view)
        if PART == "turn":
            return min(view.legal_moves) if reached is not None and len(reached) else max(view.legal_moves)
        if reached is not None and any(score is not None for score in reached.scores):
            return min(view.legal_moves)
        return max(view.legal_moves)
"""

WAYS = ["slot", "getattribute", "referents"]


def _sneak(tmp_path: Path, part: str, how: str, stochastic: bool = False) -> str:
    folder = tmp_path / f"{part}_{how}_{stochastic}"
    folder.mkdir()
    path = folder / "sneak.py"  # each alike, but for the way it reads: its games are dealt alike
    path.write_text(SNEAK.format(part=part, how=how, stochastic=stochastic))
    return f"{path}:Sneak"


def _context_check(tmp_path: Path, spec: str) -> tuple[int, list[str], list[str]]:
    """The check's status, the checks failed, and the context check's first two lines."""
    done = real_shutbox("check", spec, "--samples", "30", "--format", "json", cwd=tmp_path)
    checks = json.loads(done.stdout)["check"]
    failed = [one["name"] for one in checks if not one["ok"]]
    context = next(one for one in checks if one["name"] == "context only if reads_context")
    return done.returncode, failed, context["detail"].splitlines()[:2]


@pytest.mark.parametrize("part", ["context", "turn"])
def test_a_strategy_reading_the_game_past_its_view_s_guard_fails_the_context_check_as_its_twin(
    tmp_path: Path, part: str
) -> None:
    status, failed, honest = _context_check(tmp_path, _sneak(tmp_path, part, "view"))
    assert (status, failed) == (1, ["context only if reads_context"])
    assert f"read view.{part} without declaring reads_context = True" in honest[1]
    for how in WAYS:
        assert _context_check(tmp_path, _sneak(tmp_path, part, how)) == (status, failed, honest), how


@pytest.mark.parametrize("stochastic", [False, True], ids=["tabulated", "asked every turn"])
def test_a_tournament_stops_on_a_strategy_reading_the_game_past_its_view_s_guard_as_on_its_twin(
    tmp_path: Path, stochastic: bool
) -> None:
    def first_line(how: str) -> tuple[int, str]:
        spec = _sneak(tmp_path, "context", how, stochastic)
        done = real_shutbox("tournament", "-s", spec, "-s", "tips", "-n", "200", "--seed", "1", "-q", cwd=tmp_path)
        return done.returncode, (done.stderr.splitlines() or [""])[0]

    honest = first_line("view")
    assert honest[0] == 1
    assert "'sneak' read view.context without declaring reads_context = True, with open tiles " in honest[1]
    for how in WAYS:
        assert first_line(how) == honest, how


def test_a_host_never_holds_the_game_of_a_strategy_that_reads_nothing(tmp_path: Path) -> None:
    """Walking its host's frames, a strategy that reads nothing of the game finds no score posted,
    even at a table with a strategy that reads the game (played turn by turn, not in bulk): it plays
    as its twin that looks nowhere, report for report."""

    def played(how: str) -> str:
        spec = _sneak(tmp_path, "context", how, stochastic=True)
        arguments = ["-s", spec, "-s", "target", "--rounds", "3", "-n", "100", "--seed", "1"]
        done = real_shutbox("tournament", *arguments, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert played("frames") == played("nowhere")
