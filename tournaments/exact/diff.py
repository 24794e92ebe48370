"""Where two strategies choose differently, and what each difference is worth, exactly (`shutbox
diff A B`): the performance-difference identity of `shutbox_cli.game.exact_regret` with B as the
reference. Each state where A's choice is not B's is a row, with its cost in the measure (B's
value of B's choice less B's value of A's: above 0 where A's choice is the worse, by B's own
later play) and the chance A's own play reaches it; the rows' reach-weighted costs add up to
V^B - V^A exactly, so no other state carries any of the difference.

The measure is the expected score of a turn (`score`, in points: A's expected score less B's), or
the chance of winning one round at a table of two against B (`win`: A's chance against B less
B's against itself). A keyed strategy plays one table per key it meets there (its seat, the score
B posted before it): each key is a turn of its own, weighted by the chance of meeting it, and A's
table for a key is set beside B's for the same key.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal

from shutbox_cli.game import Rules, Ties, TurnContext, distribution, score
from shutbox_cli.game.exact_regret import Decision, decisions, policy_values
from strategies.keys import key_of
from strategies.table import PolicyTable

from ..errors import ConfigError, setting
from ..records.schema import header, rules_table

if TYPE_CHECKING:  # a user's strategy is seated in a host: only a diff of one loads that code
    from ..referee.seated import SeatedStrategy

Measure = Literal["score", "win"]
MEASURES: tuple[Measure, ...] = ("score", "win")
"""What a difference is measured in: a turn's expected score, or the chance of winning against B."""


@dataclasses.dataclass(frozen=True)
class DiffRow:
    """One state where A and B choose differently: the box (`mask`) and the throw (None: the
    choice of how many dice), A's choice and B's (a mask of the tiles shut, or a number of dice),
    `cost` (B's value of its choice less B's value of A's, in the measure: above 0 where A's is
    worse), `reach` (the chance A's play meets it, the key's chance included), A's `seat` (1 or 2;
    None where the seat changes nothing) and the key's (feature, value) pairs where one is keyed."""

    seat: int | None
    key: tuple[tuple[str, Any], ...]
    mask: int
    throw: tuple[int, ...] | None
    a_choice: int
    b_choice: int
    cost: float
    reach: float

    @property
    def loss(self) -> float:
        """What the state takes from A: reach * cost (the rows' losses add up to V^B - V^A)."""
        return self.reach * self.cost

    def to_report(self) -> dict[str, Any]:
        """The row as the report writes it (docs/report.md, `kind = "diff"`)."""
        table: dict[str, Any] = {} if self.seat is None else {"seat": self.seat}
        if self.key:
            table["key"] = {feature: value for feature, value in self.key if value is not None}
        table["box"] = _tiles(self.mask)
        if self.throw is None:
            table |= {"choice": "dice", "a_dice": self.a_choice, "b_dice": self.b_choice}
        else:
            table |= {"choice": "move", "throw": list(self.throw)}
            table |= {"a_shuts": _tiles(self.a_choice), "b_shuts": _tiles(self.b_choice)}
        return table | {"cost": self.cost, "reach": self.reach, "loss": self.loss}


@dataclasses.dataclass(frozen=True)
class PolicyDiff:
    """A against B under `rules`, in `measure`: `a_value` and `b_value` (A's expected score and
    B's, or A's chance of winning against B and B's against itself), their `difference` (A's
    less B's), the `rows` where they choose differently ranked by the size of their loss, and both
    fingerprints. `identical` when the fingerprints agree: the same choice in every state."""

    strategy: str
    spec: str
    against: str
    against_spec: str
    rules: Rules
    measure: Measure
    seat: int | None
    a_value: float
    b_value: float
    rows: tuple[DiffRow, ...]
    fingerprint: str
    against_fingerprint: str

    @property
    def difference(self) -> float:
        """A's value less B's: expected points (score) or chance of winning (win)."""
        return self.a_value - self.b_value

    @property
    def rows_total(self) -> float:
        """The rows' losses added up, in A's favour as `difference` is: equal to it, to rounding."""
        total = math.fsum(row.loss for row in self.rows)
        return total if self.measure == "score" else -total

    @property
    def identical(self) -> bool:
        """Whether they choose the same in every state under these rules (the same fingerprint)."""
        return self.fingerprint == self.against_fingerprint

    def __repr__(self) -> str:
        from ..briefly import brief, counted

        if self.identical:
            return brief("PolicyDiff", f"{self.strategy} and {self.against}", f"identical ({self.fingerprint})")
        unit = "points" if self.measure == "score" else "win chance"
        found = counted(len(self.rows), "state")
        return brief("PolicyDiff", f"{self.strategy} against {self.against}", found, f"{self.difference:+.6g} {unit}")

    def to_report(self) -> dict[str, Any]:
        """The diff as a report table (docs/report.md, `kind = "diff"`; figures in full)."""
        from ..referee.confinement import report_field

        report: dict[str, Any] = {
            **header("diff"),
            "method": "exact",
            **report_field([self.spec, self.against_spec]),
            "measure": self.measure,
        }
        if self.seat is not None:
            report["seat"] = self.seat
        report |= {"strategy": self.strategy, "spec": self.spec, "fingerprint": self.fingerprint}
        report |= {
            "opponent": self.against,
            "opponent_spec": self.against_spec,
            "opponent_fingerprint": self.against_fingerprint,
        }
        report |= {"identical": self.identical, "value": self.a_value, "opponent_value": self.b_value}
        report |= {"difference": self.difference, "rows_total": self.rows_total}
        return report | {"rules": rules_table(self.rules), "row": [row.to_report() for row in self.rows]}


