"""The PettingZoo AEC environment: PettingZoo's own API test passes at tables of two to four under
several rule variants, and a table of agents answering from optimal's table plays, game by game,
the game shutbox plays with optimal in every seat on the same dice (rounds, drop-out, playoffs,
the first seat): the same totals, the same winners, each paid its share of the win."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the rl extra is not installed (pip install '.[rl]')")

from pettingzoo.test import api_test

from shutbox_cli.game import Rules, TurnContext, TurnRecord, play_game, play_turn, turn_rolls
from tournaments import seat_strategy
from tournaments.rl.multi import ShutTheBoxAEC

from helpers.rl_play import table_policy

SEED = 77
TABLES: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3, "rounds": 3, "ties": "playoff"},
    {"players": 4, "drop_out": 45, "tiles": 10},
    {"players": 2, "rounds": 2, "instant_win": True, "reward": "score", "shut_bonus": 5},
    {"players": 3, "ties": "seat", "shut_rule": "dice-or-total", "reward": "shut"},
]


# PettingZoo suggests an array: the dict of an observation and its action mask is the form of its own classic games.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize("settings", TABLES, ids=lambda settings: ",".join(map(str, settings.values())))
def test_pettingzoos_api_test_passes(settings: dict[str, Any]) -> None:
    api_test(ShutTheBoxAEC(**settings), num_cycles=300)


@pytest.mark.parametrize("settings", TABLES[:3], ids=lambda settings: ",".join(map(str, settings.values())))
def test_a_table_of_optimal_agents_plays_shutboxs_own_game(settings: dict[str, Any]) -> None:
    options = dict(settings)
    players = options.pop("players")
    rules = Rules(**options)
    env = ShutTheBoxAEC(rules, players=players)
    optimal = seat_strategy("optimal", rules)
    policy = table_policy(env.coded, optimal.table)
    here = optimal.player()
    for game in range(40):
        first = game % players
        env.reset(seed=SEED, options={"game": game, "first_seat": first})
        paid = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            observed, reward, over, truncated, info = env.last()
            paid[agent] += reward
            env.step(None if over or truncated else policy(observed["observation"], observed["action_mask"]))

        def turn(context: TurnContext, game: int = game) -> TurnRecord:
            return play_turn(rules, turn_rolls(SEED, game, context.round, context.seat), here)

        record = play_game(rules, players, turn, first)
        assert info["totals"] == record.totals
        assert info["winners"] == tuple(f"player_{number}" for number in record.winners)
        shares = [1 / len(record.winners) if number in record.winners else 0.0 for number in range(players)]
        assert list(paid.values()) == shares


def test_a_table_of_one_is_the_gymnasium_environments() -> None:
    with pytest.raises(ValueError, match=r"^players must be a whole number of at least 2, not 1\.$"):
        ShutTheBoxAEC(players=1)


def test_only_the_agent_deciding_is_offered_actions() -> None:
    env = ShutTheBoxAEC(players=3)
    env.reset(seed=SEED)
    deciding = env.agent_selection
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.any() == (agent == deciding)
    seen = env.coded.describe(env.observe(deciding)["observation"])
    assert (seen["players"], seen["seat"], seen["to_come"]) == (3, 0, 2)
    assert np.array_equal(env.observe("player_2")["observation"][:9], np.ones(9))


@pytest.mark.parametrize("action", [10**6, -1, 1.5, None], ids=repr)
def test_an_action_outside_the_action_space_is_the_callers_error(action: object) -> None:
    env = ShutTheBoxAEC(players=2)
    env.reset(seed=SEED)
    deciding, observed = env.agent_selection, env.observe(env.agent_selection)
    with pytest.raises(ValueError, match=r"^action .+ is outside the action space, the whole numbers from 0 to 64\.$"):
        env.step(action)  # type: ignore[arg-type]  # the caller's error, said in one sentence
    assert env.agent_selection == deciding and np.array_equal(
        env.observe(deciding)["observation"], observed["observation"]
    )
    illegal = int(np.flatnonzero(observed["action_mask"] == 0)[0])
    env.step(illegal)  # in range but not allowed: refused, the question stands
    assert env.infos[deciding] == {"illegal_action": True} and env.agent_selection == deciding
