"""A knockout's tie: two strategies at a table of two, each deal played twice with the seats
swapped. Where both can be computed exactly and quickly (`duel.quick_score`), the tie is decided by
the exact score and no game is played; else it is a match (`play_match`) on the knockout's seed, to
the games asked for or, with an SPRT, to its verdict. The strategy that scores more goes through;
a drawn tie (a score of exactly one half) sends the higher seed through."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ..backends.base import Backend
from ..exact.duel import quick_score
from ..field.config import TournamentConfig
from ..playing.plan import make_plan
from ..running.runner import play_match
from ..statistics.elo import Match, Sprt


@dataclasses.dataclass(frozen=True)
class Tie:
    """One tie of a round: the higher seed `first` and the lower `second` (None: a bye), indices of
    the field in seed order; who went through and how (`decided`: "bye", "score", or "seed" for a
    drawn tie, the higher seed through); the first's exact
    score where it was computed, else the `match` played (None for a bye)."""

    first: int
    second: int | None
    winner: int
    decided: str
    exact: float | None = None
    match: Match | None = None
    games: int = 0
    """The games the tie played (0 for a bye or an exact tie)."""


def bye(seed: int) -> Tie:
    """A seed that meets nobody goes through."""
    return Tie(seed, None, seed, "bye")


def play_tie(
    config: TournamentConfig,
    first: int,
    second: int,
    sprt: Sprt | None,
    backend: Backend | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Tie:
    """The tie of the field's `first` and `second` strategies (the higher seed first), under the
    knockout's configuration (its rules, games, seed and workers)."""
    pair = dataclasses.replace(
        config, strategies=(config.strategies[first], config.strategies[second]), table=2, duplicate=True, gauntlet=0
    )
    keys = make_plan(pair).keys or (None, None)
    exact = quick_score(pair, [key is not None for key in keys])
    if exact is not None:
        return Tie(first, second, _winner(first, second, exact), _how(exact), exact=exact)
    summary = play_match(pair, sprt, backend=backend, progress=progress)
    match = summary.match
    assert match is not None
    score = match.pairs.score
    return Tie(first, second, _winner(first, second, score), _how(score), match=match, games=summary.games)


def _winner(first: int, second: int, score: float) -> int:
    """Who goes through on the first's score: the second only if it scored more."""
    return second if score < 0.5 else first


def _how(score: float) -> str:
    return "seed" if score == 0.5 else "score"
