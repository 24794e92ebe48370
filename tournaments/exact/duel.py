"""One exact strategy against another in one game, exactly (`shutbox analyze A --against B`): A's
chance of winning from each seat and on average, and the distribution of the winning margin, from
`shutbox_cli.game.duel` (the one exact walk, `exact_walk`, whether a strategy is keyed, as `target`
is, or not). In fractions or floats as an exact tournament under the same rules."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from shutbox_cli.game import Duel, Rules, duel
from shutbox_cli.game.exact_odds import Arithmetic

from ..errors import ConfigError, setting
from ..records.schema import header, rules_table
from .cost import MOST_SECONDS, refuse_costly
from .turns import exact_key, refuse_inexact, seat_turns, uses_fractions

if TYPE_CHECKING:  # a user's strategy is seated in a host: only a run of one loads that code
    from ..field.config import TournamentConfig
    from ..referee.seated import SeatedStrategy

QUICK_SECONDS = 2.0
"""The longest a match's exact duel may be estimated to take for the match to compute it (the
limit of an exact tournament, minutes, is for one asked for)."""


@dataclasses.dataclass(frozen=True)
class DuelSeat:
    """A's chances with A in `seat` (1 plays first; None: both seats, averaged). `wins` counts a
    shared win as half, `losses` is B's chance, `tie` the chance the tie rule settled the game;
    `margins` the distribution of A's final total minus B's (None in drop-out, where the last
    player left wins whatever the totals)."""

    seat: int | None
    wins: float
    losses: float
    tie: float
    margins: dict[int, float] | None

    def to_report(self) -> dict[str, Any]:
        """A's chances as a report writes them (docs/report.md): `win_rate`, `opponent_win_rate`, `tie_rate`."""
        table: dict[str, Any] = {} if self.seat is None else {"seat": self.seat}
        table |= {"win_rate": self.wins, "opponent_win_rate": self.losses, "tie_rate": self.tie}
        if self.margins is not None:
            table["margins"] = {str(margin): chance for margin, chance in self.margins.items()}
        return table


@dataclasses.dataclass(frozen=True)
class ExactDuel:
    """A (`strategy`) against B (`against`) under `rules`: one `DuelSeat` per seat asked for, and
    the average of both seats last when both were asked for."""

    strategy: str
    spec: str
    against: str
    against_spec: str
    rules: Rules
    arithmetic: Arithmetic
    seats: tuple[DuelSeat, ...]
    fingerprint: str | None = None
    against_fingerprint: str | None = None
    """A's and B's policy fingerprints under the rules (`strategies.fingerprint`; None: not asked)."""

    def __repr__(self) -> str:
        from ..briefly import brief

        seats = [
            f"{'both seats' if seat.seat is None else f'seat {seat.seat}'}: wins {seat.wins:.2%}" for seat in self.seats
        ]
        return brief("ExactDuel", f"{self.strategy} against {self.against}", *seats)

    def to_report(self) -> dict[str, Any]:
        """The duel as a report table (docs/report.md; margins as string keys, figures in full)."""
        from ..referee.confinement import report_field

        report: dict[str, Any] = {
            **header("duel"),
            "method": "exact",
            **report_field([self.spec, self.against_spec]),
            "arithmetic": self.arithmetic,
            "strategy": self.strategy,
            "spec": self.spec,
            **({} if self.fingerprint is None else {"fingerprint": self.fingerprint}),
            "opponent": self.against,
            "opponent_spec": self.against_spec,
            **({} if self.against_fingerprint is None else {"opponent_fingerprint": self.against_fingerprint}),
            "rules": rules_table(self.rules),
            "seat": [seat.to_report() for seat in self.seats if seat.seat is not None],
        }
        for seat in self.seats:
            if seat.seat is None:
                report["average"] = seat.to_report()
        return report


