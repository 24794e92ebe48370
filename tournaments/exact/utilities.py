"""What a seat's final box is worth in one game, exactly: the chance of winning it with each score,
for each key the seat meets, from the one exact walk (`shutbox_cli.game.exact_walk.game_odds`), as
`explain` weighs a strategy's choices against rivals.

The seat explained is walked with stand-in turns, its rivals with their own (`seat_turns`):

- the keys it meets, and the chance of each: its turn for one key scores 1 and for any other 0, so
  its expected total is the chance it plays with that key (a shut box with instant win before its
  turn, and it does not play);
- the chance of winning with key k and score s: its turn scores s for key k and, for any other,
  a score above every score the box allows (`beyond`), which never wins. Divided by the chance of
  meeting k, it is what ending the turn with a score of s is worth with that key.

An exact strategy is a keyed one with no features: one key, `()`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from shutbox_cli.game import Rules, TurnOdds, game_odds, score
from shutbox_cli.game.exact_seats import KeyedTurns

from ..errors import ConfigError
from .turns import Turns


@dataclasses.dataclass(frozen=True)
class KeyUtility:
    """One key the seat meets: its values, the chance of meeting it, and what ending the turn with
    each box (by mask) is worth with it: the chance of winning the game."""

    values: tuple[Any, ...]
    chance: float
    utility: tuple[float, ...]


def scores(rules: Rules) -> list[int]:
    """Every score a turn may end with under these rules, lowest first."""
    return sorted({score(rules, mask) for mask in range(rules.full_box + 1)})


def walks(rules: Rules) -> int:
    """The walks `utilities` takes for each key a seat meets (an estimate's copies)."""
    return len(scores(rules)) + 1


def utilities(rules: Rules, features: tuple[str, ...], rivals: Sequence[Turns], seat: int) -> list[KeyUtility]:
    """Every key the seat `seat` (0 plays first, before `rivals[seat]`) meets in one game of these
    rules, with its chance and its utility by box (module docstring). Raises ConfigError for a game
    the walk cannot follow."""
    beyond = max(scores(rules)) + 1
    met: list[tuple[Any, ...]] = []

    def noted(values: tuple[Any, ...]) -> TurnOdds[float]:
        met.append(values)
        return _scoring(beyond)

    _win(rules, features, rivals, seat, noted)
    found = []
    by_score: dict[int, float] = {}
    for key in dict.fromkeys(met):
        chance = _win(rules, features, rivals, seat, _stand_in(key, 1, 0), total=True)
        if chance <= 0:
            continue
        for points in scores(rules):
            by_score[points] = _win(rules, features, rivals, seat, _stand_in(key, points, beyond)) / chance
        utility = tuple(by_score[score(rules, mask)] for mask in range(rules.full_box + 1))
        found.append(KeyUtility(key, chance, utility))
    return found


def _stand_in(key: tuple[Any, ...], points: int, otherwise: int) -> Callable[[tuple[Any, ...]], TurnOdds[float]]:
    """Turns that score `points` with the key `key` and `otherwise` with any other."""
    return lambda values: _scoring(points if values == key else otherwise)


def _scoring(points: int) -> TurnOdds[float]:
    """A turn that always ends with `points` (0: the box shut)."""
    return TurnOdds({points: 1.0}, 1.0 if points == 0 else 0.0)


def _win(
    rules: Rules,
    features: tuple[str, ...],
    rivals: Sequence[Turns],
    seat: int,
    turn: Callable[[tuple[Any, ...]], TurnOdds[float]],
    total: bool = False,
) -> float:
    """The seat's chance of winning (`total`: its expected total) with the turns `turn` gives each key."""
    seats: list[Turns] = [*rivals[:seat], KeyedTurns(features, turn), *rivals[seat:]]
    try:
        found = game_odds(rules, seats).seats[seat]
    except ValueError as error:
        raise ConfigError(f"these rules cannot be computed exactly: {error}") from None
    return float(found.expected_total if total else found.win)
