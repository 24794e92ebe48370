"""Rules of thumb: short rules a person can play by at the table, written in words.

A rule of thumb ranks the legal moves by a few criteria in turn (shut the highest tile you can;
then as few tiles as you can; ...), each read off the tiles a move shuts, and ends on a
tie-break that leaves no tie (the set with the higher tiles, or the lower). Where the rules leave
the number of dice to the player, it rolls one die when the open tiles add up to at most a
number (or whenever it may, or never). The built-in heuristics are rules of thumb
(`BUILT_IN_RULES`); `rule_search` (shutbox_cli/game/thumb_search.py) finds the best of a family.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from .box import dice_options, tile_sum, tiles_of
from .moves import move_table
from .rules import HIGH_TILE, Rules
from .terms import Mask

LOW_TILES = (1, 2, 3)
"""The tiles the tips say to keep standing."""


@dataclasses.dataclass(frozen=True)
class Criterion:
    """One way to rank moves: `key(move)` is higher for the move it prefers (`move`, the tiles it
    shuts, lowest first); `words` says it as a line of the rule."""

    name: str
    words: str
    key: Callable[[tuple[int, ...]], int]


def _mask(tiles: tuple[int, ...]) -> int:
    return sum(1 << (tile - 1) for tile in tiles)


CRITERIA: dict[str, Criterion] = {
    criterion.name: criterion
    for criterion in (
        Criterion("highest-tile", "shut the highest tile you can", lambda move: move[-1]),
        Criterion("keep-high", "keep the high tiles: the set whose highest tile is lowest", lambda move: -move[-1]),
        Criterion("fewest-tiles", "shut as few tiles as you can", lambda move: -len(move)),
        Criterion("most-tiles", "shut as many tiles as you can", lambda move: len(move)),
        Criterion("lowest-tile", "shut the lowest tile you can", lambda move: -move[0]),
        Criterion("keep-low", "keep the low tiles: the set whose lowest tile is highest", lambda move: move[0]),
        Criterion(
            "high-tiles",
            f"shut as many tiles of {HIGH_TILE} and up as you can",
            lambda move: sum(tile >= HIGH_TILE for tile in move),
        ),
        Criterion(
            "keep-1-2-3",
            "shut as few of 1, 2 and 3 as you can",
            lambda move: -sum(tile in LOW_TILES for tile in move),
        ),
        Criterion("most-left", "leave the highest open total", lambda move: -sum(move)),
        Criterion("least-left", "leave the lowest open total", lambda move: sum(move)),
    )
}
"""The criteria a rule of thumb ranks moves by, by name."""

TIE_BREAKS: dict[str, Criterion] = {
    "higher-set": Criterion(
        "higher-set",
        "shut the set with the higher tiles (compare the highest, then the next)",
        lambda move: _mask(move),
    ),
    "lower-set": Criterion(
        "lower-set", "shut the set with the lower tiles (compare the highest, then the next)", lambda move: -_mask(move)
    ),
}
"""The last criterion of every rule: no two moves tie on it (a move is its set of tiles)."""


@dataclasses.dataclass(frozen=True)
class RuleOfThumb:
    """A rule of thumb: its move `criteria` (names of CRITERIA) in order, then its `tie_break`
    (a name of TIE_BREAKS); and where the rules leave the dice to the player, one die when the
    open tiles add up to `one_die_up_to` or less (None: whenever the rules allow; 0: never)."""

    criteria: tuple[str, ...]
    tie_break: str = "higher-set"
    one_die_up_to: int | None = 6

    def __post_init__(self) -> None:
        unknown = [name for name in self.criteria if name not in CRITERIA]
        if unknown or self.tie_break not in TIE_BREAKS:
            raise ValueError(f"unknown criteria of a rule of thumb: {', '.join(unknown or [self.tie_break])}.")
        if self.one_die_up_to is not None and self.one_die_up_to < 0:
            raise ValueError(f"a rule of thumb's one-die total is 0 or more, not {self.one_die_up_to}.")

    def __repr__(self) -> str:
        return f"<RuleOfThumb {self.name}>"

    @property
    def name(self) -> str:
        """The rule in one line of its criteria's names: `highest-tile, fewest-tiles, higher-set; one die at 6`."""
        return f"{', '.join((*self.criteria, self.tie_break))}; {self.dice_name}"

    @property
    def dice_name(self) -> str:
        """The dice part of `name`."""
        if self.one_die_up_to is None:
            return "one die when allowed"
        return "two dice" if self.one_die_up_to == 0 else f"one die at {self.one_die_up_to}"

    def key(self, move: tuple[int, ...]) -> tuple[int, ...]:
        """The rank of a move (the tiles it shuts): the highest is played."""
        return (*(CRITERIA[name].key(move) for name in self.criteria), TIE_BREAKS[self.tie_break].key(move))

    def choose_move(self, open_mask: Mask, dice: tuple[int, ...], rules: Rules) -> Mask:
        """The move (a mask) the rule plays for a throw (0 when none is legal)."""
        legal = move_table(rules).moves(open_mask, dice)
        if not legal:
            return 0
        return max(legal, key=lambda move: self.key(tiles_of(move)))

    def choose_dice(self, open_mask: Mask, rules: Rules) -> int:
        """The number of dice the rule rolls from a box."""
        options = dice_options(rules, open_mask)
        if len(options) == 1:
            return options[0]
        limit = self.one_die_up_to
        return 1 if limit is None or tile_sum(open_mask) <= limit else 2

    def policy(self, rules: Rules) -> tuple[Callable[[int, tuple[int, ...]], int], Callable[[int], int]]:
        """The rule under these rules as the solver's (MovePolicy, DicePolicy)."""
        return (lambda mask, dice: self.choose_move(mask, dice, rules)), (lambda mask: self.choose_dice(mask, rules))

    def lines(self, rules: Rules) -> list[str]:
        """The rule in words, a line a step: the moves, then the dice where the rules leave them."""
        first, *rest = (*self.criteria, self.tie_break)
        words = [_capital(_criterion(first).words) + "."]
        words += [f"Of those, {_criterion(name).words}." for name in rest]
        if dice_choice(rules):
            words.append(_dice_words(self.one_die_up_to))
        return words


def _criterion(name: str) -> Criterion:
    return CRITERIA.get(name) or TIE_BREAKS[name]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _dice_words(limit: int | None) -> str:
    if limit is None:
        return "Roll one die whenever the rules allow it."
    if limit == 0:
        return "Always roll two dice."
    return f"Roll one die when the rules allow it and the open tiles add up to {limit} or less."


def dice_choice(rules: Rules) -> bool:
    """Whether the rules leave the number of dice to the player with some box."""
    return any(len(dice_options(rules, mask)) > 1 for mask in range(1, rules.full_box + 1))


BUILT_IN_RULES: dict[str, RuleOfThumb] = {
    "greedy-high": RuleOfThumb(("highest-tile", "fewest-tiles"), "higher-set", None),
    "fewest-tiles": RuleOfThumb(("fewest-tiles",), "higher-set"),
    "most-tiles": RuleOfThumb(("most-tiles",), "higher-set"),
    "lowest-first": RuleOfThumb((), "lower-set"),
    "tips": RuleOfThumb(("high-tiles", "fewest-tiles", "keep-1-2-3"), "higher-set"),
}
"""The built-in heuristics (strategies/builtin.py), each as the rule of thumb it plays."""
