"""The bracket: seeds placed so that the best meet last, byes to the top seeds, the rounds named."""

from __future__ import annotations

from tournaments.knockout.bracket import bracket_size, first_round, pairs_of, round_name, seed_order


def test_the_seeds_meet_the_worst_first_and_the_best_last() -> None:
    assert seed_order(2) == [0, 1]
    assert seed_order(4) == [0, 3, 1, 2]
    assert seed_order(8) == [0, 7, 3, 4, 1, 6, 2, 5]
    for size in (2, 4, 8, 16, 32):
        order = seed_order(size)
        assert sorted(order) == list(range(size))
        assert all(first + second == size - 1 for first, second in pairs_of(order))
        half = size // 2
        assert (0 in order[:half]) != (1 in order[:half])  # seeds 1 and 2 in opposite halves


def test_a_field_of_five_gives_the_top_three_seeds_a_bye() -> None:
    places = first_round(5)
    assert bracket_size(5) == 8 and len(places) == 8
    ties = pairs_of(places)
    byes = sorted(first for first, second in ties if second is None)
    assert byes == [0, 1, 2]
    assert (3, 4) in ties
    assert all(first is not None for first, _ in ties)  # the higher seed of a tie is never a bye


def test_a_field_of_a_power_of_two_has_no_byes() -> None:
    assert None not in first_round(8) and None not in first_round(2)


def test_the_rounds_are_named_from_the_final_back() -> None:
    assert [round_name(places) for places in (2, 4, 8, 16)] == [
        "final",
        "semi-finals",
        "quarter-finals",
        "round of 16",
    ]
