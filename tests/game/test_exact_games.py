"""Exact game outcomes: games worked by hand on tiny boxes, figures for the standard game computed
independently, agreement with the general engine's simulated games in every format, and with a
brute-force enumeration of every game `play_game` can play over random rules on small boxes."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutbox_cli.game import (
    FirstRoll,
    OneDie,
    OneDieMode,
    Rules,
    Scoring,
    ShutRule,
    Solution,
    Ties,
    TurnContext,
    TurnOdds,
    TurnRecord,
    distribution,
    duel,
    exact_turn_odds,
    game_odds,
    play_game,
    play_turn,
    solution_distribution,
    solve_expected_score,
    solve_shut,
    turn_rolls,
)
from shutbox_cli.game.exact_odds import LEFT_OVER
from strategies.builtin import GreedyHigh, Tips
from strategies.player import StrategyPlayer

from helpers.every_game import every_game as every_game_played

F = Fraction
Z999 = 3.2905
"""The normal quantile of a two-sided 99.9% interval."""


def odds(probabilities: dict[int, Fraction | int], shut: Fraction | int = 0) -> TurnOdds[Fraction]:
    return TurnOdds({points: F(chance) for points, chance in probabilities.items()}, F(shut))


# --- a 2-tile box, by hand ---------------------------------------------------------------------

TWO_TILES = Rules(tiles=2)
ONE_DIE = exact_turn_odds(TWO_TILES, lambda mask, dice: 0, lambda mask: 1)
TWO_DICE = exact_turn_odds(TWO_TILES, lambda mask, dice: 0, lambda mask: 2)
"""Two policies on the box {1, 2}, where no throw ever offers a choice of moves (one die is
allowed throughout: no tile is 7 or more): always one die, or always two."""


def test_two_tile_turns_by_hand() -> None:
    """One die: 3 shuts both tiles (1/6); 1 or 2 shuts that tile and the next die must match the
    other (1/6 each way), else the turn ends on it; 4, 5, 6 end the turn on 3.
    P(0) = 1/6 + 2/36 = 8/36, P(1) = P(2) = 1/6 * 5/6 = 5/36, P(3) = 18/36.
    Two dice: 1+2 shuts both (2/36); 1+1 shuts the 2 and two dice never make 1 (1/36 ends on 1);
    anything else ends on 3. P(0) = 2/36, P(1) = 1/36, P(3) = 33/36."""
    assert ONE_DIE.probabilities == {0: F(8, 36), 1: F(5, 36), 2: F(5, 36), 3: F(18, 36)}
    assert ONE_DIE.shut_probability == F(8, 36)
    assert TWO_DICE.probabilities == {0: F(2, 36), 1: F(1, 36), 3: F(33, 36)}
    assert TWO_DICE.shut_probability == F(2, 36)


@pytest.mark.parametrize(
    ("ties", "wins"),
    [
        ("share", (F(1835, 2592), F(757, 2592))),
        ("seat", (F(1217, 1296), F(79, 1296))),
        ("playoff", (F(618, 697), F(79, 697))),
    ],
)
def test_two_tile_game_with_instant_win_by_hand(ties: str, wins: tuple[Fraction, Fraction]) -> None:
    """One die in seat 0, two dice in seat 1, one round, instant win (in 1296ths):
    seat 0 shuts: 8/36 = 288; seat 1 shuts after seat 0 did not: 28/36 * 2/36 = 56.
    Neither (28 * 34 = 952): seat 0 lower 5*33 + 5*33 = 330; seat 1 lower 1*5 + 1*18 = 23;
    tied 1*5 + 18*33 = 599. Share: seat 0 288 + 330 + 599/2 = 1835/2592, seat 1 56 + 23 + 599/2.
    Seat: seat 0 288 + 330 + 599 = 1217. Playoff: a playoff round is this same round, repeated
    while tied: seat 0 (288 + 330) / (1296 - 599) = 618/697, and 599/697 playoff rounds expected;
    a shut box wins (288 + 56) / 697 of these games."""
    game = game_odds(Rules(tiles=2, ties=ties), [ONE_DIE, TWO_DICE])
    assert game.wins == wins
    assert game.arithmetic == "fraction"
    assert game.tie == F(599, 1296)
    assert game.shut_box_win == (F(288 + 56, 697) if ties == "playoff" else F(288 + 56, 1296))
    assert game.playoff_rounds == (F(599, 697) if ties == "playoff" else 0)
    assert game.rounds == 1
    assert [seat.played for seat in game.seats] == [1, F(28, 36)]
    assert [seat.turns for seat in game.seats] == [1, F(28, 36)]
    assert game.seats[1].expected_total == F(28, 36) * F(1 + 3 * 33, 36)
    assert game.seats[1].mean_total == F(1 + 3 * 33, 36)


def test_two_tile_margins_by_hand() -> None:
    """A (one die) in seat 0 against B (two dice), in 1296ths: A shuts, B never plays: 0 - 0, 288.
    B shuts after A did not: A's score, 1 and 2 (5*2 each) and 3 (18*2). Neither shuts: 1-1 (5),
    1-3 (165), 2-1 (5), 2-3 (165), 3-1 (18), 3-3 (594)."""
    found = duel(TWO_TILES, ONE_DIE, TWO_DICE, seat=0)
    assert found.margins == {
        -2: F(165, 1296),
        -1: F(165, 1296),
        0: F(288 + 5 + 594, 1296),
        1: F(10 + 5, 1296),
        2: F(10 + 18, 1296),
        3: F(36, 1296),
    }
    assert found.a_wins == F(1835, 2592)
    swapped = duel(TWO_TILES, TWO_DICE, ONE_DIE, seat=1)
    assert swapped.game == found.game
    assert swapped.margins == {-margin: chance for margin, chance in (found.margins or {}).items()}
    assert swapped.b_wins == found.a_wins


# --- ties, rounds and drop-outs on tiny distributions -------------------------------------------

COIN = odds({1: F(1, 2), 2: F(1, 2)})
"""A turn that scores 1 or 2, evens, and never shuts the box."""


@pytest.mark.parametrize(
    ("ties", "wins", "playoff_rounds"),
    [("share", (F(1, 2), F(1, 2)), 0), ("seat", (F(3, 4), F(1, 4)), 0), ("playoff", (F(1, 2), F(1, 2)), 1)],
)
def test_ties_between_two_coins(ties: str, wins: tuple[Fraction, Fraction], playoff_rounds: int) -> None:
    """They tie half the time. Seat: seat 0 wins 1/4 outright and every tie. Playoff: each playoff
    round settles it half the time, so 2 rounds on average, and it is fair."""
    game = game_odds(Rules(ties=ties), [COIN, COIN])
    assert game.wins == wins
    assert game.tie == F(1, 2)
    assert game.playoff_rounds == playoff_rounds


@pytest.mark.parametrize(("ties", "wins"), [("share", (F(7, 8), F(1, 8))), ("seat", (1, 0)), ("playoff", (1, 0))])
def test_two_rounds_add_up(ties: str, wins: tuple[Fraction, Fraction]) -> None:
    """Two rounds of COIN (total 2, 3, 4 with 1/4, 1/2, 1/4) against a steady 2 a round (total 4):
    seat 0 is lower 3/4 of the time and ties 1/4. A playoff round is COIN against 2: seat 0 wins
    it or ties again, so it wins every playoff."""
    game = game_odds(Rules(rounds=2, ties=ties), [COIN, odds({2: 1})])
    assert game.wins == wins
    assert game.rounds == 2
    assert [seat.turns for seat in game.seats] == [2, 2]
    assert [seat.expected_total for seat in game.seats] == [3, 4]
    assert game.playoff_rounds == (F(1, 2) if ties == "playoff" else 0)


def test_drop_out_last_player_standing() -> None:
    """Limit 7: seat 0 scores 3 a round (out in the third round, with 9), seat 1 scores 2 (6 by
    then): seat 1 is the last one left after 3 rounds."""
    game = game_odds(Rules(drop_out=7), [odds({3: 1}), odds({2: 1})])
    assert game.wins == (0, 1)
    assert game.rounds == 3
    assert [seat.turns for seat in game.seats] == [3, 3]
    assert [seat.expected_total for seat in game.seats] == [9, 6]


@pytest.mark.parametrize(("ties", "wins"), [("share", (F(1, 2), F(1, 2), 0)), ("seat", (1, 0, 0))])
def test_drop_out_everyone_at_once(ties: str, wins: tuple[Fraction, ...]) -> None:
    """Limit 8: seats 0 and 1 score 4 a round, seat 2 scores 5; after two rounds all three are out
    together (8, 8, 10), and the two 8s tie on the lowest total."""
    game = game_odds(Rules(drop_out=8, ties=ties), [odds({4: 1}), odds({4: 1}), odds({5: 1})])
    assert game.wins == wins
    assert game.tie == 1
    assert game.rounds == 2


def test_drop_out_with_instant_win_ends_at_the_first_shut_box() -> None:
    """Limit 2, instant win: a seat that shuts the box half the time (else scores 2, out at once)
    in seat 0 against a steady 1 a round: seat 0 wins at once 1/2, else it is out and seat 1 is left."""
    game = game_odds(Rules(drop_out=2, instant_win=True), [odds({0: F(1, 2), 2: F(1, 2)}, F(1, 2)), odds({1: 1})])
    assert game.wins == (F(1, 2), F(1, 2))
    assert game.shut_box_win == F(1, 2)
    assert [seat.turns for seat in game.seats] == [1, F(1, 2)]


def test_drop_out_with_scores_of_0_is_followed_until_what_is_left_is_negligible() -> None:
    """A seat that scores 0 (a shut box, instant win off) or 1, evens, against a steady 1, limit 2:
    seat 1 is out in the second round (total 2); seat 0 is still in then with chance 3/4 and wins,
    or is out too with 2 (1/4) and shares. That game surely ends then; two such seats may keep
    scoring 0 for ever, so theirs is followed until the chance that it goes on is negligible."""
    shutter = odds({0: F(1, 2), 1: F(1, 2)}, F(1, 2))
    game = game_odds(Rules(drop_out=2), [shutter, odds({1: 1})])
    assert game.wins == (F(3, 4) + F(1, 8), F(1, 8))
    assert game.unresolved == 0
    lasting = game_odds(Rules(drop_out=2), [shutter, shutter])
    assert 0 < lasting.unresolved < LEFT_OVER
    assert sum(lasting.wins) + lasting.unresolved == 1
    assert lasting.wins[0] == pytest.approx(lasting.wins[1], abs=1e-12)  # the seats are alike


@pytest.mark.parametrize("rules", [Rules(), Rules(drop_out=30), Rules(rounds=3)])
def test_a_lone_player_always_wins(rules: Rules) -> None:
    game = game_odds(rules, [turn_odds(rules, solve_expected_score(rules))])
    assert game.wins[0] == pytest.approx(1, abs=1e-12)
    assert game.seats[0].turns == pytest.approx(game.rounds, abs=1e-12)


# --- refusals ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "turns", "message"),
    [
        (Rules(), [], "at least one player"),
        (Rules(), [odds({1: F(1, 2)})], "adds up to 1/2, not 1"),
        (Rules(), [odds({1: 1}, F(1, 2))], "shut-box chance"),
        (Rules(), [TurnOdds({-1: 1.0}, 0.0)], "whole numbers"),
        (Rules(drop_out=5), [odds({0: 1}, 1), odds({0: 1}, 1)], "never end"),
        (Rules(ties="playoff"), [odds({3: 1}), odds({3: 1})], "never end"),
    ],
)
def test_what_is_not_a_game_is_refused(rules: Rules, turns: list[TurnOdds[Fraction]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        game_odds(rules, turns)


def test_a_seat_in_a_duel_is_0_or_1() -> None:
    with pytest.raises(ValueError, match="seat must be 0 or 1"):
        duel(Rules(), COIN, COIN, seat=2)


# --- the standard game: optimal against greedy-high ---------------------------------------------


def greedy(rules: Rules) -> StrategyPlayer:
    return StrategyPlayer(GreedyHigh(), rules)


def turn_odds(rules: Rules, chooser: Solution | StrategyPlayer) -> TurnOdds[float]:
    """A chooser's turn odds from the solver, in floats."""
    if isinstance(chooser, Solution):
        return TurnOdds.of(solution_distribution(chooser))
    return TurnOdds.of(distribution(rules, chooser.move_policy, chooser.dice_policy))


