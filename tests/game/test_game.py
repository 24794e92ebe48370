"""Whole games: seats and rematch rotation, instant win, the three tie rules (with real
playoffs), fixed rounds and the drop-out limit, checked on scripted scores and, over random
rules and seeds, against an independent referee reading the game record."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutbox_cli.game import (
    GameInPlay,
    GameRecord,
    Roll,
    Rules,
    TurnContext,
    TurnPlayer,
    TurnRecord,
    derive_seed,
    mask_of,
    play_game,
    play_turn,
    score,
    turn_rolls,
)


def scripted(rules: Rules, script: dict[tuple[int, int], tuple[int, ...]]) -> tuple[TurnPlayer, list[TurnContext]]:
    """A turn player that ends each (round, player)'s turn with the scripted tiles open.

    A turn not in the script fails the test (KeyError): nobody may play who should not.
    """
    seen: list[TurnContext] = []

    def play(context: TurnContext) -> TurnRecord:
        seen.append(context)
        mask = mask_of(script[(context.round, context.player)])
        return TurnRecord((), mask, score(rules, mask))

    return play, seen


SHUT: tuple[int, ...] = ()


# --- seats and rotation ------------------------------------------------------------------------


@pytest.mark.parametrize("first_seat", [0, 1, 2, 3])
def test_seats_play_in_order_from_the_first_seat(first_seat: int) -> None:
    rules = Rules()
    play, seen = scripted(rules, {(0, player): (player + 1,) for player in range(4)})
    record = play_game(rules, 4, play, first_seat=first_seat)
    order = tuple((first_seat + seat) % 4 for seat in range(4))
    assert record.order == order
    assert [(context.seat, context.player) for context in seen] == list(enumerate(order))
    assert record.winners == (0,)
    assert record.players == 4


def test_each_turn_sees_the_scores_posted_so_far() -> None:
    rules = Rules()
    play, seen = scripted(rules, {(0, 0): (5,), (0, 1): (3,), (0, 2): (7,)})
    play_game(rules, 3, play, first_seat=1)
    assert [context.scores for context in seen] == [(None, None, None), (None, 3, None), (None, 3, 7)]
    assert [context.score_to_beat for context in seen] == [None, 3, 3]
    assert all(context.round == 0 and not context.playoff and context.active == (True,) * 3 for context in seen)


def test_a_game_needs_a_player() -> None:
    with pytest.raises(ValueError):
        play_game(Rules(), 0, scripted(Rules(), {})[0])


def test_solo_game() -> None:
    rules = Rules()
    record = play_game(rules, 1, scripted(rules, {(0, 0): (4, 5)})[0])
    assert record.winners == (0,) and record.totals == (9,) and len(record.rounds) == 1


# --- instant win -------------------------------------------------------------------------------


def test_shutting_the_box_wins_at_once_and_later_seats_do_not_play() -> None:
    rules = Rules()
    play, seen = scripted(rules, {(0, 1): (3,), (0, 2): SHUT})  # player 0 sits last and must not play
    record = play_game(rules, 3, play, first_seat=1)
    assert record.winners == (2,)
    assert [context.player for context in seen] == [1, 2]
    assert record.rounds[0].turns[0] is None
    assert record.rounds[0].scores == (None, 3, 0)
    assert len(record.rounds) == 1
    assert record.shut_box_win and record.tied == ()


def test_without_instant_win_a_shut_box_just_scores_zero() -> None:
    rules = Rules(instant_win=False)
    play, seen = scripted(rules, {(0, 0): SHUT, (0, 1): SHUT, (0, 2): (1,)})
    record = play_game(rules, 3, play)
    assert len(seen) == 3
    assert record.winners == (0, 1)
    assert not record.shut_box_win and record.tied == (0, 1)


def test_instant_win_in_a_multi_round_game_ends_the_whole_game() -> None:
    rules = Rules(rounds=3, instant_win=True)
    play, _ = scripted(rules, {(0, 0): (1,), (0, 1): (9,), (1, 0): (4,), (1, 1): SHUT})
    record = play_game(rules, 2, play)
    assert record.winners == (1,)
    assert len(record.rounds) == 2
    assert record.totals == (5, 9)


# --- ties --------------------------------------------------------------------------------------


def test_share_tie_rule_gives_every_tied_player_the_win() -> None:
    rules = Rules(ties="share")
    play, _ = scripted(rules, {(0, 0): (4,), (0, 1): (9,), (0, 2): (1, 3)})
    record = play_game(rules, 3, play, first_seat=2)
    assert record.winners == (0, 2)
    assert record.tied == (2, 0)  # in seat order


@pytest.mark.parametrize(("first_seat", "winner"), [(0, 0), (1, 2), (2, 2)])
def test_seat_tie_rule_gives_the_win_to_the_earlier_seat(first_seat: int, winner: int) -> None:
    rules = Rules(ties="seat")
    play, _ = scripted(rules, {(0, 0): (4,), (0, 1): (9,), (0, 2): (1, 3)})
    record = play_game(rules, 3, play, first_seat=first_seat)
    assert record.winners == (winner,)
    assert len(record.rounds) == 1


def test_playoff_plays_further_rounds_among_the_tied_players_only() -> None:
    rules = Rules(ties="playoff")
    script = {
        (0, 0): (4,),
        (0, 1): (9,),
        (0, 2): (1, 3),  # 0 and 2 tie on 4
        (1, 0): (3,),
        (1, 2): (1, 2),  # tie again on 3
        (2, 0): (5,),
        (2, 2): (2,),  # 2 wins
    }
    play, seen = scripted(rules, script)
    record = play_game(rules, 3, play, first_seat=1)
    assert record.winners == (2,)
    assert record.tied == (2, 0) and not record.shut_box_win  # the first tie, in seat order
    assert [round_.playoff for round_ in record.rounds] == [False, True, True]
    assert [round_.number for round_ in record.rounds] == [0, 1, 2]
    assert record.rounds[1].scores == (3, None, 3) and record.rounds[2].scores == (5, None, 2)
    assert record.totals == (4, 9, 4)  # playoff rounds do not count
    playoff_turns = [context for context in seen if context.playoff]
    assert [context.player for context in playoff_turns] == [2, 0, 2, 0]  # seat order: 1, 2, 0
    assert all(context.active == (True, False, True) for context in playoff_turns)


def test_a_shut_box_in_a_playoff_wins_at_once() -> None:
    rules = Rules(ties="playoff")
    play, seen = scripted(rules, {(0, 0): (4,), (0, 1): (1, 3), (1, 0): SHUT})
    record = play_game(rules, 2, play)
    assert record.winners == (0,)
    assert record.rounds[1].turns[1] is None
    assert record.shut_box_win and record.tied == (0, 1)
    assert len(seen) == 3


def test_playoff_after_fixed_rounds_keeps_the_totals() -> None:
    rules = Rules(rounds=2, ties="playoff")
    script = {(0, 0): (5,), (0, 1): (2,), (1, 0): SHUT, (1, 1): (3,), (2, 0): (6,), (2, 1): (8,)}
    play, _ = scripted(rules, script)
    record = play_game(rules, 2, play)
    assert record.totals == (5, 5)
    assert record.winners == (0,)
    assert [round_.playoff for round_ in record.rounds] == [False, False, True]


@pytest.mark.parametrize(("ties", "winners"), [("share", (0, 1)), ("seat", (1,)), ("playoff", (0,))])
def test_fixed_rounds_add_up_and_settle_ties_by_the_rule(ties: str, winners: tuple[int, ...]) -> None:
    rules = Rules(rounds=3, ties=ties)
    script = {
        (0, 0): (5,),
        (0, 1): (3,),
        (1, 0): SHUT,
        (1, 1): (4,),  # a shut box scores 0 and the game goes on
        (2, 0): (7,),
        (2, 1): (5,),
        (3, 0): (1,),
        (3, 1): (2,),  # the playoff, if any
    }
    play, seen = scripted(rules, script)
    record = play_game(rules, 2, play, first_seat=1)
    assert record.totals == (12, 12)
    assert record.winners == winners
    assert len([round_ for round_ in record.rounds if not round_.playoff]) == 3
    assert [context.totals for context in seen[:6:2]] == [(0, 0), (5, 3), (5, 7)]


def test_fixed_rounds_lowest_total_wins() -> None:
    rules = Rules(rounds=2)
    play, _ = scripted(rules, {(0, 0): (9,), (0, 1): (1,), (1, 0): (1,), (1, 1): (3, 7)})
    record = play_game(rules, 2, play)
    assert record.totals == (10, 11) and record.winners == (0,)
    assert record.out_after == (None, None)


# --- drop-out ----------------------------------------------------------------------------------


def test_drop_out_nobody_plays_after_the_limit_and_the_last_one_left_wins() -> None:
    rules = Rules(tiles=12, drop_out=20)
    script = {
        (0, 0): (10,),
        (0, 1): (12,),
        (0, 2): (5,),
        (1, 0): (5,),
        (1, 1): (9,),
        (1, 2): (5,),  # 1 reaches 21: out
        (2, 0): (6,),
        (2, 2): (4,),  # 0 reaches 21: out, 2 is left
    }
    play, seen = scripted(rules, script)
    record = play_game(rules, 3, play)
    assert record.winners == (2,)
    assert record.out_after == (2, 1, None)
    assert record.totals == (21, 21, 14)
    assert record.rounds[2].turns[1] is None
    assert [context.active for context in seen if context.round == 2] == [(True, False, True)] * 2


def test_reaching_the_limit_exactly_is_out() -> None:
    rules = Rules(tiles=12, drop_out=10)
    play, _ = scripted(rules, {(0, 0): (10,), (0, 1): (9,)})
    record = play_game(rules, 2, play)
    assert record.out_after == (0, None) and record.winners == (1,)


@pytest.mark.parametrize(("ties", "winners", "rounds"), [("share", (0, 1), 2), ("seat", (0,), 2), ("playoff", (1,), 3)])
def test_simultaneous_drop_outs_go_to_the_lowest_total_then_the_tie_rule(
    ties: str, winners: tuple[int, ...], rounds: int
) -> None:
    rules = Rules(tiles=12, drop_out=20, ties=ties)
    script = {
        (0, 0): (10,),
        (0, 1): (4, 6),
        (0, 2): (1,),
        (1, 0): (12,),
        (1, 1): (12,),
        (1, 2): (5, 8, 9),  # everyone out; 0 and 1 lowest on 22
        (2, 0): (5,),
        (2, 1): (2,),  # the playoff
    }
    play, _ = scripted(rules, script)
    record = play_game(rules, 3, play)
    assert record.out_after == (1, 1, 1)
    assert record.totals == (22, 22, 23)
    assert record.winners == winners
    assert len(record.rounds) == rounds


def test_simultaneous_drop_outs_lowest_total_wins() -> None:
    rules = Rules(tiles=12, drop_out=20)
    play, _ = scripted(rules, {(0, 0): (10,), (0, 1): (10,), (1, 0): (3, 9), (1, 1): (3, 12)})
    record = play_game(rules, 2, play)
    assert record.winners == (0,) and record.totals == (22, 25)


def test_drop_out_solo_plays_until_out() -> None:
    rules = Rules(tiles=12, drop_out=20)
    play, seen = scripted(rules, {(0, 0): (9,), (1, 0): SHUT, (2, 0): (8,), (3, 0): (7,)})
    record = play_game(rules, 1, play)
    assert len(seen) == 4 and record.out_after == (3,) and record.winners == (0,)


def test_drop_out_instant_win_when_asked_for() -> None:
    rules = Rules(tiles=12, drop_out=20, instant_win=True)
    play, _ = scripted(rules, {(0, 0): (9,), (0, 1): (7,), (1, 0): SHUT})
    record = play_game(rules, 2, play)
    assert record.winners == (0,) and len(record.rounds) == 2 and record.rounds[1].turns[1] is None


# --- real games over random rules, checked by an independent referee -------------------------


class SeededChooser:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose_dice(self, open_mask: int, history: Sequence[Roll]) -> int:
        return self.rng.choice((1, 2))

    def choose_move(
        self, open_mask: int, dice: tuple[int, ...], moves: tuple[int, ...], history: Sequence[Roll]
    ) -> int:
        return self.rng.choice(moves)


class FirstMove(SeededChooser):
    def choose_move(
        self, open_mask: int, dice: tuple[int, ...], moves: tuple[int, ...], history: Sequence[Roll]
    ) -> int:
        return moves[0]


def real_player(rules: Rules, seed: int, game: int = 0, styles: Sequence[str] = ()) -> TurnPlayer:
    """Plays real turns on the seat's dice stream, choosing at random from a seat-keyed
    generator; a player whose style is "first" always takes the first legal move."""

    def play(context: TurnContext) -> TurnRecord:
        rng = random.Random(derive_seed("choices", seed, game, context.round, context.seat))
        style = styles[context.player] if context.player < len(styles) else "random"
        chooser = FirstMove(rng) if style == "first" else SeededChooser(rng)
        return play_turn(rules, turn_rolls(seed, game, context.round, context.seat), chooser)

    return play


def referee(rules: Rules, players: int, record: GameRecord) -> tuple[int, ...]:
    """Who should have won, worked out again from the scores in the record (docs/rules.md)."""
    seat_of = {player: seat for seat, player in enumerate(record.order)}
    by_seat = lambda group: sorted(group, key=seat_of.__getitem__)  # noqa: E731
    played = [{player for player, turn in enumerate(round_.turns) if turn is not None} for round_ in record.rounds]
    regular = [round_ for round_ in record.rounds if not round_.playoff]
    playoffs = [round_ for round_ in record.rounds if round_.playoff]
    assert record.rounds[: len(regular)] == tuple(regular)  # playoffs come last
    assert record.totals == tuple(sum(round_.scores[player] or 0 for round_ in regular) for player in range(players))

    if rules.instant_win:
        shut = [
            (index, player)
            for index, round_ in enumerate(record.rounds)
            for player, turn in enumerate(round_.turns)
            if turn is not None and turn.shut_box
        ]
        if shut:
            assert len(shut) == 1
            index, winner = shut[0]
            assert index == len(record.rounds) - 1
            assert all(seat_of[player] < seat_of[winner] for player in played[index] - {winner})
            return (winner,)

    if rules.drop_out is None:
        assert len(regular) == rules.rounds
        assert all(played[index] == set(range(players)) for index in range(len(regular)))
        assert record.out_after == (None,) * players
        candidates, values = list(range(players)), list(record.totals)
    else:
        active, running = set(range(players)), [0] * players
        for index, round_ in enumerate(regular):
            assert played[index] == active
            for player in active:
                running[player] += round_.scores[player]
            out = {player for player in active if running[player] >= rules.drop_out}
            assert all(record.out_after[player] == index for player in out)
            left = active - out
            if not left or (len(left) == 1 and players > 1):
                assert index == len(regular) - 1
                break
            active = left
        assert all(record.out_after[player] is None for player in left)
        if left:
            assert not playoffs
            return (left.pop(),)
        candidates, values = sorted(out), running

    best = min(values[player] for player in candidates)
    tied = by_seat([player for player in candidates if values[player] == best])
    if len(tied) == 1 or rules.ties == "share":
        assert not playoffs
        return tuple(sorted(tied))
    if rules.ties == "seat":
        assert not playoffs
        return (tied[0],)
    for round_ in playoffs:
        assert len(tied) > 1
        assert {player for player, turn in enumerate(round_.turns) if turn is not None} == set(tied)
        best = min(round_.scores[player] for player in tied)
        tied = by_seat([player for player in tied if round_.scores[player] == best])
    assert len(tied) == 1
    return (tied[0],)


@pytest.mark.slow
@settings(max_examples=150)
@given(
    rules=st.from_type(Rules),
    players=st.integers(1, 4),
    seed=st.integers(0, 2**40),
    first_seat=st.integers(0, 3),
)
def test_real_games_end_with_the_right_winner(rules: Rules, players: int, seed: int, first_seat: int) -> None:
    play = real_player(rules, seed)
    record = play_game(rules, players, play, first_seat=first_seat % players)
    assert record.order == tuple((first_seat % players + seat) % players for seat in range(players))
    assert record.winners == referee(rules, players, record)
    assert record == play_game(rules, players, real_player(rules, seed), first_seat=first_seat % players)


@pytest.mark.slow
@given(seed=st.integers(0, 2**40))
def test_same_seed_same_game_and_a_different_seed_a_different_one(seed: int) -> None:
    rules = Rules(rounds=3)
    record = play_game(rules, 3, real_player(rules, seed))
    assert record == play_game(rules, 3, real_player(rules, seed))
    others = [play_game(rules, 3, real_player(rules, seed + offset)) for offset in range(1, 4)]
    assert any(other.rounds != record.rounds for other in others)


@given(seed=st.integers(0, 2**40))
def test_a_seat_meets_the_same_dice_whoever_else_is_at_the_table(seed: int) -> None:
    rules = Rules(instant_win=False, rounds=2)
    record = play_game(rules, 2, real_player(rules, seed, styles=("random", "random")))
    other = play_game(rules, 2, real_player(rules, seed, styles=("random", "first")))
    for round_, other_round in zip(record.rounds, other.rounds, strict=True):
        assert round_.turns[0] == other_round.turns[0]


@pytest.mark.slow
@given(seed=st.integers(0, 2**40), game=st.integers(0, 1000))
def test_the_dice_follow_the_seat_not_the_player(seed: int, game: int) -> None:
    """On a rematch the first seat passes on; whoever sits first meets seat 0's dice."""
    rules = Rules(instant_win=False)
    first = play_game(rules, 2, real_player(rules, seed, game), first_seat=0)
    rematch = play_game(rules, 2, real_player(rules, seed, game), first_seat=1)
    assert first.rounds[0].turns[0] == rematch.rounds[0].turns[1]
    assert first.rounds[0].turns[1] == rematch.rounds[0].turns[0]


