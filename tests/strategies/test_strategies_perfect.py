"""The built-in `perfect`: target's exact best response at the last seat, at least as good for seat 1
as optimal or target against a best-responding seat 2, optimal alone, refused over several rounds,
and its games played turn by turn inside the intervals of the exact values."""

from __future__ import annotations

import json
import math

import pytest

from shutbox_cli.game import GameInPlay, Rules, play_turn, solve_expected_score, turn_rolls
from shutbox_cli.game.perfect import equilibrium
from shutbox_cli.game.perfect_pairs import pair_equilibrium
from strategies.check import check_strategy
from strategies.keys import KeyedContext
from strategies.loading import StrategyLoadError
from strategies.perfect import SITUATION, Perfect
from strategies.player import StrategyPlayer
from strategies.questions import sample_questions
from strategies.solved import ONE_ROUND_KEY, Target
from tournaments import solve

from helpers.command import shutbox

LAST_SEAT_RULES = [
    pytest.param(Rules(tiles=tiles, ties=ties, instant_win=instant), id=f"{tiles}-{ties}-{instant}")  # type: ignore[arg-type]
    for tiles in (5, 7)
    for ties in ("share", "seat")
    for instant in (True, False)
]


@pytest.mark.parametrize("rules", LAST_SEAT_RULES)
def test_at_the_last_seat_it_plays_targets_exact_best_response(rules: Rules) -> None:
    perfect, target = Perfect(), Target()
    found = equilibrium(rules)
    checked = 0
    for to_beat in found.scores:
        for count in (1, 2, 3):
            key = KeyedContext(SITUATION, (to_beat, count, 0))
            ours = perfect._solved_for(rules, key)
            theirs = target._solved_for(rules, KeyedContext(ONE_ROUND_KEY, (to_beat, count, 0)))
            assert (ours.moves, ours.dice) == (theirs.moves, theirs.dice), (to_beat, count)
            checked += ours is not solve_expected_score(rules)
    assert checked > len(found.scores)  # most situations play otherwise than optimal


def test_under_playoffs_the_last_seat_values_a_tie_at_its_playoff_chance_not_targets_half() -> None:
    rules = Rules(tiles=7, ties="playoff")
    found = equilibrium(rules)
    at = found.scores.index(8)
    assert found.play(8, 1, 0).chances[at] == pytest.approx(found.seat_chances(2)[1], abs=1e-12)
    assert found.seat_chances(2)[1] != pytest.approx(0.5, abs=1e-4)


def seat_one(spec: str, *options: str) -> float:
    """Seat 1's exact chance with `spec` against perfect play (a best response) in seat 2."""
    done = shutbox("analyze", spec, "--against", "perfect", "--seat", "1", "--format", "json", *options)
    assert done.returncode == 0, done.stderr
    return float(json.loads(done.stdout)["seat"][0]["win_rate"])


@pytest.mark.slow
@pytest.mark.parametrize("options", [(), ("--ties", "seat"), ("--tiles", "6", "--no-instant-win")], ids=str)
def test_at_two_seats_seat_one_does_best_by_perfect_play(options: tuple[str, ...]) -> None:
    rules = Rules.from_mapping(
        {"ties": "seat"} if "seat" in options else {"tiles": 6, "instant_win": False} if options else {}
    )
    value = solve(rules, 2).perfect.seats[0].win
    optimal, target = seat_one("optimal", *options), seat_one("target", *options)
    assert value >= optimal - 1e-12 and value >= target - 1e-12
    assert value - optimal > 1e-5  # playing to win gains something over playing low
    # Seat 2 best-responds alike as target and as perfect: target against target is the same game.
    alike = shutbox("analyze", "target", "--against", "target", "--seat", "1", "--format", "json", *options)
    assert float(json.loads(alike.stdout)["seat"][0]["win_rate"]) == pytest.approx(target, abs=1e-12)


def test_alone_it_plays_exactly_like_optimal() -> None:
    rules = Rules()
    alone = Perfect()._solved_for(rules, KeyedContext(SITUATION, (None, 0, 0)))
    assert alone is solve_expected_score(rules)
    done = shutbox(
        "tournament", "--exact", "--table", "1", "--tiles", "6", "-s", "perfect", "-s", "optimal", "--format", "json"
    )
    assert done.returncode == 0, done.stderr
    means = {standing["name"]: standing["mean_score"] for standing in json.loads(done.stdout)["ranking"]}
    assert means["perfect"] == means["optimal"]


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (("--rounds", "3", "--table", "3"), "solved for a table of two, not 3"),
        (("--drop-out", "45", "--table", "4"), "solved for a table of two, not 4"),
        (("--rounds", "3", "--ties", "playoff"), "not solved with playoffs"),
        (("--rounds", "90"), "up to 39 rounds fit"),
        (("--drop-out", "1000"), "a drop-out limit up to"),
    ],
)
def test_where_several_rounds_or_drop_out_are_not_solved_it_is_refused_in_one_sentence(
    options: tuple[str, ...], said: str
) -> None:
    done = shutbox("tournament", "-s", "perfect", "-s", "optimal", "-n", "10", *options)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and said in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow  # its fingerprint tabulates every first-round key: about 1 s