def exact_odds(rules: Rules, chooser: Solution | StrategyPlayer) -> TurnOdds[Fraction]:
    """A chooser's turn odds in fractions."""
    if isinstance(chooser, Solution):
        return exact_turn_odds(rules, chooser.best_move, chooser.best_dice)
    return exact_turn_odds(rules, chooser.move_policy, chooser.dice_policy)


@pytest.mark.parametrize(
    ("ties", "first", "second"),
    [("share", 0.55632, 0.55094), ("seat", 0.57407, 0.53319), ("playoff", 0.55839, 0.55282)],
)
def test_optimal_against_greedy_high_in_the_standard_game(ties: str, first: float, second: float) -> None:
    """Figures computed independently for 9 tiles, the default rules, one round with instant win:
    optimal's chance of winning in the first seat and in the second."""
    rules = Rules(ties=ties)
    optimal, greedy_high = turn_odds(rules, solve_expected_score(rules)), turn_odds(rules, greedy(rules))
    assert round(game_odds(rules, [optimal, greedy_high]).wins[0], 5) == first
    assert round(game_odds(rules, [greedy_high, optimal]).wins[1], 5) == second


def test_fractions_and_floats_agree() -> None:
    rules = Rules(rounds=2, ties="playoff")
    solution, player = solve_expected_score(rules), greedy(rules)
    exact = game_odds(rules, [exact_odds(rules, solution), exact_odds(rules, player)])
    rounded = game_odds(rules, [turn_odds(rules, solution), turn_odds(rules, player)])
    assert (exact.arithmetic, rounded.arithmetic) == ("fraction", "float")
    assert sum(exact.wins) == 1
    for exact_seat, rounded_seat in zip(exact.seats, rounded.seats, strict=True):
        for field in ("win", "turns", "expected_total", "expected_score", "shut_probability"):
            assert float(getattr(exact_seat, field)) == pytest.approx(getattr(rounded_seat, field), abs=1e-12)


