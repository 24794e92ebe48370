"""Who finished ahead of whom: the definition on hand-checked games (winners, totals, drop-out,
playoffs, games a shut box cut short), the counts a tournament keeps per ordered pair (both
engines alike, ahead + level + behind adding up to the games, each pair the mirror of the other),
and what the terminal shows."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from shutbox_cli.game import GameRecord, Rules, TurnContext, TurnRecord, mask_of, play_game, score
from tournaments import InProcess, Options, Summary, load_config, run
from tournaments.playing.tally import Tally, count_game, finished_ahead, finishes

from helpers.command import shutbox
from helpers.paths import ROOT

SHUT: tuple[int, ...] = ()


def game(rules: Rules, players: int, script: dict[tuple[int, int], tuple[int, ...]], first_seat: int = 0) -> GameRecord:
    """A game whose (round, player) turns end with the scripted tiles open."""

    def play(context: TurnContext) -> TurnRecord:
        mask = mask_of(script[(context.round, context.player)])
        return TurnRecord((), mask, score(rules, mask))

    return play_game(rules, players, play, first_seat)


def placings(record: GameRecord) -> dict[tuple[int, int], int]:
    """`finished_ahead` for every ordered pair of the game's players."""
    finish = finishes(record)
    return {
        (one, other): finished_ahead(finish[one], finish[other])
        for one in range(record.players)
        for other in range(record.players)
        if one != other
    }


def test_in_one_round_the_winner_is_ahead_then_the_lower_score() -> None:
    # Scores 5, 12 and 3 (no box shut): 2 wins, then 0, then 1.
    record = game(Rules(), 3, {(0, 0): (5,), (0, 1): (3, 9), (0, 2): (1, 2)})
    assert record.winners == (2,)
    placed = placings(record)
    assert placed[(2, 0)] == placed[(2, 1)] == placed[(0, 1)] == 1
    assert placed[(0, 2)] == placed[(1, 2)] == placed[(1, 0)] == -1


def test_winners_of_a_shared_win_are_level_and_losers_on_equal_scores_too() -> None:
    record = game(Rules(), 4, {(0, 0): (4,), (0, 1): (1, 3), (0, 2): (9,), (0, 3): (2, 7)})
    assert record.winners == (0, 1)
    placed = placings(record)
    assert placed[(0, 1)] == 0 and placed[(2, 3)] == 0  # 4 and 4 win together; 9 and 9 lose together
    assert placed[(0, 2)] == placed[(1, 3)] == 1


def test_under_the_seat_rule_the_tie_breaks_for_the_winner_only() -> None:
    rules = Rules(ties="seat")
    record = game(rules, 4, {(0, 0): (9,), (0, 1): (4,), (0, 2): (1, 3), (0, 3): (2, 7)}, first_seat=2)
    assert record.winners == (2,)  # seat order 2, 3, 0, 1: 2 sits before 1
    placed = placings(record)
    assert placed[(2, 1)] == 1 and placed[(0, 3)] == 0


def test_a_shut_box_wins_and_leaves_the_rest_level_where_it_cut_their_turns_short() -> None:
    # Seat order 0, 1, 2, 3: 0 scores 7, 1 scores 4, 2 shuts the box, 3 never plays.
    record = game(Rules(), 4, {(0, 0): (7,), (0, 1): (4,), (0, 2): SHUT})
    assert record.winners == (2,) and record.shut_box_win
    placed = placings(record)
    assert all(placed[(2, other)] == 1 for other in (0, 1, 3))
    assert placed[(1, 0)] == 1  # both played the round: the lower score is ahead
    assert placed[(3, 0)] == placed[(3, 1)] == 0  # 3 did not get to play


def test_in_drop_out_whoever_lasted_longer_is_ahead_whatever_the_totals() -> None:
    rules = Rules(drop_out=20)
    script = {
        (0, 0): (2, 9),  # 11
        (0, 1): (1,),  # 1
        (0, 2): (4,),  # 4
        (1, 0): (9,),  # 20: out in round 1
        (1, 1): (5, 8, 9),  # 23: out in round 1 too, on a higher total
        (1, 2): (3,),  # 7: the last one left
    }
    record = game(rules, 3, script)
    assert record.winners == (2,) and record.out_after == (1, 1, None) and record.totals == (20, 23, 7)
    assert placings(record)[(0, 1)] == 1
    early = game(rules, 3, {(0, 0): (5, 9, 8), (0, 1): (1,), (0, 2): (2,), (1, 1): (9, 8, 6), (1, 2): (3,)})
    assert early.out_after == (0, 1, None) and early.totals == (22, 24, 5)
    assert placings(early)[(1, 0)] == 1  # 1 lasted a round longer on a higher total


def test_a_playoff_decides_between_its_players() -> None:
    rules = Rules(ties="playoff")
    script = {
        (0, 0): (4,),
        (0, 1): (1, 3),
        (0, 2): (4,),  # three tied on 4
        (0, 3): (9,),
        (1, 0): (6,),  # knocked out first
        (1, 1): (2,),
        (1, 2): (2,),
        (2, 1): (5,),  # knocked out second
        (2, 2): (1,),  # wins
    }
    record = game(rules, 4, script)
    assert record.winners == (2,) and record.tied == (0, 1, 2)
    placed = placings(record)
    assert placed[(2, 1)] == placed[(1, 0)] == placed[(0, 3)] == 1


def test_in_a_playoff_a_shut_box_leaves_level_a_player_it_stopped() -> None:
    rules = Rules(ties="playoff")
    script = {(0, 0): (4,), (0, 1): (4,), (0, 2): (4,), (1, 0): (5,), (1, 1): SHUT}
    record = game(rules, 3, script)
    assert record.winners == (1,) and record.rounds[1].turns[2] is None
    placed = placings(record)
    assert placed[(1, 0)] == placed[(1, 2)] == 1 and placed[(0, 2)] == 0


