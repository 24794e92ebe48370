"""The rule set of a game: every option of docs/rules.md, validated, frozen and hashable."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from functools import cache
from typing import Any


class RulesError(ValueError):
    """An option has a value the rules do not accept; the message is one sentence.

    The message opens with the options it is about (`options`), so a command line can
    name them its own way with `spelled`.
    """

    def __init__(self, options: tuple[str, ...], rest: str) -> None:
        self.options = options
        self.rest = rest
        super().__init__(self.spelled(str))

    def spelled(self, spell: Callable[[str], str]) -> str:
        """The message with each option named by `spell` (say, as `--tiles`)."""
        return " and ".join(spell(option) for option in self.options) + self.rest


class ShutRule(StrEnum):
    """Which sets of tiles a roll may shut."""

    ANY = "any"
    DICE_OR_TOTAL = "dice-or-total"
    ONE_TILE = "one-tile"


class OneDie(StrEnum):
    """When a player may roll one die instead of two."""

    HIGH_TILES = "high-tiles"
    LOW_SUM = "low-sum"
    OFF = "off"


class OneDieMode(StrEnum):
    """Whether the one-die option is a choice or a must."""

    OPTIONAL = "optional"
    COMPULSORY = "compulsory"


class Scoring(StrEnum):
    """How the open tiles at the end of a turn become a score."""

    SUM = "sum"
    COUNT = "count"
    DIGITS = "digits"

    def of(self, open_tiles: Sequence[int]) -> int:
        """The score of these open tiles, lowest first (0 for none)."""
        if self is Scoring.COUNT:
            return len(open_tiles)
        if self is Scoring.DIGITS:
            return int("".join(map(str, open_tiles)) or "0")
        return sum(open_tiles)


class FirstRoll(StrEnum):
    """Which tile the first shut of a turn must include, if any."""

    NONE = "none"
    TWO_TO_GO = "2-to-go"
    THREE_TO_GO = "3-to-go"

    @property
    def tile(self) -> int | None:
        """The tile the first shut must include (None when any first shut will do)."""
        return {"2-to-go": 2, "3-to-go": 3}.get(self.value)


class Ties(StrEnum):
    """How equal lowest scores are settled."""

    SHARE = "share"
    SEAT = "seat"
    PLAYOFF = "playoff"


MIN_TILES = 2
MAX_TILES = 12
MAX_ROUNDS = 1_000
"""The most rounds a game may have, and the most a drop-out limit may take to reach: a longer
game is a typo, and would only be stopped by the tournament's time limit, blamed on a strategy."""
NO_DROP_OUT = 0
"""A drop-out limit of 0 is no limit: how a report writes none (TOML has no null), and so read everywhere."""
SHUT_PAYS = 1.0
"""What a shut box pays, in stakes, by default: the same as any other win (a game not played for
a stake values wins alike too: the stake is then just the win chance, scaled)."""
MAX_SHUT_PAYS = 1_000
ONE_DIE_LOW_SUM = 6
HIGH_TILE = 7

_ENUMS: dict[str, type[StrEnum]] = {
    "shut_rule": ShutRule,
    "one_die": OneDie,
    "one_die_mode": OneDieMode,
    "scoring": Scoring,
    "first_roll": FirstRoll,
    "ties": Ties,
}


