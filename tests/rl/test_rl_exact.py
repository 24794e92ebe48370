"""The Gymnasium environment judged by shutbox's exact figures. Optimal play fed through it (its
table's answers, read from the observations alone) scores game by game what shutbox's own play of
the same seeds scores, and so reaches optimal's exact mean; uniformly random legal actions reach
`random`'s exact mean; optimal's share of the win against a field seated before or after it is the
exact win chance `shutbox analyze optimal --against greedy-high` gives. Each mean is held to an
interval of 3.29 standard errors (99.9%) about the exact figure, at a fixed seed."""

from __future__ import annotations

import math
import statistics
from typing import Any

import pytest

pytest.importorskip("gymnasium", reason="the rl extra is not installed (pip install '.[rl]')")

from shutbox_cli.game import Rules, TurnContext, play_game, play_turn, turn_rolls
from tournaments import analyze, duel_exactly, seat_strategy
from tournaments.exact.analysis import solo_turns
from tournaments.referee.seated import SeatedStrategy
from tournaments.rl.env import ShutTheBoxEnv

from helpers.rl_play import Policy, random_expected_score, random_policy, table_policy

Z = 3.29
"""Standard errors either side of an exact figure a seeded mean must fall within (99.9%)."""
SEED = 2026


def returns(env: ShutTheBoxEnv, policy: Policy, games: int) -> list[float]:
    """The return of games 0 to `games - 1` of SEED, one episode each."""
    paid = []
    for game in range(games):
        observation, info = env.reset(seed=SEED) if game == 0 else env.reset()
        total, over = 0.0, False
        while not over:
            observation, reward, over, _, info = env.step(policy(observation, info["action_mask"]))
            total += float(reward)
        paid.append(total)
    return paid


def within(values: list[float], exact: float) -> bool:
    """Whether the mean of the values is within Z standard errors of the exact figure."""
    error = statistics.stdev(values) / math.sqrt(len(values))
    return abs(statistics.fmean(values) - exact) <= Z * error


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"tiles": 12},
        {"tiles": 10, "shut_rule": "dice-or-total"},
        {"first_roll": "3-to-go", "one_die_mode": "compulsory"},
        {"shut_rule": "one-tile", "scoring": "count", "one_die": "low-sum"},
    ],
    ids=lambda options: ",".join(map(str, options.values())) or "default",
)
def test_optimal_play_through_the_environment_scores_as_shutbox_plays_it_game_by_game(options: dict[str, Any]) -> None:
    rules = Rules(**options)
    optimal = seat_strategy("optimal", rules)
    env = ShutTheBoxEnv(rules)
    games = 1500
    through = returns(env, table_policy(env.coded, optimal.table), games)
    shutbox = [-turn.score for turn in solo_turns(optimal, games, SEED)]
    assert through == shutbox
    assert within(through, -analyze(optimal).expected_score)


@pytest.mark.slow
@pytest.mark.parametrize("options", [{}, {"tiles": 12, "scoring": "count"}], ids=["default", "12,count"])
def test_random_legal_actions_reach_randoms_exact_mean(options: dict[str, Any]) -> None:
    rules = Rules(**options)
    exact = random_expected_score(rules)
    through = returns(ShutTheBoxEnv(rules), random_policy(SEED), 4000)
    assert within(through, -exact)
    assert not within([value + 0.05 * exact for value in through], -exact)  # the interval tells 5% apart


def shutbox_shares(rules: Rules, seats: list[SeatedStrategy], me: int, games: int) -> list[float]:
    """The agent's share of the win in shutbox's own game of each seed and game: each seat's
    strategy playing its turns on its seat's dice."""
    players = [seated.player() for seated in seats]
    shares = []
    for game in range(games):

        def turn(context: TurnContext, game: int = game) -> Any:
            player = players[context.player].start_turn(context, SEED, game)
            return play_turn(rules, turn_rolls(SEED, game, context.round, context.seat), player)

        winners = play_game(rules, len(seats), turn).winners
        shares.append(1 / len(winners) if me in winners else 0.0)
    return shares


@pytest.mark.slow
@pytest.mark.parametrize("seat", [1, 2])
def test_the_win_against_a_field_is_shutboxs_exact_win_chance(seat: int) -> None:
    rules = Rules()
    optimal, greedy = seat_strategy("optimal", rules), seat_strategy("greedy-high", rules)
    field = {"before": ("greedy-high",)} if seat == 2 else {"after": ("greedy-high",)}
    env = ShutTheBoxEnv(rules, reward="win", **field)
    games = 3000
    through = returns(env, table_policy(env.coded, optimal.table), games)
    seats = [optimal, greedy] if seat == 1 else [greedy, optimal]
    assert through == shutbox_shares(rules, seats, seat - 1, games)
    assert within(through, duel_exactly(optimal, greedy, seat=seat).seats[0].wins)
