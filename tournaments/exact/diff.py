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

from shutbox_cli.game import Rules, Ties, score
from shutbox_cli.game.exact_regret import Decision, decisions, policy_values
from shutbox_cli.game.exact_seats import FEATURES
from strategies.table import PolicyTable

from ..errors import ConfigError, setting
from ..records.schema import header, rules_table
from .cost import MOST_SECONDS, refuse_costly
from .explain import SOLO
from .turns import exact_key, keyed_policy, refuse_stakes, seat_turns
from .utilities import utilities, walks

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

    @property
    def box(self) -> list[int]:
        """The open tiles before the choice."""
        return _tiles(self.mask)

    def to_report(self) -> dict[str, Any]:
        """The row as the report writes it (docs/report.md, `kind = "diff"`)."""
        table: dict[str, Any] = {} if self.seat is None else {"seat": self.seat}
        if self.key:
            table["key"] = {feature: value for feature, value in self.key if value is not None}
        table["box"] = self.box
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
        """What A loses beside B, in the measure: the rows' losses added up (above 0: A loses; below,
        A gains). To rounding, `difference` in points (a higher score is the worse) and less it in
        the chance of winning."""
        return math.fsum(row.loss for row in self.rows)

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
        if self.measure == "win":
            report["seats"] = [1, 2] if self.seat is None else [self.seat]
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
    """One turn A plays in the measure: A's seat (None: alone), the key's values by feature, its
    chance, and what each final box is worth."""

    seat: int | None
    key: dict[str, Any]
    chance: float
    terminal: tuple[float, ...]


def diff(
    a: SeatedStrategy,
    b: SeatedStrategy,
    measure: Measure = "score",
    seat: int | None = None,
    most_seconds: float = MOST_SECONDS,
) -> PolicyDiff:
    """Where A and B, seated for the same rules, choose differently, each state's exact cost in
    `measure` and the chance A's play reaches it; for the win measure, A's seat at a table of two
    (`seat`, 1 or 2; None: both, each half the games). Raises ConfigError for a strategy that is
    not exact or keyed, a measure or seat it does not take, rules the win measure cannot follow or
    a game estimated to take longer than `most_seconds`; TournamentFailure for a strategy that fails."""
    if a.rules != b.rules:
        raise ValueError("A and B must be seated for the same rules.")
    if measure not in MEASURES:
        raise ConfigError(f"the {setting('measure')} must be score or win, not {measure!r}.")
    if seat is not None and (measure != "win" or seat not in (1, 2)):
        raise ConfigError(f"A's {setting('seat')} is 1 or 2, and only in the win measure (a game), not {seat!r}.")
    rules = a.rules
    refuse_stakes(rules, "diff")
    table = 1 if measure == "score" else 2
    features = [_features(seated, table) for seated in (a, b)]
    if measure == "win":
        _refuse_rules(rules)
    fingerprints = (a.fingerprint or "", b.fingerprint or "")
    a_total = b_total = 0.0
    rows: list[DiffRow] = []
    for turn in _turns(a, b, features, measure, seat, most_seconds):
        (a_move, a_dice), (b_move, b_dice) = (
            _policy(seated, own, turn.key) for seated, own in zip((a, b), features, strict=True)
        )
        turn_rules = rules.turn_rules
        a_values = policy_values(turn_rules, a_move, a_dice, turn.terminal)
        b_values = policy_values(turn_rules, b_move, b_dice, turn.terminal)
        a_total += turn.chance * a_values[rules.full_box]
        b_total += turn.chance * b_values[rules.full_box]
        found = decisions(turn_rules, a_move, a_dice, b_values, turn.terminal, b_move, b_dice)
        rows += [_row(one, turn, features[0] or features[1]) for one in found]
    if measure == "score":
        a_total, b_total = -a_total, -b_total
    rows.sort(key=lambda row: -abs(row.loss))
    return PolicyDiff(
        a.name, a.spec, b.name, b.spec, rules, measure, seat, a_total, b_total, tuple(rows), *fingerprints
    )


def _features(seated: SeatedStrategy, table: int) -> tuple[str, ...]:
    """The features of a strategy's key at this table (none for an exact one); a ConfigError for one
    that is neither exact nor keyed."""
    if seated.exact:
        return ()
    key = exact_key(seated, table) if table > 1 else seated.key
    if key is not None:
        return key
    why = "draws at random" if seated.context_free else "reads the game beyond a key"
    raise ConfigError(
        f"{seated.name!r} {why}: diff compares strategies that choose alike every time (exact, or keyed "
        "as target is in a one-round game); play them against each other instead (shutbox match)."
    )


def _refuse_rules(rules: Rules) -> None:
    if rules.multi_round or rules.ties is Ties.PLAYOFF:
        raise ConfigError(
            "the win measure is for a game of one round whose ties are shared or settled by seat; "
            f"over several rounds, in drop-out or with playoffs use {setting('measure')} score."
        )


def _policy(seated: SeatedStrategy, features: tuple[str, ...], key: dict[str, Any]) -> tuple[Any, Any]:
    """The strategy's move and dice policy in a turn with this key (its one table for an exact one)."""
    if not features:
        table = seated.table
        return table.move, table.dice_count
    played = keyed_policy(seated, features, tuple(key[feature] for feature in features))
    if isinstance(played, PolicyTable):
        return played.move, played.dice_count
    return played.best_move, played.best_dice


def _row(found: Decision, turn: _Turn, features: tuple[str, ...]) -> DiffRow:
    key = tuple((feature, turn.key[feature]) for feature in features)
    reach = found.reach * turn.chance
    return DiffRow(turn.seat, key, found.mask, found.throw, found.played, found.best, found.cost, reach)


def _turns(
    a: SeatedStrategy,
    b: SeatedStrategy,
    features: list[tuple[str, ...]],
    measure: Measure,
    seat: int | None,
    most_seconds: float,
) -> Iterator[_Turn]:
    """The turns A plays: alone, for the score (as `explain` weighs one); for the win measure, in
    each seat (or `seat`) against B, a turn per key the walk meets (`utilities`), keyed on both
    strategies' features, each weighted by its chance."""
    rules = a.rules
    if measure == "score":
        terminal = tuple(-float(score(rules, mask)) for mask in range(rules.full_box + 1))
        yield _Turn(None, {feature: getattr(SOLO, feature) for feature in FEATURES}, 1.0, terminal)
        return
    both = tuple(dict.fromkeys((*features[0], *features[1])))
    turns = [seat_turns(seated, False, 2) for seated in (a, b)]
    seats = (1, 2) if seat is None else (seat,)
    copies = walks(rules) * (walks(rules) if both else 1)
    hosted = [not seated.builtin for seated in (a, b)]
    games = [[0, 1] if number == 1 else [1, 0] for number in seats]  # A's turns (0) in its seat
    instead = f"diff them from one seat ({setting('seat')})"
    refuse_costly(rules, turns, games, copies, "this diff", instead, False, hosted, most_seconds)
    for number in seats:
        for key in utilities(rules, both, turns[1:], number - 1):
            values = dict(zip(both, key.values, strict=True))
            yield _Turn(number, values, key.chance / len(seats), key.utility)


def _tiles(mask: int) -> list[int]:
    return [tile for tile in range(1, mask.bit_length() + 1) if mask >> (tile - 1) & 1]