def _choices(enum: type[StrEnum]) -> str:
    return ", ".join(f'"{member.value}"' for member in enum)


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """One complete rule set. Options left as None take the defaults of docs/rules.md.

    The defaults that depend on other options are resolved on construction, so two
    rule sets that play the same game compare equal and hash alike.
    """

    tiles: int = 9
    shut_rule: ShutRule = ShutRule.ANY
    # None asks for the default, resolved on construction: after it, always a OneDie / bool.
    one_die: OneDie = None  # type: ignore[assignment]
    one_die_mode: OneDieMode = OneDieMode.OPTIONAL
    scoring: Scoring = Scoring.SUM
    first_roll: FirstRoll = FirstRoll.NONE
    instant_win: bool = None  # type: ignore[assignment]
    ties: Ties = Ties.SHARE
    rounds: int = 1
    drop_out: int | None = None
    shut_pays: float = SHUT_PAYS

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        tiles = _whole_number("tiles", self.tiles, MIN_TILES, MAX_TILES)
        set_(self, "tiles", tiles)
        for name, enum in _ENUMS.items():
            value = getattr(self, name)
            if value is None and name == "one_die":
                value = OneDie.HIGH_TILES if tiles <= 10 else OneDie.LOW_SUM
            try:
                set_(self, name, enum(value))
            except ValueError:
                raise RulesError((name,), f" must be one of {_choices(enum)}, not {value!r}.") from None
        rounds = _whole_number("rounds", self.rounds, 1, MAX_ROUNDS)
        set_(self, "rounds", rounds)
        if self.drop_out is not None:
            most = MAX_ROUNDS * self.scoring.of(range(1, tiles + 1))
            why = f" (what a player can total in {MAX_ROUNDS:,} rounds)"
            limit = _whole_number("drop_out", self.drop_out, NO_DROP_OUT, most, why, " (no drop-out)")
            set_(self, "drop_out", None if limit == NO_DROP_OUT else limit)
        if self.drop_out is not None and rounds > 1:
            raise RulesError(
                ("rounds", "drop_out"), " cannot both be set: a drop-out game lasts until one player is left."
            )
        if self.first_roll is FirstRoll.THREE_TO_GO and tiles < 3:
            raise RulesError(("first_roll",), f' "3-to-go" needs a box of at least 3 tiles, not {tiles}.')
        set_(self, "shut_pays", _payout(self.shut_pays))
        if self.shut_pays != SHUT_PAYS and self.multi_round:
            raise RulesError(("shut_pays",), " needs a game of one round: over several, a shut box wins no stake.")
        if self.shut_pays != SHUT_PAYS and self.ties is Ties.PLAYOFF:
            raise RulesError(
                ("shut_pays", "ties"),
                f' cannot be {self.shut_pays:g} and "playoff" together: '
                "the payout of a shut box in a playoff is not defined.",
            )
        if self.instant_win is None:
            set_(self, "instant_win", not self.multi_round)
        elif not isinstance(self.instant_win, bool):
            raise RulesError(("instant_win",), f" must be true or false, not {self.instant_win!r}.")

    @property
    def multi_round(self) -> bool:
        """Whether scores add up over several rounds (fixed rounds or a drop-out limit)."""
        return self.rounds > 1 or self.drop_out is not None

    @property
    def turn_rules(self) -> Rules:
        """The options that shape one turn (box, shut rule, dice, scoring, first roll), with
        the game's format left at its defaults: what turn-level results may be cached by."""
        return _turn_rules(self)

    @property
    def full_box(self) -> int:
        """The bitmask with every tile open."""
        return (1 << self.tiles) - 1

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any]) -> Rules:
        """Build rules from a TOML-style table (`tiles = 12`, `one_die = "low-sum"`, ...)."""
        known = {field.name for field in dataclasses.fields(cls)}
        for key in mapping:
            if key not in known:
                raise RulesError((), f"unknown rule {key!r}; the rules are {', '.join(sorted(known))}.")
        return cls(**dict(mapping))

    def to_mapping(self) -> dict[str, Any]:
        """The rules as a TOML-ready table: every option, plain values, no None (and no `shut_pays`
        when a shut box pays like any other win: tables written before it existed stay as they were)."""
        table: dict[str, Any] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if value is None or (field.name == "shut_pays" and value == SHUT_PAYS):
                continue
            table[field.name] = value.value if isinstance(value, StrEnum) else value
        return table


def _whole_number(
    name: str, value: object, low: int, high: int | None = None, why: str = "", low_means: str = ""
) -> int:
    """The value if it is a whole number from `low` (to `high`); else an error saying what is
    accepted (and `why`, where the bound needs a word; `low_means`, where the lowest does)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        accepted = f"from {low}{low_means} to {high:,}{why}" if high is not None else f"of at least {low}"
        raise RulesError((name,), f" must be a whole number {accepted}, not {_shown(value)}.")
    return value


def _payout(value: object) -> float:
    """A shut box's payout as a float, if it is a number from 0 to `MAX_SHUT_PAYS` stakes (NaN is not)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= MAX_SHUT_PAYS:
        raise RulesError(
            ("shut_pays",), f" must be a number of stakes from 0 to {MAX_SHUT_PAYS:,}, not {_shown(value)}."
        )
    return float(value)


@cache
def _turn_rules(rules: Rules) -> Rules:
    """`Rules.turn_rules`, built once per rule set: solvers and strategies ask for it every turn."""
    return Rules(rules.tiles, rules.shut_rule, rules.one_die, rules.one_die_mode, rules.scoring, rules.first_roll)


def _shown(value: object) -> str:
    """A wrong value as a message quotes it: its repr, cut short (a config may hold a huge one)."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an int of thousands of digits, a list nested thousands deep
        return "a number too long to show" if isinstance(value, int) else "a value nested too deep to show"
    return text if len(text) <= 40 else f"{text[:37]}..."
