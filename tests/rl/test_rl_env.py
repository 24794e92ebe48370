"""The Gymnasium environment: Gymnasium's own checker passes under several rule variants, the
dice are shutbox's of the seed and game, the one-die rule fires, a bad setting is one sentence, an
illegal action is refused, and a field's strategy (a user's in its host) plays its seat's turns."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the rl extra is not installed (pip install '.[rl]')")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from shutbox_cli.game import Rules, RulesError, play_turn, turn_rolls  # noqa: E402
from strategies.loading import load_strategy  # noqa: E402
from strategies.player import StrategyPlayer  # noqa: E402
from tournaments import seat_strategy  # noqa: E402
from tournaments.rl import ENV_ID  # noqa: E402
from tournaments.rl.env import ShutTheBoxEnv  # noqa: E402

from helpers.rl_play import Policy, random_policy, table_policy  # noqa: E402

CAUTIOUS = f"{Path(__file__).resolve().parents[2] / 'examples' / 'cautious.py'}:Cautious"

VARIANTS: list[dict[str, Any]] = [
    {},
    {"tiles": 12},
    {"tiles": 10, "shut_rule": "dice-or-total", "scoring": "count"},
    {"tiles": 3, "shut_rule": "one-tile", "one_die_mode": "compulsory"},
    {"first_roll": "2-to-go", "scoring": "digits", "one_die": "low-sum"},
    {"rounds": 3, "ties": "playoff", "before": ("greedy-high",), "reward": "win"},
    {"drop_out": 45, "after": ("optimal", "tips"), "reward": "score", "shut_bonus": 10},
]


def play(
    env: ShutTheBoxEnv, policy: Policy, seed: int | None = None, game: int | None = None
) -> tuple[float, list[dict[str, int]], dict[str, Any]]:
    """One episode (game `game` of `seed`, else the next): its return, the observations it was
    shown (by field) and its last info."""
    observation, info = env.reset(seed=seed, options=None if game is None else {"game": game})
    seen, paid, over = [], 0.0, False
    while not over:
        seen.append(env.coded.describe(observation))
        observation, reward, over, truncated, info = env.step(policy(observation, info["action_mask"]))
        assert not truncated
        paid += float(reward)
    return paid, seen, info


@pytest.mark.parametrize("settings", VARIANTS, ids=lambda settings: ",".join(map(str, settings.values())) or "default")
def test_gymnasiums_checker_passes_without_a_warning(settings: dict[str, Any]) -> None:
    env = gymnasium.make(ENV_ID, **settings).unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env)
    returns = [play(env, random_policy(game), seed=game)[0] for game in range(20)]
    assert all(np.isfinite(returns))


def test_gymnasium_makes_it_by_name_under_the_rules_given() -> None:
    env = gymnasium.make(ENV_ID, tiles=12, one_die="off")
    assert env.unwrapped.rules == Rules(tiles=12, one_die="off")
    assert env.observation_space.shape == (12 + 6 + 9,)  # the box, the decision, the table and its eight features


def test_a_seed_and_game_deal_shutboxs_dice_of_that_seed_and_game() -> None:
    rules = Rules()
    env = ShutTheBoxEnv(rules)
    greedy = seat_strategy("greedy-high", rules)
    policy = table_policy(env.coded, greedy.table)
    first, seen, _ = play(env, policy, seed=11)
    assert (first, seen) == play(env, policy, seed=11)[:2] and env.game == 0
    assert first == -play_turn(rules, turn_rolls(11, 0, 0, 0), greedy.player()).score
    for game in (1, 2):  # each later reset plays the next game of the seed
        assert play(env, policy)[0] == -play_turn(rules, turn_rolls(11, game, 0, 0), greedy.player()).score
    assert env.game == 2
    assert play(env, policy, game=7)[0] == -play_turn(rules, turn_rolls(11, 7, 0, 0), greedy.player()).score


def test_the_one_die_rule_fires_and_rolls_one_die() -> None:
    env = ShutTheBoxEnv(Rules())
    coded = env.coded
    greedy = table_policy(coded, seat_strategy("greedy-high", Rules()).table)
    rolled_one = 0
    for game in range(40):
        observation, info = env.reset(seed=3, options={"game": game})
        over = False
        while not over:
            shown = coded.describe(observation)
            if shown["phase"] == 0 and info["action_mask"][coded.one_die]:
                assert shown["tile_7"] == shown["tile_8"] == shown["tile_9"] == 0
                assert info["action_mask"][coded.two_dice]  # optional: two dice stay allowed
                observation, _, over, _, info = env.step(coded.one_die)
                after = coded.describe(observation)
                rolled_one += 1
                if after["phase"] == 1:
                    assert after["die_2"] == 0 and after["roll"] == after["die_1"] <= 6
                continue
            assert not (
                shown["phase"] == 0 and (shown["tile_7"] or shown["tile_8"] or shown["tile_9"]) and shown["one_die"]
            )
            observation, _, over, _, info = env.step(greedy(observation, info["action_mask"]))
    assert rolled_one > 0


def test_an_illegal_action_is_refused_and_the_question_stands() -> None:
    env = ShutTheBoxEnv(Rules())
    observation, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    again, reward, over, _, info = env.step(illegal)
    assert info["illegal_action"] and reward == 0.0 and not over
    assert np.array_equal(again, observation)


@pytest.mark.parametrize("action", [10**6, 65, -1, 1.5, None, "3", np.float64(2.0)], ids=repr)
def test_an_action_outside_the_action_space_is_the_callers_error(action: object) -> None:
    env = ShutTheBoxEnv(Rules())
    observation, info = env.reset(seed=1)
    with pytest.raises(ValueError, match=r"^action .+ is outside the action space, the whole numbers from 0 to 64\.$"):
        env.step(action)  # type: ignore[arg-type]  # the caller's error, said in one sentence
    legal = int(np.flatnonzero(info["action_mask"])[0])
    again, _, _, _, info = env.step(np.int32(legal))  # the question stood: any integer type of the space answers it
    assert "illegal_action" not in info and not np.array_equal(again, observation)


def test_a_single_spec_is_one_strategy_and_a_sequence_several() -> None:
    env = gymnasium.make(ENV_ID, before="tips", after="optimal").unwrapped
    assert (env.me, env.table) == (1, 3)
    assert [env.field.seated[number].spec for number in (0, 2)] == ["tips", "optimal"]
    env = ShutTheBoxEnv(before=["greedy-high", "tips"], after=())
    assert (env.me, env.table) == (2, 3)
    assert [one.spec for one in env.field.seated.values()] == ["greedy-high", "tips"]


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"reward": "money"}, "reward must be one of 'score', 'shut', 'win', not 'money'."),
        ({"reward": "win", "shut_bonus": 5}, "shut_bonus is paid with reward=\"score\" only, not with reward='win'."),
        ({"tiles": 1}, "tiles must be a whole number from 2 to 12, not 1."),
        ({"rules": Rules(), "tiles": 12}, "give either a Rules object or rule options, not both."),
        ({"before": ("nosuch",)}, "no strategy named 'nosuch'; known names: greedy-high, random, fewest-tiles, "),
        ({"after": ("perfect", "optimal"), "rounds": 3}, "perfect play over several rounds or in drop-out is solved "),
        ({"before": ("tips", 3)}, "before must be a strategy spec or a sequence of specs, not ('tips', 3)."),
        ({"after": None}, "after must be a strategy spec or a sequence of specs, not None."),
        ({"timeout": -1}, "timeout must be a number of seconds above 0, not -1."),
        ({"timeout": 0}, "timeout must be a number of seconds above 0, not 0."),
        ({"timeout": float("nan")}, "timeout must be a number of seconds above 0, not nan."),
    ],
)
def test_a_bad_setting_is_said_in_one_sentence(settings: dict[str, Any], message: str) -> None:
    with pytest.raises((ValueError, RulesError)) as raised:
        ShutTheBoxEnv(**settings)
    said = str(raised.value)
    assert said == message or (message.endswith(" ") and said.startswith(message) and said.count(".") == 1)


@pytest.mark.slow
def test_a_users_strategy_plays_its_seat_in_its_host_as_it_plays_anywhere() -> None:
    rules = Rules()
    env = ShutTheBoxEnv(rules, before=(CAUTIOUS,), reward="win")
    try:
        assert not env.field.seated[0].builtin  # in a host of its own
        optimal = table_policy(env.coded, seat_strategy("optimal", rules).table)
        here = StrategyPlayer(load_strategy(CAUTIOUS, {}).make(), rules)
        for game in range(8):
            _, _, info = play(env, optimal, seed=5, game=game)
            turn = play_turn(rules, turn_rolls(5, game, 0, 0), here)
            assert info["totals"][0] == turn.score
            if turn.shut_box:  # it won at once: the agent's one step was a formality
                assert info["winners"] == (0,) and info["played"] is False
    finally:
        env.close()