# --- games side by side, one turn at a time -----------------------------------------------------


@settings(max_examples=20)
@given(
    rules=st.from_type(Rules),
    players=st.integers(1, 4),
    seed=st.integers(0, 2**40),
    order=st.integers(0, 2**32),
)
def test_games_played_side_by_side_are_the_games_played_one_by_one(
    rules: Rules, players: int, seed: int, order: int
) -> None:
    """Whatever order their turns come in, games stepped side by side ask for the same turns and
    end as `play_game` plays them one after another."""
    count = 4
    alone = [
        play_game(rules, players, real_player(rules, seed, game), first_seat=game % players) for game in range(count)
    ]
    games = [GameInPlay(rules, players, first_seat=game % players) for game in range(count)]
    asked: list[list[TurnContext]] = [[] for _ in games]
    pick = random.Random(order)
    while waiting := [index for index, game in enumerate(games) if game.next_turn is not None]:
        index = pick.choice(waiting)
        context = games[index].next_turn
        assert context is not None
        asked[index].append(context)
        games[index].play(real_player(rules, seed, index)(context))
    assert [game.record for game in games] == alone
    for record, contexts in zip(alone, asked, strict=True):
        assert len(contexts) == sum(turn is not None for round_ in record.rounds for turn in round_.turns)


def test_a_game_in_play_has_no_record_until_it_ends_and_takes_no_turn_after() -> None:
    rules = Rules(instant_win=False)
    game = GameInPlay(rules, 2)
    with pytest.raises(RuntimeError, match="not over"):
        game.record  # noqa: B018
    play = real_player(rules, 7)
    while game.next_turn is not None:
        game.play(play(game.next_turn))
    assert game.record == play_game(rules, 2, real_player(rules, 7))
    with pytest.raises(RuntimeError, match="over"):
        game.play(game.record.rounds[0].turns[0])  # type: ignore[arg-type]