@pytest.mark.slow
def test_margins_in_fixed_rounds_decide_the_duel() -> None:
    """Without instant win, A wins on a negative margin and shares on 0; the mean margin is three
    rounds of the difference in expected scores."""
    rules = Rules(rounds=3)
    a, b = exact_odds(rules, solve_expected_score(rules)), exact_odds(rules, greedy(rules))
    for seat in (0, 1):
        found = duel(rules, a, b, seat)
        margins = found.margins or {}
        assert sum(margins.values()) == 1
        below = sum(chance for margin, chance in margins.items() if margin < 0)
        assert found.a_wins == below + margins.get(0, 0) / 2
        assert sum(margin * chance for margin, chance in margins.items()) == 3 * (a.expected_score - b.expected_score)
    assert duel(Rules(drop_out=45), a, b, 0).margins is None


@given(
    st.integers(2, 7),
    st.sampled_from(list(ShutRule)),
    st.sampled_from(list(OneDie)),
    st.sampled_from(list(OneDieMode)),
    st.sampled_from(list(Scoring)),
)
@settings(max_examples=25)
def test_exact_turn_odds_are_the_solver_distribution(
    tiles: int, shut_rule: ShutRule, one_die: OneDie, mode: OneDieMode, scoring: Scoring
) -> None:
    rules = Rules(tiles=tiles, shut_rule=shut_rule, one_die=one_die, one_die_mode=mode, scoring=scoring)
    solution = solve_shut(rules)
    exact = exact_turn_odds(rules, solution.best_move, solution.best_dice)
    rounded = solution_distribution(solution)
    assert exact.probabilities.keys() == rounded.probabilities.keys()
    for points, chance in exact.probabilities.items():
        assert float(chance) == pytest.approx(rounded.probabilities[points], abs=1e-14)
    assert float(exact.shut_probability) == pytest.approx(rounded.shut_probability, abs=1e-14)
    assert sum(exact.probabilities.values()) == 1


