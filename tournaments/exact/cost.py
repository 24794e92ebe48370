"""What an exact run would cost, estimated before anything is computed (`shutbox_cli.game.exact_walk`'s
`cost`, each game along the path its walk takes), and the refusal of a run past the limits, which
says what fits instead.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from shutbox_cli.game import Rules, TurnOdds
from shutbox_cli.game.exact_seats import opening_turn
from shutbox_cli.game.exact_walk import Path, cost, path

from ..errors import ConfigError
from .turns import Turns, uses_fractions

STEPS_PER_SECOND = 3_000_000
"""About how many steps of an exact game's walk (`exact_walk`) one core takes a second, in floats
(measured: 250-700 ns a step); a step in fractions costs about `FRACTION_STEPS` of them."""
FRACTION_STEPS = 10
MOST_SECONDS = 180
"""The longest an exact tournament or duel is estimated to take, or it is refused (the longest of
them shows no progress while one game is computed)."""
MOST_TOTALS = 1_000_000
"""The most totals one seat's walk may hold at once (about 100 bytes each, a few seats' at a time)."""


def refuse_costly(
    rules: Rules,
    seats: Sequence[Turns],
    games: Sequence[Sequence[int]],
    copies: int,
    what: str,
    instead: str,
    margins: bool = False,
    hosted: Sequence[bool] = (),
    most_seconds: float = MOST_SECONDS,
) -> None:
    """A ConfigError, before anything is computed, if `copies` of each of `games` of these seats
    (`Work`) would take longer than `most_seconds` or hold more than `MOST_TOTALS` totals per seat;
    it says what would take that long (`what`), what fits (fewer rounds, a lower drop-out limit)
    and what to do `instead` (fewer strategies, where the caller has them)."""
    work = Work.of(rules, seats, games, copies, margins, hosted)
    if work.fits(rules, most_seconds):
        return
    seconds, totals = work.seconds(rules)
    held = f" and hold {totals:,} totals per seat at once" if totals > MOST_TOTALS else ""
    fits = _what_fits(rules, work, most_seconds)
    raise ConfigError(
        f"{what} would take about {_duration(seconds)}{held}, past the limits of about {_duration(most_seconds)} "
        f"and {MOST_TOTALS:,} totals: {instead if fits is None else f'{fits}; or {instead}'}."
    )


@dataclasses.dataclass(frozen=True)
class Work:
    """What an exact run would compute: `copies` of each of `games` (indices into the seats, whose
    opening turn odds are `turns`), each along the path its walk takes (`paths`); `margins`: a
    duel's margins too; `hosted`: a seat's turns are asked of its host."""

    turns: Sequence[TurnOdds[Any]]
    games: Sequence[Sequence[int]]
    paths: Sequence[Path]
    copies: int
    margins: bool
    hosted: Sequence[bool]

    @staticmethod
    def of(
        rules: Rules,
        seats: Sequence[Turns],
        games: Sequence[Sequence[int]],
        copies: int,
        margins: bool = False,
        hosted: Sequence[bool] = (),
    ) -> Work:
        """The work of `games` of these seats under `rules` (the paths stay those of these rules
        when `_what_fits` asks about fewer rounds or a lower limit)."""
        table = len(games[0]) if games else 1
        turns = [opening_turn(seat, table) for seat in seats]
        paths = [path(rules, [seats[player] for player in game]) for game in games]
        return Work(turns, games, paths, copies, margins, tuple(hosted) or (False,) * len(seats))

    def seconds(self, rules: Rules) -> tuple[float, int]:
        """About how long the work takes under `rules`, and the most totals a seat holds."""
        found = cost(rules, self.turns, self.games, self.paths, self.margins, self.hosted)
        steps = found.steps * self.copies * (FRACTION_STEPS if uses_fractions(rules) else 1)
        return steps / STEPS_PER_SECOND, found.totals

    def fits(self, rules: Rules, most_seconds: float = MOST_SECONDS) -> bool:
        """Whether the work stays within the limits of time and totals under `rules`."""
        seconds, totals = self.seconds(rules)
        return seconds <= most_seconds and totals <= MOST_TOTALS


def _what_fits(rules: Rules, work: Work, most_seconds: float = MOST_SECONDS) -> str | None:
    """The most rounds, or the highest drop-out limit, that fits (found by halving); None where none does."""
    key, most = ("rounds", rules.rounds) if rules.drop_out is None else ("drop_out", rules.drop_out)
    low, high = 0, most  # low fits (0: nothing does), high does not
    while high - low > 1:
        middle = (low + high) // 2
        fewer = (
            dataclasses.replace(rules, rounds=middle)
            if key == "rounds"
            else dataclasses.replace(rules, drop_out=middle)
        )
        if work.fits(fewer, most_seconds):
            low = middle
        else:
            high = middle
    if low == 0:
        return None
    if key == "rounds":
        return f"up to {low:,} round{'s' if low > 1 else ''} fit{'' if low > 1 else 's'}"
    return f"a drop-out limit up to {low:,} fits"


def _duration(seconds: float) -> str:
    """Seconds in the unit a person would say them in."""
    for unit, size in (("day", 86_400), ("hour", 3_600), ("minute", 60)):
        if seconds >= size:
            count = round(seconds / size)
            return f"{count:,} {unit}{'s' if count > 1 else ''}"
    count = max(1, round(seconds))
    return f"{count} second{'s' if count > 1 else ''}"
