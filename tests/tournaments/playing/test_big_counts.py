"""Counts at the extremes the settings allow: digit scores of the biggest boxes, the most rounds,
drop-out limits as high as they go, and a bulk unit's most games. Every engine's tallies must be
the plain Python-int sums, never wrapped at 64 bits (a wrapped sum of squares made a score's
interval too narrow, or its variance negative)."""

from __future__ import annotations

import pickle

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutbox_cli.game import Rules, kernel, score
from shutbox_cli.game.rules import MAX_ROUNDS
from tournaments import Options, load_config
from tournaments.playing.bulk import BulkUnit, StrategyTurns
from tournaments.playing.compiled import KEPT_ROUNDS, CompiledUnits
from tournaments.playing.plan import BULK_UNIT_GAMES, Plan, make_plan
from tournaments.playing.tally import Tally
from tournaments.playing.units import UnitResult

BUDGET = 200_000
"""The most turns (games times rounds) one example plays, so that the most rounds go with few games."""


def plan_of(rules: Rules, table: int, games: int) -> Plan:
    """One bulk unit holding `games` games of the field's one matchup (a unit's most: BULK_UNIT_GAMES)."""
    field = [f"P{n}=random" for n in range(table)]  # context-free, not exact: each turn is the one handed in
    return make_plan(
        load_config(None, Options(strategies=field, games=games, table=table, seed=1, rules=rules.to_mapping()))
    )


def by_round(masks: list[int]) -> StrategyTurns:
    """Every turn of round r ends with `masks[r % len(masks)]` open, whoever plays it."""

    def turns(index: int, seat: int, round_: int, games: npt.NDArray[np.int64]) -> npt.NDArray[np.int16]:
        return np.full(games.size, masks[round_ % len(masks)], dtype=np.int16)

    return turns


def expected(rules: Rules, masks: list[int], games: int) -> dict[str, int]:
    """A player's counts over `games` games where every seat leaves `masks[r % len]` open in round r
    (never a shut box), in plain Python ints: every seat plays every round, or in a drop-out game
    until its total reaches the limit (all seats at once)."""
    scores = [score(rules, mask) for mask in masks]
    played, total, squares = 0, 0, 0
    while (rules.drop_out is None and played < rules.rounds) or (rules.drop_out is not None and total < rules.drop_out):
        got = scores[played % len(scores)]
        played, total, squares = played + 1, total + got, squares + got * got
    return {
        "turns": games * played,
        "score_sum": games * total,
        "score_squares": games * squares,
        "total_sum": games * total,
        "played": games,
    }


def counted(tallies: dict[int, list[Tally]]) -> list[dict[str, int]]:
    return [
        {name: getattr(tally, name) for name in ("turns", "score_sum", "score_squares", "total_sum", "played")}
        for players in tallies.values()
        for tally in players
    ]


@st.composite
def extremes(draw: st.DrawFn) -> tuple[Rules, int, list[int], int]:
    """Digit scores of a big box over the most rounds or to the highest drop-out limits, with as
    many games as a unit holds where the example stays cheap (BUDGET)."""
    tiles = draw(st.sampled_from([9, 10, 12]))
    full = (1 << tiles) - 1
    top = Rules(tiles=tiles, scoring="digits").scoring.of(range(1, tiles + 1))
    if draw(st.booleans()):
        masks = draw(st.lists(st.sampled_from([full, full, full >> 1, 1 << (tiles - 1), 1]), min_size=1, max_size=3))
        rounds = draw(st.sampled_from([2, 3, MAX_ROUNDS]))
        rules = Rules(tiles=tiles, scoring="digits", rounds=rounds, instant_win=False)
        played = rounds
    else:  # every turn at the top score, so that even the highest limit takes at most MAX_ROUNDS rounds
        masks = [full]
        limit = draw(st.sampled_from([MAX_ROUNDS * top, MAX_ROUNDS * top // 2 + 1, 3 * top]))
        rules = Rules(tiles=tiles, scoring="digits", drop_out=limit, instant_win=False)
        played = -(-limit // top)
    table = draw(st.integers(1, 3))
    games = min(BULK_UNIT_GAMES, max(table, BUDGET // played))
    return rules, table, masks, games


def test_a_unit_sums_digit_scores_squared_beyond_64_bits() -> None:
    # 9 tiles, digits, 3 rounds: a turn scores up to 123,456,789, squared 1.5e16; 16,384 games
    # of 3 such turns add up to 7.5e20 (the numpy engine wrapped it at 2^63).
    rules = Rules(tiles=9, scoring="digits", rounds=3, instant_win=False)
    plan = plan_of(rules, 2, BULK_UNIT_GAMES)
    (unit,) = plan.units()
    masks = [rules.full_box]
    found = BulkUnit(plan, unit, by_round(masks)).play()
    assert counted(found) == [expected(rules, masks, BULK_UNIT_GAMES)] * 2


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(case=extremes())
def test_every_engine_counts_the_extremes_as_python_ints_do(case: tuple[Rules, int, list[int], int]) -> None:
    rules, table, masks, games = case
    plan = plan_of(rules, table, games)
    turns = by_round(masks)
    for unit in plan.units():
        want = [expected(rules, masks, unit.deals * table)] * table
        assert counted(BulkUnit(plan, unit, turns).play()) == want
        compiled = CompiledUnits(plan, pytest.fail, turns, pytest.fail)
        # Past its kept rounds the kernel asks for a handed-in turn round after round, replaying
        # the game each time: the most rounds would take minutes (their counts are bounded alike).
        if kernel.available() and compiled.fits(unit) and want[0]["turns"] <= KEPT_ROUNDS * unit.deals * table:
            assert counted(compiled.play(unit)) == want


def test_a_units_counts_beyond_64_bits_cross_between_processes_whole() -> None:
    seats = {"ahead": [0, 1], "tied": [0, 0], "pairs": [0, 0, 1, 0, 0]}
    tallies = {0: [Tally(games=2, score_squares=2**80 + 1, **seats), Tally(games=2, score_squares=2**63, **seats)]}
    back = pickle.loads(pickle.dumps(UnitResult(tallies, 2, 0)))
    assert back.tallies == tallies