@dataclasses.dataclass(frozen=True)
class _Turn:
    """One turn A plays in the measure: A's seat, its context, its chance, and what each final box is worth."""

    seat: int | None
    context: TurnContext
    chance: float
    terminal: tuple[float, ...]


def diff(a: SeatedStrategy, b: SeatedStrategy, measure: Measure = "score", seat: int | None = None) -> PolicyDiff:
    """Where A and B, seated for the same rules, choose differently, each state's exact cost in
    `measure` and the chance A's play reaches it; with `seat` (1 or 2), A's seat at a table of two
    (`win`, or a keyed strategy; None: both, each half the games). Raises ConfigError for a
    strategy that is not exact or keyed, a measure or seat it does not know, or rules the win
    measure cannot take; TournamentFailure for a user's strategy that fails."""
    if a.rules != b.rules:
        raise ValueError("A and B must be seated for the same rules.")
    if measure not in MEASURES:
        raise ConfigError(f"the {setting('measure')} must be score or win, not {measure!r}.")
    if seat not in (None, 1, 2):
        raise ConfigError(f"A's {setting('seat')} must be 1 or 2, not {seat!r}.")
    rules = a.rules
    for seated in (a, b):
        _refuse_unkeyed(seated)
    if measure == "win":
        _refuse_rules(rules)
    fingerprints = (a.fingerprint or "", b.fingerprint or "")
    a_total = b_total = 0.0
    rows: list[DiffRow] = []
    for turn in _turns(a, b, measure, seat):
        a_table, b_table = _table(a, turn.context), _table(b, turn.context)
        a_values = policy_values(rules, a_table.move, a_table.dice_count, turn.terminal)
        b_values = policy_values(rules, b_table.move, b_table.dice_count, turn.terminal)
        a_total += turn.chance * a_values[rules.full_box]
        b_total += turn.chance * b_values[rules.full_box]
        found = decisions(
            rules, a_table.move, a_table.dice_count, b_values, turn.terminal, b_table.move, b_table.dice_count
        )
        key = _key(a, turn.context) or _key(b, turn.context)
        rows += [_row(one, turn, key) for one in found]
    if measure == "score":
        a_total, b_total = -a_total, -b_total
    rows.sort(key=lambda row: -abs(row.loss))
    return PolicyDiff(
        a.name, a.spec, b.name, b.spec, rules, measure, seat, a_total, b_total, tuple(rows), *fingerprints
    )


def _refuse_unkeyed(seated: SeatedStrategy) -> None:
    if seated.exact or seated.key is not None:
        return
    why = "draws at random" if seated.context_free else "reads the game beyond a key"
    raise ConfigError(
        f"{seated.name!r} {why}: diff compares strategies that choose alike every time (exact, or keyed "
        "as target is in a one-round game); play them against each other instead (shutbox match)."
    )


def _refuse_rules(rules: Rules) -> None:
    if rules.multi_round:
        raise ConfigError(
            f"the win measure is for a one-round game, not these rules' {_game(rules)}; use {setting('measure')} score."
        )
    if rules.ties is Ties.PLAYOFF:
        raise ConfigError(
            f"the win measure takes the tie rules share and seat, not playoff; use {setting('measure')} score."
        )


