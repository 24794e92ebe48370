"""Perfect play for a stake (shutbox_cli/game/stakes.py): the winnings of a small box worked out by
hand, a brute force over every dice sequence of 3- and 4-tile boxes at tables of 2 and 3 written
here independently of the backward induction over situations, and a payout of 1 as the win chances
say it."""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any

import pytest

from shutbox_cli.game import Rules, dice_options, legal_moves, score, solution_distribution, solve_expected_score
from shutbox_cli.game.fair import fair_payout, variants
from shutbox_cli.game.moves import THROWS, throw_probability
from shutbox_cli.game.perfect import equilibrium
from shutbox_cli.game.stakes import optimal_winnings, stakes

SAME = 1e-12


class TestByHand:
    """A 2-tile box rolling two dice has no choice to make: from {1, 2} a 2 (1 in 36) shuts the 2
    and the turn ends on 1 (two dice never throw 1), a 3 (2 in 36) shuts the box, and anything else
    ends it on 3. So a turn ends on 0, 1 or 3 with chances 2, 1 and 33 in 36."""

    RULES = Rules(tiles=2, one_die="off")  # type: ignore[arg-type]

    @pytest.mark.parametrize("pays", [0.0, 1.0, 2.0, 3.8])
    def test_shared_ties_and_an_instant_win(self, pays: float) -> None:
        # Seat 1 shuts: +K. On 1: seat 2 shuts (2/36) -K, ties on 1 (1/36) 0, ends on 3 (33/36) +1.
        # On 3: seat 2 shuts -K, ends on 1 -1, ties on 3 0. Seat 1 wins (72K - 2K + 33 - 66K - 33) / 1296.
        won = stakes(dataclasses.replace(self.RULES, shut_pays=pays), 2).winnings()
        assert won.seats[0] == pytest.approx(4 * pays / 1296, abs=SAME)
        assert won.seats[1] == pytest.approx(-4 * pays / 1296, abs=SAME)
        assert won.shared == pytest.approx((1 + 33 * 33) / 1296, abs=SAME)
        assert won.shut == pytest.approx((2 * 36 + 34 * 2) / 1296, abs=SAME)

    @pytest.mark.parametrize("pays", [0.5, 2.0])
    def test_ties_to_the_earlier_seat(self, pays: float) -> None:
        # On 1 seat 1 loses only to a shut box; on 3, to a shut box (-K) or a 1 (-1), and wins a tie.
        rules = Rules(tiles=2, one_die="off", ties="seat", shut_pays=pays)  # type: ignore[arg-type]
        won = stakes(rules, 2).winnings()
        assert won.seats[0] == pytest.approx((72 * pays + (34 - 2 * pays) + 33 * (32 - 2 * pays)) / 1296, abs=SAME)
        assert won.shared == 0.0

    def test_without_the_instant_win_the_seats_are_alike(self) -> None:
        # Both turns are the same lottery and a shut box waits for the other seat: nobody is ahead.
        rules = Rules(tiles=2, one_die="off", instant_win=False, shut_pays=3.0)  # type: ignore[arg-type]
        won = stakes(rules, 2).winnings()
        assert won.seats[0] == pytest.approx(0.0, abs=SAME)
        assert won.shared == pytest.approx((2 * 2 + 1 + 33 * 33) / 1296, abs=SAME)

    def test_at_a_table_of_three_a_winner_takes_two_stakes(self) -> None:
        # Everyone's turn alike and no choice: seat 1 wins on a shut 2K; seat 3's chance of being paid
        # is a 3-seat walk, but what the seats win adds up to nothing, and seat 1 does best.
        rules = Rules(tiles=2, one_die="off", shut_pays=2.0)  # type: ignore[arg-type]
        won = stakes(rules, 3).winnings()
        assert sum(won.seats) == pytest.approx(0.0, abs=SAME)
        assert won.seats[0] > won.seats[1] > won.seats[2]


