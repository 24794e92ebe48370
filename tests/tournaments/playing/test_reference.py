"""A game-by-game unit plays its games side by side, one seat of one round of every game per step:
the tallies and the failure a run stops on are exactly those of playing the games one after
another, and a strategy in its host is asked once per step for all its turns in it, not once per turn."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutbox_cli.game import GameRecord, Rules
from tournaments import Options, load_config
from tournaments.errors import TournamentFailure
from tournaments.playing.plan import Plan, WorkUnit, make_plan
from tournaments.playing.units import UnitPlayer
from tournaments.referee.isolation import Host
from tournaments.referee.wire import TurnsAsked

from helpers.paths import DATA, EXAMPLES, HOSTILE

FIELD = ("target", "random", "optimal", "greedy-high", f"{EXAMPLES}/cautious.py:Cautious")
"""Built-in and users' strategies in this process: a context reader, a stochastic one, exact ones."""
FAILS_LATE = f"{HOSTILE}/fails_late.py:FailsLate"


def game_units(plan: Plan) -> Iterator[WorkUnit]:
    return (unit for unit in plan.units() if not unit.bulk)


def failure(play: UnitPlayer, unit: WorkUnit, lockstep: bool) -> str:
    with pytest.raises(TournamentFailure) as raised:
        play.play(unit) if lockstep else play.one_after_another(unit)
    return str(raised.value)


@pytest.mark.slow
@settings(max_examples=12, derandomize=True)
@given(
    rules=st.from_type(Rules),
    table=st.integers(1, 4),
    duplicate=st.booleans(),
    bulk=st.booleans(),
    field=st.lists(st.sampled_from(FIELD), min_size=4, max_size=5, unique=True),
    seed=st.integers(0, 2**40),
)
def test_side_by_side_gives_the_tallies_of_playing_the_games_one_after_another(
    rules: Rules, table: int, duplicate: bool, bulk: bool, field: list[str], seed: int
) -> None:
    options = Options(strategies=field, games=24, table=table, seed=seed, duplicate=duplicate, rules=rules.to_mapping())
    plan = make_plan(load_config(None, options), bulk=bulk)
    lockstep, alone = UnitPlayer(plan), UnitPlayer(plan)
    for unit in game_units(plan):
        assert lockstep.play(unit) == alone.one_after_another(unit)


@pytest.mark.slow  # each case starts two hosts: about 0.6 s of processor time, theirs with the test's
@pytest.mark.parametrize(("seed", "table"), [(1, 2), (2, 2), (6, 3), (6, 4)])
def test_the_failure_is_the_first_game_to_fail_as_one_after_another(seed: int, table: int) -> None:
    """FailsLate fails in round 2 of every game that lasts that long, and in round 0 of a game
    with a double six: played side by side, a later game's round 0 comes before an earlier game's
    round 2, yet the run stops on the earlier game, as it did one game after another."""
    field = [FAILS_LATE, "greedy-high", "random", "tips"][:table]
    options = Options(strategies=field, games=200, table=table, seed=seed, rules={"drop_out": 45})
    plan = make_plan(load_config(None, options))
    (unit, *_) = game_units(plan)
    said = failure(UnitPlayer(plan), unit, lockstep=True)
    assert said == failure(UnitPlayer(plan), unit, lockstep=False)
    assert "'fails-late'" in said and "ZeroDivisionError: no luck in round" in said


def turn_steps(record: GameRecord, player: int) -> set[tuple[int, int]]:
    """The steps (round, seat) at which the player takes a turn in a game."""
    seat = record.order.index(player)
    return {(game_round.number, seat) for game_round in record.rounds if game_round.turns[player]}


def hosted(*field: str, **rules: int) -> UnitPlayer:
    """A unit player whose users' strategies are in hosts of their own."""
    options = Options(strategies=field, games=200, seed=1, isolate=True, rules=rules)
    return UnitPlayer(make_plan(load_config(None, options)))


def stop(player: UnitPlayer) -> None:
    for loaded in player.loaded:
        if isinstance(loaded, Host):
            loaded.stop()


@pytest.mark.slow
def test_a_strategy_in_its_host_is_asked_once_a_step_for_all_its_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    player = hosted(f"{HOSTILE}/fails_late.py:Reader", "greedy-high")
    try:
        (host,) = [loaded for loaded in player.loaded if isinstance(loaded, Host)]
        asked: list[object] = []
        send = host.connection.send

        def counted(request: object) -> None:
            asked.append(request)
            send(request)

        plan = player.plan
        (unit, *_) = game_units(plan)
        matchup = plan.matchups[unit.matchups[0]]
        seats = [player._seat(strategy) for strategy in matchup.players]
        records = [player.play_game(matchup, slot, seats) for slot in plan.games(unit)]
        monkeypatch.setattr(host.connection, "send", counted)
        player.play(unit)
    finally:
        stop(player)
    trips = sum(isinstance(request, TurnsAsked) for request in asked)
    assert trips == len(set().union(*(turn_steps(record, 0) for record in records)))
    assert sum(len(turn_steps(record, 0)) for record in records) >= 50 * trips


@pytest.mark.slow
def test_a_strategy_in_its_host_fails_where_it_did_one_game_after_another() -> None:
    lockstep, alone = hosted(FAILS_LATE, "greedy-high", drop_out=45), hosted(FAILS_LATE, "greedy-high", drop_out=45)
    try:
        (unit, *_) = game_units(lockstep.plan)
        said = failure(lockstep, unit, lockstep=True)
        assert said == failure(alone, unit, lockstep=False)
    finally:
        stop(lockstep)
        stop(alone)
    assert "'fails-late'" in said and "ZeroDivisionError: no luck in round" in said


@pytest.mark.slow
def test_a_strategy_meets_its_turns_round_by_round_seat_by_seat_the_games_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What docs/tournaments.md ("Speed") promises a strategy that keeps state between questions."""
    player = hosted(f"{HOSTILE}/fails_late.py:Reader", "greedy-high", drop_out=60)
    try:
        (host,) = [loaded for loaded in player.loaded if isinstance(loaded, Host)]
        asked: list[TurnsAsked] = []
        send = host.connection.send

        def counted(request: object) -> None:
            if isinstance(request, TurnsAsked):
                asked.append(request)
            send(request)

        monkeypatch.setattr(host.connection, "send", counted)
        (unit, *_) = game_units(player.plan)
        player.play(unit)
    finally:
        stop(player)
    steps = [{(fields[2], fields[1]) for fields in request.contexts} for request in asked]
    assert all(len(step) == 1 for step in steps)
    order = [step.pop() for step in steps]
    assert order == sorted(set(order)) and max(order)[0] >= 2
    for request in asked:
        assert request.games == sorted(set(request.games))


@pytest.mark.slow  # a solver's policies (target's) for every context met
@pytest.mark.parametrize(("table", "duplicate"), [(2, True), (3, False)])
def test_the_array_engine_plays_a_game_by_game_unit_as_the_reference_one_game_after_another(
    table: int, duplicate: bool
) -> None:
    """Each kind of seat in one unit: a context reader and a stochastic strategy asked with their
    context, an exact one from its table, a solver's policy (target) from the policy's table."""
    field = [f"{DATA}/context_reader.py:Reader", "random", "optimal", "target"][: table + 1]
    options = Options(strategies=field, games=12, table=table, seed=5, duplicate=duplicate, rules={"rounds": 2})
    plan = make_plan(load_config(None, options))
    units = list(game_units(plan))
    assert units
    arrays, reference = UnitPlayer(plan), UnitPlayer(plan)
    for unit in units:
        assert arrays.play(unit) == reference.one_after_another(unit)