def duel_exactly(
    a: SeatedStrategy,
    b: SeatedStrategy,
    seat: int | None = None,
    most_seconds: float = MOST_SECONDS,
    fingerprints: bool = True,
) -> ExactDuel:
    """A against B in one game under the rules both are seated for, with A in seat `seat` (1 or 2)
    or in both, and (`fingerprints`) the policy fingerprint of each. Raises ConfigError for a
    strategy that cannot be computed exactly under the rules, or a game estimated to take longer
    than `most_seconds`; TournamentFailure for one that fails."""
    if seat not in (None, 1, 2):
        raise ConfigError(f"A's seat must be 1 or 2, not {seat!r}.")
    if a.rules != b.rules:
        raise ValueError("A and B must be seated for the same rules.")
    rules = a.rules
    for seated in (a, b):
        refuse_inexact(seated.name, seated.exact, seated.context_free, exact_key(seated, 2), rules, 2)
    fractions = uses_fractions(rules)
    odds = [seat_turns(seated, fractions, 2) for seated in (a, b)]
    copies = 1 if seat is not None else 2
    what, instead = (
        "computing this game exactly",
        f"simulate it (shutbox tournament, without {setting('method', 'exact')})",
    )
    hosted = [not seated.builtin for seated in (a, b)]
    refuse_costly(rules, odds, [(0, 1)], copies, what, instead, rules.drop_out is None, hosted, most_seconds)
    try:
        found = [duel(rules, odds[0], odds[1], number - 1) for number in ((1, 2) if seat is None else (seat,))]
    except ValueError as error:
        raise ConfigError(f"these rules cannot be computed exactly: {error}") from None
    seats = [_seat(one) for one in found]
    if seat is None:
        seats.append(_average(found))
    arithmetic = found[0].game.arithmetic
    shown = (a.fingerprint, b.fingerprint) if fingerprints else (None, None)
    return ExactDuel(a.name, a.spec, b.name, b.spec, rules, arithmetic, tuple(seats), *shown)


def quick_score(config: TournamentConfig, keyed: Sequence[bool]) -> float | None:
    """A match's first strategy's exact score per game against the second (a shared win half, both
    seats alike), where both can be computed exactly (exact, or `keyed`) and the duel is estimated
    to take at most `QUICK_SECONDS`; None where not, or where a strategy fails (its games name it)."""
    from strategies.loading import StrategyLoadError
    from strategies.player import StrategyError

    from ..errors import TournamentFailure
    from ..referee.seated import seat_strategies

    if not all(entry.exact or key for entry, key in zip(config.strategies, keyed, strict=True)):
        return None
    given = [(entry.spec, dict(entry.params), entry.name) for entry in config.strategies]
    try:
        with contextlib.ExitStack() as stack:
            a, b = (stack.enter_context(one) for one in seat_strategies(given, config.rules, timeout=config.timeout))
            return duel_exactly(a, b, most_seconds=QUICK_SECONDS, fingerprints=False).seats[-1].wins
    except (ConfigError, TournamentFailure, StrategyLoadError, StrategyError):
        return None


def _seat(found: Duel[Any]) -> DuelSeat:
    margins = None if found.margins is None else {margin: float(chance) for margin, chance in found.margins.items()}
    return DuelSeat(found.seat + 1, float(found.a_wins), float(found.b_wins), float(found.game.tie), margins)


def _average(found: Sequence[Duel[Any]]) -> DuelSeat:
    """Both seats, each half the games; the sums are taken in the duels' own arithmetic."""
    count = len(found)
    margins: dict[int, Any] | None = None
    if all(one.margins is not None for one in found):
        margins = {}
        for one in found:
            for margin, chance in (one.margins or {}).items():
                margins[margin] = margins.get(margin, 0) + chance / count
        margins = {margin: float(margins[margin]) for margin in sorted(margins)}
    return DuelSeat(
        None,
        float(sum(one.a_wins for one in found) / count),
        float(sum(one.b_wins for one in found) / count),
        float(sum(one.game.tie for one in found) / count),
        margins,
    )