def _brute_force(rules: Rules, seats: int) -> tuple[float, ...]:
    """Each seat's expected winnings in a one-round game under perfect play for the stake, over the
    whole game tree: every seat at every box and throw takes the move (and number of dice) best for
    its own winnings given the scores posted, knowing the later seats do too; of choices worth the
    same (within 1e-12) the one with the lower expected score of its own turn, then the first."""
    pays, ties = rules.shut_pays, rules.ties.value

    def settle(scores: tuple[int, ...]) -> tuple[float, ...]:
        best = min(scores)
        winners = [seat for seat, points in enumerate(scores) if points == best]
        winners = winners[:1] if ties == "seat" else winners
        stake = pays if best == 0 else 1.0
        return tuple(
            stake * (seats - len(winners)) / len(winners) if seat in winners else -stake for seat in range(seats)
        )

    @cache
    def game(posted: tuple[int, ...]) -> tuple[float, ...]:
        """The winnings once the seats before have posted these scores."""
        if len(posted) == seats:
            return settle(posted)
        return turn(posted, rules.full_box)[0]

    @cache
    def turn(posted: tuple[int, ...], box: int) -> tuple[tuple[float, ...], float]:
        """From this box, before the next throw: the winnings and the seat's own expected score."""
        me = len(posted)
        best: tuple[tuple[float, ...], float] | None = None
        for count in dice_options(rules, box):
            won, expected = [0.0] * seats, 0.0
            for throw in THROWS:
                if len(throw) != count:
                    continue
                moves = legal_moves(rules, box, throw)
                after = max(
                    (turn_after(posted, box & ~move) for move in moves), key=lambda it: _rank(it, me), default=None
                )
                if after is None:
                    after = ended(posted, box)
                chance = throw_probability(throw)
                won = [was + chance * more for was, more in zip(won, after[0], strict=True)]
                expected += chance * after[1]
            found = (tuple(won), expected)
            if best is None or _rank(found, me) > _rank(best, me):
                best = found
        assert best is not None
        return best

    def turn_after(posted: tuple[int, ...], box: int) -> tuple[tuple[float, ...], float]:
        return ended(posted, 0) if box == 0 else turn(posted, box)

    def ended(posted: tuple[int, ...], box: int) -> tuple[tuple[float, ...], float]:
        points = score(rules, box)
        if points == 0 and rules.instant_win:
            me = len(posted)
            return tuple(pays * (seats - 1) if seat == me else -pays for seat in range(seats)), 0.0
        return game((*posted, points)), float(points)

    return game(())


def _rank(found: tuple[tuple[float, ...], float], me: int) -> tuple[float, float]:
    """Better winnings first (rounded to 1e-12, so that rounding makes no difference), then a lower
    expected score; `max` keeps the first of equals."""
    won, expected = found
    return round(won[me] / SAME) * SAME, -round(expected / SAME) * SAME


BOXES = [
    {"tiles": 3},
    {"tiles": 4},
    {"tiles": 4, "one_die": "off"},
    {"tiles": 4, "one_die": "low-sum", "one_die_mode": "compulsory", "scoring": "digits"},
    {"tiles": 4, "instant_win": False},
    {"tiles": 4, "ties": "seat"},
    {"tiles": 4, "scoring": "count"},
]


@pytest.mark.parametrize("box", BOXES, ids=lambda box: ",".join(f"{k}={v}" for k, v in box.items()))
@pytest.mark.parametrize("pays", [0.5, 2.0, 3.8])
@pytest.mark.parametrize("seats", [2, pytest.param(3, marks=pytest.mark.slow)])  # three: 0.1 s each
def test_a_brute_force_over_every_dice_sequence_agrees(box: dict[str, Any], pays: float, seats: int) -> None:
    rules = Rules.from_mapping({**box, "shut_pays": pays})
    assert stakes(rules, seats).winnings().seats == pytest.approx(_brute_force(rules, seats), abs=SAME)


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("ties", ["share", "seat"])
def test_a_payout_of_one_is_the_table_size_times_the_chance_to_win_less_the_stake(seats: int, ties: str) -> None:
    rules = Rules(tiles=6, ties=ties)  # type: ignore[arg-type]
    chances = equilibrium(rules).seat_chances(seats)
    assert stakes(rules, seats).winnings().seats == pytest.approx([seats * c - 1 for c in chances], abs=1e-12)


def test_everyone_optimal_plays_one_policy_whatever_the_payout() -> None:
    # All optimal, the payout moves money, not play: seat 1 shuts with the optimal chance p, seat 2
    # after it with (1 - p) p, so 2 more stakes on a shut box are worth 2 (p - (1 - p) p) = 2 p**2 to seat 1.
    low, high = (optimal_winnings(Rules(tiles=6, shut_pays=pays), 2) for pays in (1.0, 3.0))  # type: ignore[arg-type]
    shut = solution_distribution(solve_expected_score(Rules(tiles=6))).shut_probability
    assert (low.shared, low.shut) == (high.shared, high.shut)
    assert high.seats[0] - low.seats[0] == pytest.approx(2 * shut**2, abs=SAME)


def test_playoffs_are_refused_in_one_sentence() -> None:
    with pytest.raises(ValueError, match=r'^a game for a stake is solved with ties settled by "share" or "seat": '):
        stakes(Rules(tiles=4, ties="playoff"), 2)  # type: ignore[arg-type]


@pytest.mark.slow
def test_at_a_table_of_four_the_advantage_can_jump_across_even() -> None:
    # A seat indifferent between two moves at one payout switches there: what it wins does not jump,
    # what the others win does. The brute force sees the same jump, so no payout is exactly fair.
    rules = Rules(tiles=4, first_roll="2-to-go")  # type: ignore[arg-type]
    pays = fair_payout(rules, 4)
    assert pays is not None
    sides = []
    for step in (-1e-7, 1e-7):
        near = dataclasses.replace(rules, shut_pays=pays + step)
        won = stakes(near, 4).winnings()
        assert won.seats == pytest.approx(_brute_force(near, 4), abs=SAME)
        sides.append(won.advantage)
    assert sides[0] * sides[1] < 0 and min(map(abs, sides)) > 1e-4
    (variant,) = [v for v in variants(rules, 4) if v.rules == rules]
    assert variant.fair_pays == pays and variant.fair_left == pytest.approx(min(sides, key=abs), abs=1e-6)