def test_count_game_counts_every_ordered_pair() -> None:
    record = game(Rules(), 3, {(0, 0): (5,), (0, 1): (3, 9), (0, 2): (1, 2)})
    tallies = [Tally() for _ in range(3)]
    count_game(record, tallies, 6)
    assert [tally.ahead for tally in tallies] == [[0, 1, 0], [0, 0, 0], [1, 1, 0]]
    assert [tally.tied for tally in tallies] == [[0, 0, 0]] * 3


def test_a_tally_reads_back_from_its_counts() -> None:
    tally = Tally(games=4, win_shares=6, turns=4, score_sum=30, ahead=[0, 3, 1], tied=[0, 1, 2])
    assert Tally.of_counts(tally.counts(3), 3) == tally
    assert Tally().counts(2)[-4:] == [0, 0, 0, 0]


def engines(table: int, rules: dict[str, object], games: int = 60) -> tuple[Summary, Summary]:
    field = ["optimal", "greedy-high", "max-shut", "random"]
    config = load_config(None, Options(strategies=field, games=games, table=table, seed=7, rules=rules))  # type: ignore[arg-type]
    bulk, general = (run(config, backend=InProcess(), bulk=bulk) for bulk in (True, False))
    assert isinstance(bulk, Summary) and isinstance(general, Summary)
    return bulk, general


def check_pairs(summary: Summary) -> None:
    """Ahead, level and behind add up to the games, and each pair mirrors the other."""
    pairs = {(pair.strategy, pair.opponent): pair for pair in summary.head_to_head}
    for (one, other), pair in pairs.items():
        back = pairs[(other, one)]
        assert pair.ahead + pair.tied + pair.behind == pair.games == back.games  # type: ignore[operator]
        assert (pair.ahead, pair.tied, pair.behind) == (back.behind, back.tied, back.ahead)
        assert pair.ahead_rate + back.ahead_rate == pytest.approx(1)  # type: ignore[operator]


RULES = [
    {},
    {"drop_out": 30, "ties": "playoff"},
    {"drop_out": 25, "instant_win": True, "ties": "playoff", "tiles": 10},
    {"rounds": 3, "ties": "playoff", "instant_win": True},
    {"rounds": 2, "ties": "seat", "scoring": "count"},
]


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES, ids=["one round", "drop-out", "drop-out, instant", "rounds", "seat"])
@pytest.mark.parametrize("table", [3, 4])
def test_both_engines_count_the_same_finishes(table: int, rules: dict[str, object]) -> None:
    """Over games enough for some pairs to finish level."""
    bulk, general = engines(table, rules, games=240)
    assert bulk.tallies == general.tallies
    assert bulk.head_to_head == general.head_to_head
    check_pairs(bulk)
    assert any(pair.tied for pair in bulk.head_to_head)


@pytest.mark.slow
def test_at_a_table_of_two_ahead_is_winning_outright() -> None:
    bulk, general = engines(2, {}, games=100)
    assert bulk.head_to_head == general.head_to_head
    check_pairs(bulk)
    for pair in bulk.head_to_head:
        assert pair.ahead + pair.tied / 2 == pair.wins  # type: ignore[operator]
        assert pair.ahead_rate == pytest.approx(pair.win_rate)


@pytest.mark.slow
def test_exact_tournaments_know_who_finished_ahead_at_a_table_of_two_only() -> None:
    field = ["optimal", "greedy-high", "max-shut"]
    duel = run(load_config(None, Options(strategies=field, method="exact")))
    for pair in duel.head_to_head:
        assert pair.ahead + pair.tied + pair.behind == pytest.approx(pair.games)  # type: ignore[operator]
        assert pair.ahead + pair.tied / 2 == pytest.approx(pair.wins)  # type: ignore[operator]
        assert 0 < pair.tied < pair.games  # type: ignore[operator]
    seat = run(load_config(None, Options(strategies=field, method="exact", rules={"ties": "seat"})))
    assert all(pair.tied == 0 and pair.ahead == pytest.approx(pair.wins) for pair in seat.head_to_head)
    three = run(load_config(None, Options(strategies=field, method="exact", table=3)))
    assert all(pair.ahead is None and pair.ahead_rate is None for pair in three.head_to_head)


def test_a_simulated_report_at_a_table_of_two_says_who_finished_ahead() -> None:
    """As docs/report.md says: only an exact tournament at a table of three or more leaves them out."""
    done = shutbox("tournament", "-s", "greedy-high", "-s", "tips", "-n", "40", "--seed", "1", "--format", "json")
    report = json.loads(done.stdout)
    assert done.returncode == 0 and report["method"] == "simulate" and report["config"]["table"] == 2
    for pair in report["head_to_head"]:
        assert pair["ahead"] + pair["tied"] + pair["behind"] == pair["games"] == 40
        assert pair["ahead"] + pair["tied"] / 2 == pair["wins"] and pair["ahead_rate"] == pair["win_rate"]


def shown(*arguments: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "shutbox_cli", "tournament", *arguments, "-j", "1", "--seed", "3"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"COLUMNS": "100", "PATH": "/usr/bin:/bin"},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_the_terminal_shows_who_finished_ahead_at_tables_of_three_and_win_rates_at_two() -> None:
    field = ["-s", "optimal", "-s", "greedy-high", "-s", "random", "-s", "max-shut"]
    three = shown(*field, "--table", "3", "--games", "60")
    assert "how often the row finished ahead of the column" in three
    two = shown(*field, "--games", "60")
    assert "the row's win rate in games against the column" in two and "how often the row finished ahead" not in two