def _game(rules: Rules) -> str:
    return "drop-out game" if rules.drop_out is not None else f"{rules.rounds} rounds"


def _key(seated: SeatedStrategy, context: TurnContext) -> tuple[tuple[str, Any], ...]:
    """The strategy's key in this context, as (feature, value) pairs (none where it has no key)."""
    if seated.key is None:
        return ()
    return tuple(zip(seated.key, key_of(context, seated.key), strict=True))


def _table(seated: SeatedStrategy, context: TurnContext) -> PolicyTable:
    """The strategy's table for this turn: its only one, or its key's."""
    return seated.table if seated.key is None else seated.keyed_table(key_of(context, seated.key))


def _row(found: Decision, turn: _Turn, key: tuple[tuple[str, Any], ...]) -> DiffRow:
    reach = found.reach * turn.chance
    return DiffRow(turn.seat, key, found.mask, found.throw, found.played, found.best, found.cost, reach)


FIRST = TurnContext(0, 0, 0, False, (None, None), (0, 0), (True, True))
"""A's turn in seat 1 of a one-round game at a table of two."""


def _second(posted: int) -> TurnContext:
    """A's turn in seat 2, B having posted `posted`."""
    return TurnContext(1, 1, 0, False, (posted, None), (0, 0), (True, True))


def _turns(a: SeatedStrategy, b: SeatedStrategy, measure: Measure, seat: int | None) -> Iterator[_Turn]:
    """The turns A plays, weighted: one turn for the score of context-free strategies; else A in
    seat 1 and, in seat 2, one turn per score B can post first (each half the games without `seat`)."""
    rules = a.rules
    scores = tuple(-float(score(rules, mask)) for mask in range(rules.full_box + 1))
    if measure == "score" and a.key is None and b.key is None:
        yield _Turn(None, FIRST, 1.0, scores)
        return
    half = 1.0 if seat is not None else 0.5
    if seat in (None, 1):
        yield _Turn(1, FIRST, half, scores if measure == "score" else _first_worth(b))
    if seat in (None, 2):
        posted = _scores(_table(b, FIRST), rules)
        for points, chance in posted.items():
            if points == 0 and rules.instant_win:
                continue  # B's shut box won at once: A has no turn, and A's chance is 0 either way
            worth = scores if measure == "score" else _second_worth(rules, points)
            yield _Turn(2, _second(points), half * chance, worth)


def _scores(table: PolicyTable, rules: Rules) -> dict[int, float]:
    """The chance of each score a turn played from this table ends with."""
    return distribution(rules, table.move, table.dice_count).probabilities


def _tie(rules: Rules, first: bool) -> float:
    """What a tie is worth to a seat: half a win shared, or a win to the earlier seat."""
    if rules.ties is Ties.SEAT:
        return 1.0 if first else 0.0
    return 0.5


def _first_worth(b: SeatedStrategy) -> tuple[float, ...]:
    """A's chance of winning, playing first, with each final box: B answers from its table (its
    key's, with A's score posted)."""
    rules = b.rules
    worth = []
    answers: dict[int, dict[int, float]] = {}
    for mask in range(rules.full_box + 1):
        points = score(rules, mask)
        if points == 0 and rules.instant_win:
            worth.append(1.0)
            continue
        if points not in answers:
            answers[points] = _scores(_table(b, _second(points)), rules)
        worth.append(_against(rules, points, answers[points]))
    return tuple(worth)


def _against(rules: Rules, points: int, rival: dict[int, float]) -> float:
    """The chance of winning with `points` posted first, against a rival's scores to come."""
    value = 0.0
    for theirs, chance in rival.items():
        if theirs == 0 and rules.instant_win:
            continue
        value += chance * (1.0 if points < theirs else _tie(rules, True) if points == theirs else 0.0)
    return value


def _second_worth(rules: Rules, posted: int) -> tuple[float, ...]:
    """A's chance of winning, playing second against `posted`, with each final box."""
    worth = []
    for mask in range(rules.full_box + 1):
        points = score(rules, mask)
        if points == 0 and rules.instant_win:
            worth.append(1.0)
        else:
            worth.append(1.0 if points < posted else _tie(rules, False) if points == posted else 0.0)
    return tuple(worth)


def _tiles(mask: int) -> list[int]:
    return [tile for tile in range(1, mask.bit_length() + 1) if mask >> (tile - 1) & 1]
