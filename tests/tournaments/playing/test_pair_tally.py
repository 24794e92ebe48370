"""The pentanomial a unit counts at a table of two: the same in bulk and game by game, and true to
the games it sums up."""

from __future__ import annotations

import pytest

from tournaments import InProcess, Options, run


@pytest.mark.parametrize("ties", ["share", "seat"])
def test_pairs_are_counted_alike_in_bulk_and_game_by_game(ties: str) -> None:
    options = Options(strategies=["optimal", "greedy-high"], games=300, seed=11, table=2, rules={"ties": ties})
    bulk = run(None, options, backend=InProcess())
    general = run(None, options, backend=InProcess(), bulk=False)
    assert bulk.tallies == general.tallies
    first, second = bulk.tallies[0]
    assert sum(first.pairs) == 150 and second.pairs == first.pairs[::-1]
    # Halves of a win over the pairs add up to the games' win shares (a whole win is 2 halves).
    assert sum(k * count for k, count in enumerate(first.pairs)) == first.win_shares
    if ties == "seat":  # no shared wins: a pair scores 0, 1 or 2 whole games
        assert first.pairs[1] == first.pairs[3] == 0


def test_tables_of_three_count_no_pairs() -> None:
    summary = run(
        None, Options(strategies=["optimal", "greedy-high", "tips"], games=30, seed=1, table=3), backend=InProcess()
    )
    assert all(tally.pairs == [] for tally in summary.tallies[0])