def test_the_strategies_command_describes_it() -> None:
    done = shutbox("strategies", "perfect")
    assert done.returncode == 0, done.stderr
    assert "subgame-perfect equilibrium" in done.stdout and "to_beat, to_beat_count, to_come" in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("ties", ["share", "playoff"])
def test_its_games_played_turn_by_turn_fall_inside_the_intervals_of_the_exact_values(ties: str) -> None:
    """Three perfect seats, 6,000 games on the reference engine, seed 20261206: each seat's wins
    inside the 95% interval (normal, on the binomial's spread) around its exact chance."""
    rules = Rules(tiles=9, ties=ties)  # type: ignore[arg-type]
    seats, games, seed = 3, 6000, 20261206
    players = [StrategyPlayer(Perfect(), rules) for _ in range(seats)]
    wins = [0.0] * seats
    for number in range(games):
        game = GameInPlay(rules, seats)
        while (context := game.next_turn) is not None:
            rolls = turn_rolls(seed, number, context.round, context.seat)
            game.play(play_turn(rules, rolls, players[context.player].start_turn(context, seed, number)))
        for winner in game.record.winners:
            wins[winner] += 1 / len(game.record.winners)
    exact = [seat.win for seat in solve(rules, seats).perfect.seats]
    for won, chance in zip(wins, exact, strict=True):
        spread = 1.96 * math.sqrt(chance * (1 - chance) / games)
        assert abs(won / games - chance) <= spread, (won / games, chance)


@pytest.mark.slow
def test_the_contract_check_asks_it_only_under_rules_it_plays() -> None:
    """The questions of games it does not solve (several rounds or drop-out beyond what fits, or with
    playoffs over fixed rounds) are left out; the rest all pass, several rounds and drop-out too."""
    sampled, _ = sample_questions(2, 8)
    report = check_strategy(Perfect, samples=8, seed=2)
    assert report.ok

    def solved(rules: Rules) -> bool:
        if not Perfect.checked_under(rules):
            return False
        try:
            Perfect.key_under(rules)
        except StrategyLoadError:
            return False
        return True

    played = [question for question in sampled if solved(question.rules)]
    assert report.questions == len(played) > sum(not question.rules.multi_round for question in played) > 0


def test_rules_too_large_to_solve_are_refused_in_one_sentence() -> None:
    done = shutbox("tournament", "-s", "perfect", "-s", "optimal", "--tiles", "12", "--scoring", "digits", "-n", "4")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "perfect play is not solved under these rules: a turn can end on 4,095 scores" in done.stderr


@pytest.mark.slow
def test_an_exact_tournament_of_three_perfect_seats_finds_the_value_of_the_game() -> None:
    """The exact walk in fractions, seat by seat, gives solve's chances (the report rounds to 6 places)."""
    field = ("-s", "perfect", "-s", "b=perfect", "-s", "c=perfect")
    done = shutbox("tournament", "--exact", "--table", "3", "--tiles", "6", *field, "--format", "json")
    assert done.returncode == 0, done.stderr
    by_seat = {row["seat"]: row["win_rate"] for row in json.loads(done.stdout)["seat"] if row["strategy"] == "b"}
    value = solve({"tiles": 6}, 3).perfect.seats
    assert [by_seat[number] for number in (1, 2, 3)] == [round(seat.win, 6) for seat in value]


def test_a_tune_takes_it_in_the_field_exactly() -> None:
    done = shutbox("tune", "below", "-p", "threshold=5..6", "-s", "perfect", "--tiles", "6", "-q")
    assert done.returncode == 0, done.stderr
    assert "(exact)" in done.stdout and "computed exactly" in done.stdout


@pytest.mark.slow
def test_a_simulated_tournament_over_three_rounds_falls_in_its_intervals_around_the_exact_value() -> None:
    """perfect against optimal over 3 rounds at a table of two, 4,000 games (seed 37) played by the
    tournament's engine: perfect's win rate interval holds its exact chance, seats averaged, which
    `analyze --against` walks from perfect's keys; perfect against itself there is the equilibrium's."""
    options = ("--rounds", "3")
    report = shutbox(
        "tournament", "-s", "perfect", "-s", "optimal", *options, "-n", "4000", "--seed", "37", "--format", "json"
    )
    assert report.returncode == 0, report.stderr
    standing = next(row for row in json.loads(report.stdout)["ranking"] if row["name"] == "perfect")
    exact = json.loads(shutbox("analyze", "perfect", "--against", "optimal", *options, "--format", "json").stdout)
    low, high = standing["win_rate_ci95"]
    assert low <= exact["average"]["win_rate"] <= high
    itself = json.loads(shutbox("analyze", "perfect", "--against", "perfect", *options, "--format", "json").stdout)
    value = pair_equilibrium(Rules(rounds=3)).value
    assert itself["seat"][0]["win_rate"] == pytest.approx(value, abs=1e-12)
    # perfect gains against optimal from each seat: optimal is not a best response to it, nor it to optimal
    assert all(seat["win_rate"] > 0.5 for seat in exact["seat"])