# --- agreement with the general engine -----------------------------------------------------------

FORMATS = [
    Rules(),
    Rules(ties="seat"),
    Rules(ties="playoff"),
    Rules(instant_win=False),
    Rules(instant_win=False, ties="seat"),
    Rules(instant_win=False, ties="playoff"),
    Rules(rounds=3, ties="playoff"),
    Rules(drop_out=45, ties="seat"),
    Rules(drop_out=100),
]
GAMES = 600
SEED = 14


def table(rules: Rules, players: int) -> list[Solution | StrategyPlayer]:
    """optimal, greedy-high, max-shut and tips, the first `players` of them, in seat order."""
    return [solve_expected_score(rules), greedy(rules), solve_shut(rules), StrategyPlayer(Tips(), rules)][:players]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("rules", FORMATS, ids=lambda rules: str(rules.to_mapping()))
def test_simulated_games_agree_with_the_exact_outcome(rules: Rules, players: int) -> None:
    """The general engine plays GAMES games (turns from `play_turn`, dice from `turn_rolls`, seed
    fixed); each seat's win rate, the shut-box wins, the rounds played and each seat's turns lie
    within 99.9% intervals of the exact values (a seat's win share has variance at most p(1 - p))."""
    choosers = table(rules, players)
    exact = game_odds(rules, [turn_odds(rules, chooser) for chooser in choosers])
    wins = [0.0] * players
    shut_box_wins = 0
    rounds: list[int] = []
    turns: list[list[int]] = [[] for _ in range(players)]
    for game in range(GAMES):

        def play(context: TurnContext, game: int = game) -> TurnRecord:
            dice = turn_rolls(SEED, game, context.round, context.seat)
            return play_turn(rules, dice, choosers[context.player])

        record = play_game(rules, players, play)
        for winner in record.winners:
            wins[winner] += 1 / len(record.winners)
        shut_box_wins += record.shut_box_win
        regular = [round_ for round_ in record.rounds if not round_.playoff]
        rounds.append(len(regular))
        for seat in range(players):
            turns[seat].append(sum(round_.turns[seat] is not None for round_ in regular))

    def near(count: float, chance: float) -> bool:
        return abs(count / GAMES - chance) <= Z999 * math.sqrt(chance * (1 - chance) / GAMES) + 1 / GAMES

    assert abs(sum(exact.wins) + exact.unresolved - 1) < 1e-12
    assert all(near(count, chance) for count, chance in zip(wins, exact.wins, strict=True)), (wins, exact.wins)
    assert near(shut_box_wins, exact.shut_box_win)
    assert near_mean(rounds, exact.rounds)
    assert all(near_mean(counts, seat.turns) for counts, seat in zip(turns, exact.seats, strict=True))


