"""The value of a game: each seat's chance under perfect play (`shutbox_cli.game.perfect` in one round,
`perfect_pairs` for two seats over several rounds or in drop-out) and when every seat plays `optimal`,
both walked by the one exact walk (`game_odds`), in floats."""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Mapping
from typing import Any

from shutbox_cli.game import GameOdds, Rules, TurnOdds, game_odds, solution_distribution, solve_expected_score
from shutbox_cli.game.exact_seats import KeyedTurns
from shutbox_cli.game.perfect import equilibrium, refuse_unsolved
from shutbox_cli.game.perfect_pairs import refuse_unsolved_pair
from shutbox_cli.game.rules import SHUT_PAYS
from shutbox_cli.game.solver import layered_distribution
from shutbox_cli.game.stakes import Stakes, Winnings, optimal_winnings, stakes
from strategies.keys import KeyedContext
from strategies.perfect import SITUATION, Perfect, perfect_policy

from ..errors import ConfigError
from ..records.schema import header, rules_table
from .cost import refuse_costly

TABLES = range(2, 5)
"""The tables `solve` works out: 2 to 4 seats."""
PLAYS = ("perfect", "optimal")
"""How every seat plays, in a solution's order."""


@dataclasses.dataclass(frozen=True)
class SeatValue:
    """One seat's chances: to win (a shared win counted as its part), and per turn its expected
    score and its chance of shutting the box."""

    win: float
    expected_score: float
    shut: float


@dataclasses.dataclass(frozen=True)
class Play:
    """A game in which every seat plays one way: each seat's value in order of play, the chance
    that the tie rule has to settle the game (a shared win under `share`), and the chance that a
    shut box wins it at once."""

    seats: tuple[SeatValue, ...]
    tie: float
    shut_box_win: float
    winnings: Winnings | None = None
    """Each seat's expected winnings in stakes, in a game played for a stake (`shut_pays` other than 1)."""

    @property
    def advantage(self) -> float:
        """The last seat's chance to win less the first seat's."""
        return self.seats[-1].win - self.seats[0].win

    @staticmethod
    def of(odds: GameOdds[float], winnings: Winnings | None = None) -> Play:
        seats = tuple(SeatValue(seat.win, seat.expected_score, seat.shut_probability) for seat in odds.seats)
        return Play(seats, odds.tie, odds.shut_box_win, winnings)


@dataclasses.dataclass(frozen=True)
class GameValue:
    """The value of a game of `table` seats under `rules`: under perfect play (every seat plays to win
    knowing the others do too) and when every seat plays `optimal`."""

    rules: Rules
    table: int
    perfect: Play
    optimal: Play

    def __repr__(self) -> str:
        from ..briefly import brief

        chances = ", ".join(f"{seat.win:.3%}" for seat in self.perfect.seats)
        return brief(
            "GameValue",
            f"{self.table} seats",
            f"perfect play {chances}",
            f"last seat's advantage {self.perfect.advantage:+.3%} ({self.optimal.advantage:+.3%} all optimal)",
        )

    def to_report(self) -> dict[str, Any]:
        """The solution as a report table (docs/report.md, `kind = "solution"`)."""
        report: dict[str, Any] = {**header("solution"), "method": "exact", "arithmetic": "float"}
        report |= {"table": self.table, "rules": rules_table(self.rules)}
        for name, play in zip(PLAYS, (self.perfect, self.optimal), strict=True):
            report[name] = {
                "tie_rate": play.tie,
                "shut_box_win_rate": play.shut_box_win,
                "last_seat_advantage": play.advantage,
                "seat": [
                    {"seat": number, "win_rate": seat.win, "mean_score": seat.expected_score, "shut_rate": seat.shut}
                    for number, seat in enumerate(play.seats, start=1)
                ],
            }
            if play.winnings is not None:
                report[name]["last_seat_winnings_advantage"] = play.winnings.advantage
                for seat, won in zip(report[name]["seat"], play.winnings.seats, strict=True):
                    seat["winnings"] = won
        return report


def solve(rules: Rules | Mapping[str, Any] | None = None, table: int = 2) -> GameValue:
    """The value of a game of `table` seats (2 to 4; 2 over several rounds or in drop-out) under
    `rules` (a Rules, a rules table, or None for the standard game): each seat's chance under perfect
    play and all optimal. Played for a stake (`shut_pays` other than 1), perfect play is for the
    expected winnings, which each play's `winnings` gives too. ConfigError, in one sentence, for
    rules or a table it does not solve."""
    if not isinstance(rules, Rules):
        rules = Rules.from_mapping(rules or {})
    if isinstance(table, bool) or not isinstance(table, int) or table not in TABLES:
        raise ConfigError(f"solve works out tables of {TABLES.start} to {TABLES.stop - 1} seats, not {table!r}.")
    if rules.multi_round:
        return _solve_pair(rules, table)
    try:
        refuse_unsolved(rules)
    except ValueError as error:
        raise ConfigError(str(error)) from None
    staked = rules.shut_pays != SHUT_PAYS
    found = stakes(rules, table) if staked else equilibrium(rules)
    perfect = KeyedTurns(SITUATION, lambda key: TurnOdds.of(found.play(*key).odds))
    optimal = TurnOdds.of(solution_distribution(solve_expected_score(rules)))
    won = (found.winnings(), optimal_winnings(rules, table)) if isinstance(found, Stakes) else (None, None)
    perfect_odds = game_odds(rules, [perfect] * table)
    return GameValue(rules, table, Play.of(perfect_odds, won[0]), Play.of(game_odds(rules, [optimal] * table), won[1]))


def _solve_pair(rules: Rules, table: int) -> GameValue:
    """Two seats over several rounds or in drop-out: `perfect`'s turns, key by key, walked."""
    if table != 2:
        raise ConfigError(
            f"over several rounds or in drop-out solve works out a table of 2 seats, not {table}: "
            "every seat's total would be part of the state."
        )
    try:
        refuse_unsolved_pair(rules)
    except ValueError as error:
        raise ConfigError(str(error)) from None
    optimal = TurnOdds.of(solution_distribution(solve_expected_score(rules)))
    instead = "simulate it (shutbox tournament -s perfect -s perfect, with these rules)"
    features = Perfect.key_pair(rules)
    # the walk's cost estimated before perfect play is solved: a seat keyed alike, playing optimal's turns
    like = KeyedTurns(features, lambda values: optimal)
    refuse_costly(rules, [like, optimal], [(0, 0), (1, 1)], 1, "walking this game exactly", instead)
    walked: dict[int, TurnOdds[float]] = {}  # by policy while it lives (the solver keeps thousands)

    def odds(values: tuple[Any, ...]) -> TurnOdds[float]:
        policy = perfect_policy(rules, KeyedContext(features, values))
        known = walked.get(id(policy))
        if known is None:
            known = walked[id(policy)] = TurnOdds.of(layered_distribution(policy))
            weakref.finalize(policy, walked.pop, id(policy), None)
        return known

    perfect_seat: KeyedTurns[float] = KeyedTurns(features, odds)
    perfect = game_odds(rules, [perfect_seat] * 2)
    return GameValue(rules, 2, Play.of(perfect), Play.of(game_odds(rules, [optimal] * 2)))
