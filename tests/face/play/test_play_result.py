"""How `shutbox play` words the end of a game: winner, shared win, tie-breaks, playoffs, drop-outs, tables."""

from __future__ import annotations

from collections.abc import Mapping

from shutbox_cli.face.play.result import outcome_lines, score_table, scores_line
from shutbox_cli.game import GameRecord, Roll, Rules, TurnContext, TurnRecord, mask_of, play_game, score

NAMES = ("Ann", "Bob")


def scripted(
    rules: Rules, left_open: Mapping[tuple[int, int], tuple[int, ...]], players: int = 2, first_seat: int = 0
) -> GameRecord:
    """A game where player p leaves `left_open[(round, p)]` open in each round."""

    def play(context: TurnContext) -> TurnRecord:
        mask = mask_of(left_open[(context.round, context.player)])
        rolls = (Roll((6, 6), rules.full_box & ~mask),) if mask != rules.full_box else ()
        return TurnRecord(rolls + ((Roll((1, 1), 0),) if mask else ()), mask, score(rules, mask))

    return play_game(rules, players, play, first_seat=first_seat)


def test_the_lowest_score_wins_and_the_scores_are_listed_in_seat_order() -> None:
    record = scripted(Rules(), {(0, 0): (3, 9), (0, 1): (7,)}, first_seat=1)
    assert scores_line(record, NAMES) == "Scores: Bob 7, Ann 12."
    assert outcome_lines(Rules(), record, NAMES) == ["Bob wins with 7."]


def test_equal_lowest_scores_share_the_win_by_default() -> None:
    record = scripted(Rules(), {(0, 0): (7,), (0, 1): (3, 4)})
    assert outcome_lines(Rules(), record, NAMES) == ["Ann and Bob share the win with 7."]


def test_the_seat_rule_names_the_earlier_seat() -> None:
    rules = Rules(ties="seat")
    record = scripted(rules, {(0, 0): (7,), (0, 1): (3, 4)}, first_seat=1)
    assert outcome_lines(rules, record, NAMES) == ["Bob and Ann tie with 7; Bob wins as the earlier seat."]


def test_a_playoff_is_reported_and_shown_in_the_table() -> None:
    rules = Rules(ties="playoff")
    record = scripted(rules, {(0, 0): (7,), (0, 1): (3, 4), (1, 0): (2,), (1, 1): (5,)})
    assert outcome_lines(rules, record, NAMES) == ["Ann and Bob tie with 7; Ann wins the playoff."]
    assert score_table(rules, record, NAMES) == [
        "           Ann  Bob",
        "Round 1      7    7",
        "Playoff 1    2    5",
        "Total        7    7",
    ]


def test_shutting_the_box_wins_at_once_and_later_seats_do_not_play() -> None:
    record = scripted(Rules(), {(0, 0): ()})
    assert scores_line(record, NAMES) == "Scores: Ann 0."
    assert outcome_lines(Rules(), record, ("You", "Bob")) == ["You shut the box and win the game."]


def test_rounds_add_up_in_a_table_with_totals() -> None:
    rules = Rules(rounds=2)
    record = scripted(rules, {(0, 0): (9,), (0, 1): (3,), (1, 0): (1,), (1, 1): (8,)})
    assert score_table(rules, record, NAMES) == [
        "         Ann  Bob",
        "Round 1    9    3",
        "Round 2    1    8",
        "Total     10   11",
    ]
    assert outcome_lines(rules, record, NAMES) == ["Ann wins with a total of 10."]


def test_drop_out_the_last_player_left_wins_and_the_table_marks_who_is_out() -> None:
    rules = Rules(drop_out=20)
    record = scripted(rules, {(0, 0): (9,), (0, 1): (8,), (1, 0): (3,), (1, 1): (4, 9)})
    assert outcome_lines(rules, record, NAMES) == ["Ann wins: the last player left, with a total of 12."]
    assert score_table(rules, record, NAMES)[-1] == "Total     12  21 out"


def test_drop_out_when_everyone_goes_out_together_the_lowest_total_wins() -> None:
    rules = Rules(drop_out=10)
    record = scripted(rules, {(0, 0): (4, 7), (0, 1): (3, 9)})
    assert outcome_lines(rules, record, ("You", "Bob")) == [
        "Everyone still playing reached 10 in round 1; the lowest total wins.",
        "You win with a total of 11.",
    ]


def test_drop_out_a_tie_among_those_who_go_out_together_is_settled_by_the_tie_rule() -> None:
    rules = Rules(drop_out=10, ties="seat")
    record = scripted(rules, {(0, 0): (4, 7), (0, 1): (2, 9)}, first_seat=1)
    assert outcome_lines(rules, record, NAMES) == [
        "Everyone still playing reached 10 in round 1; the lowest total wins.",
        "Bob and Ann tie with a total of 11; Bob wins as the earlier seat.",
    ]


def test_of_three_players_only_those_on_the_lowest_score_are_named_as_tied() -> None:
    rules = Rules(ties="playoff")
    names = ("Ann", "Bob", "Cy")
    record = scripted(rules, {(0, 0): (9,), (0, 1): (3, 4), (0, 2): (7,), (1, 1): (6,), (1, 2): (1,)}, players=3)
    assert outcome_lines(rules, record, names) == ["Bob and Cy tie with 7; Cy wins the playoff."]


def test_shutting_the_box_in_a_playoff_wins_it_at_once() -> None:
    rules = Rules(ties="playoff")
    record = scripted(rules, {(0, 0): (7,), (0, 1): (3, 4), (1, 0): ()}, first_seat=0)
    assert outcome_lines(rules, record, NAMES) == ["Ann shut the box and wins the playoff."]
    assert score_table(rules, record, NAMES)[2] == "Playoff 1    0    -"