def near_mean(counts: list[int], expected: float) -> bool:
    """Whether the mean of the counts lies within a 99.9% interval of the expected value."""
    mean = sum(counts) / len(counts)
    spread = math.sqrt(sum((count - mean) ** 2 for count in counts) / (len(counts) - 1))
    return abs(mean - expected) <= Z999 * spread / math.sqrt(len(counts)) + 1 / len(counts)


# --- agreement with every game play_game can play ------------------------------------------------


def every_game(
    rules: Rules, turns: Sequence[TurnOdds[Fraction]], smallest: Fraction
) -> tuple[list[Fraction], Fraction]:
    """Play every game `play_game` can play when each turn ends in one of its seat's outcomes (a
    shut box, or a score), depth first, cutting branches less likely than `smallest`: each seat's
    chance of winning among the games played out, and the chance of the branches cut."""
    outcomes = []
    for seat_odds in turns:
        shut = seat_odds.shut_probability
        found = [(TurnRecord((), 0, 0), shut)] if shut else []
        for points, chance in seat_odds.probabilities.items():
            rest = chance - shut if points == 0 else chance
            if rest:
                found.append((TurnRecord((), rules.full_box, points), rest))  # any open box will do
        outcomes.append(found)
    wins, cut, _ = every_game_played(rules, [lambda _context, found=found: found for found in outcomes], smallest)
    return wins, cut


STRATEGIES = ["optimal", "max-shut", "greedy-high"]


@st.composite
def small_games(draw: st.DrawFn) -> tuple[Rules, list[str]]:
    """Random rules on a box of 2 to 5 tiles and 1 to 3 seats (when several rounds add up, 2 or 3
    tiles and 1 or 2 seats, so that every game can be played out)."""
    game_format = draw(st.sampled_from(["one round", "rounds", "drop-out"]))
    tiles = draw(st.integers(2, 5 if game_format == "one round" else 3))
    rules = Rules(
        tiles=tiles,
        shut_rule=draw(st.sampled_from(list(ShutRule))),
        one_die=draw(st.sampled_from(list(OneDie))),
        one_die_mode=draw(st.sampled_from(list(OneDieMode))),
        scoring=draw(st.sampled_from(list(Scoring))),
        first_roll=draw(st.sampled_from(list(FirstRoll) if tiles >= 3 else [FirstRoll.NONE, FirstRoll.TWO_TO_GO])),
        instant_win=draw(st.none() | st.booleans()),
        ties=draw(st.sampled_from(list(Ties))),
        rounds=draw(st.integers(2, 3)) if game_format == "rounds" else 1,
        drop_out=draw(st.integers(1, 8)) if game_format == "drop-out" else None,
    )
    players = draw(st.integers(1, 3 if game_format == "one round" else 2))
    return rules, draw(st.lists(st.sampled_from(STRATEGIES), min_size=players, max_size=players))


@pytest.mark.slow
@given(small_games())
@settings(max_examples=30)
def test_exact_outcomes_match_every_game_played_out(game: tuple[Rules, list[str]]) -> None:
    """Each seat's exact chance lies between its wins among the games played out and those plus
    the chance of the branches cut; with nothing cut, they are equal."""
    rules, names = game
    choosers = {"optimal": solve_expected_score(rules), "max-shut": solve_shut(rules), "greedy-high": greedy(rules)}
    turns = [exact_odds(rules, choosers[name]) for name in names]
    exact = game_odds(rules, turns)
    found, cut = every_game(rules, turns, F(1, 10**5))
    assert exact.arithmetic == "fraction"
    assert sum(exact.wins) + exact.unresolved == 1
    for played_out, chance in zip(found, exact.wins, strict=True):
        assert played_out - 1e-12 <= chance <= played_out + cut + 1e-12
    if not cut:
        assert list(exact.wins) == found
