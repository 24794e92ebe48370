"""The search for the best rule of thumb under a rule set: every rule of a small family, each scored
exactly, in numpy.

The family: the built-in heuristics and every rule of up to `MOST_CRITERIA` criteria followed by
either tie-break, each with every way of choosing the dice (one die whenever allowed, never, or at
an open total up to each total a box with the choice can have). Rules that play alike are one
rule: the first met, the shorter first and, of one length, the built-ins. A move rule's choices
are made for every box and throw at once; then one pass over the boxes, a layer of as many open
tiles at a time, gives its exact value for every way of choosing the dice at once. No seed, no
sample: the same rules give the same answer. On 9 tiles about 200 move rules and 22 dice rules,
a fifth of a second (`python benchmarks/sheet.py`).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from .box import dice_options, score, tile_sum, tiles_of
from .moves import THROWS, move_table, throw_probability
from .rule_of_thumb import BUILT_IN_RULES, CRITERIA, TIE_BREAKS, RuleOfThumb
from .rules import Rules

MOST_CRITERIA = 2
"""The most criteria a searched rule ranks moves by before its tie-break (a built-in may have more)."""
SAME = 1e-12
"""Values closer than this are the same value (they differ by rounding only)."""
ALWAYS = 1 << 30
"""A dice limit no box reaches: one die whenever the rules allow it."""

ONE_DIE = sum(len(throw) == 1 for throw in THROWS)
Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


@dataclasses.dataclass(frozen=True)
class ScoredRule:
    """A rule of thumb and its exact value: the expected worth of the box a turn ends with (for
    the expected score, minus it)."""

    rule: RuleOfThumb
    value: float


@dataclasses.dataclass(frozen=True)
class _Turn:
    """A rule set's turn, flat: each (box, throw) with two or more legal moves (`boxes`, `throws`,
    where its moves start in `moves`, and which of them each move is of, `segment`), the box each
    throw leaves when its move is forced or there is none (`after`, the box itself when the turn
    ends), each box's layer of open tiles, open total and dice options, and each throw's chance."""

    boxes: Ints
    throws: Ints
    starts: Ints
    segment: Ints
    moves: Ints
    after: Ints
    layers: tuple[Ints, ...]
    totals: Ints
    only_one: npt.NDArray[np.bool_]
    both: npt.NDArray[np.bool_]
    chances: Floats


@cache
def _turn(rules: Rules) -> _Turn:
    table = move_table(rules)
    size = rules.full_box + 1
    after = np.repeat(np.arange(size, dtype=np.int64)[:, None], len(THROWS), axis=1)
    boxes: list[int] = []
    throws: list[int] = []
    lengths: list[int] = []
    moves: list[int] = []
    for mask in range(1, size):
        options = dice_options(rules, mask)
        for index, legal in enumerate(table.row(mask)):
            if len(legal) == 1:
                after[mask, index] = mask & ~legal[0]
            elif legal and len(THROWS[index]) in options:
                boxes.append(mask)
                throws.append(index)
                lengths.append(len(legal))
                moves.extend(legal)
    counts = np.array(lengths, dtype=np.int64)
    allowed = [dice_options(rules, mask) for mask in range(size)]
    by_count: dict[int, list[int]] = {}
    for mask in range(1, size):
        by_count.setdefault(mask.bit_count(), []).append(mask)
    return _Turn(
        np.array(boxes, dtype=np.int64),
        np.array(throws, dtype=np.int64),
        np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64),
        np.repeat(np.arange(len(counts), dtype=np.int64), counts),
        np.array(moves, dtype=np.int64),
        after,
        tuple(np.array(by_count[count], dtype=np.int64) for count in sorted(by_count)),
        np.array([tile_sum(mask) for mask in range(size)], dtype=np.int64),
        np.array([found == (1,) for found in allowed]),
        np.array([len(found) == 2 and mask > 0 for mask, found in enumerate(allowed)]),
        np.array([throw_probability(throw) for throw in THROWS]),
    )


@cache
def _features(tiles: int) -> dict[str, Ints]:
    """Each criterion's and tie-break's key of every move (a mask), from 0 up."""
    moves = [tiles_of(mask) for mask in range(1, 1 << tiles)]
    found = {}
    for name, criterion in (CRITERIA | TIE_BREAKS).items():
        keys = np.array([criterion.key(move) for move in moves], dtype=np.int64)
        found[name] = np.concatenate(([0], keys - keys.min()))  # no move shuts no tile
    return found


def move_choices(rules: Rules, rule: RuleOfThumb) -> Ints:
    """The box each throw of THROWS leaves from each box when the rule plays (the box itself when
    the turn ends), as an array of boxes by throws."""
    turn, features = _turn(rules.turn_rules), _features(rules.tiles)
    key = np.zeros(len(turn.moves), dtype=np.int64)
    for name in (*rule.criteria, rule.tie_break):
        feature = features[name]
        key = key * (int(feature.max()) + 1) + feature[turn.moves]
    after = turn.after.copy()
    if len(turn.moves):
        best = np.maximum.reduceat(key, turn.starts)
        chosen = np.flatnonzero(key == best[turn.segment])  # one a (box, throw): the tie-break leaves no tie
        after[turn.boxes, turn.throws] = turn.boxes & ~turn.moves[chosen]
    return after


def dice_limits(rules: Rules) -> tuple[int | None, ...]:
    """The ways a rule of thumb may choose the dice under these rules that play differently: one
    die whenever allowed (None), never (0), or at an open total up to each total a box with the
    choice has. Just (None,) when the rules leave no choice."""
    turn = _turn(rules.turn_rules)
    totals = sorted(set(turn.totals[turn.both].tolist()))
    if not totals:
        return (None,)
    return (None, 0, *totals[:-1])


def values(rules: Rules, after: Ints, terminal: Floats, limits: tuple[int | None, ...]) -> Floats:
    """The exact value from a full box of the moves `after` (as `move_choices` gives them) with each
    way of choosing the dice in `limits`: the expected `terminal[mask]` of the box a turn ends with."""
    turn = _turn(rules.turn_rules)
    bounds = np.array([ALWAYS if limit is None else limit for limit in limits], dtype=np.int64)[:, None]
    worth = np.empty((len(limits), rules.full_box + 1))
    worth[:, 0] = terminal[0]
    one, two = turn.chances[:ONE_DIE], turn.chances[ONE_DIE:]
    for layer in turn.layers:
        going = after[layer]
        found = np.where(going == layer[:, None], terminal[layer][:, None], worth[:, going])
        by_one, by_two = found[:, :, :ONE_DIE] @ one, found[:, :, ONE_DIE:] @ two
        use_one = turn.only_one[layer] | (turn.both[layer] & (turn.totals[layer] <= bounds))
        worth[:, layer] = np.where(use_one, by_one, by_two)
    result: Floats = worth[:, rules.full_box]
    return result


def score_terminal(rules: Rules) -> Floats:
    """What ending a turn on each box is worth to the expected score: minus its score."""
    return -np.array([score(rules, mask) for mask in range(rules.full_box + 1)], dtype=np.float64)


def family() -> list[RuleOfThumb]:
    """The move rules searched (each with its own dice for the built-ins, else whenever allowed),
    the shorter first: of each length, the built-ins, then every list of criteria (up to
    MOST_CRITERIA) with either tie-break."""
    found = list(BUILT_IN_RULES.values())
    for count in range(MOST_CRITERIA + 1):
        for criteria in itertools.permutations(CRITERIA, count):
            found += [RuleOfThumb(criteria, tie_break, None) for tie_break in TIE_BREAKS]
    return sorted(found, key=lambda rule: len(rule.criteria))


def rule_search(rules: Rules, terminal: Sequence[float] | Floats | None = None) -> list[ScoredRule]:
    """Every rule of the family that plays differently from those before it, with every way of
    choosing the dice (a built-in's own first), scored exactly for `terminal` (what ending a turn
    on each box is worth; by default minus its score: the expected score), best first; of equal
    values, the rule of fewer criteria first, then the family's order."""
    worth = score_terminal(rules) if terminal is None else np.asarray(terminal, dtype=np.float64)
    limits = dice_limits(rules)
    seen: set[bytes] = set()
    scored: list[ScoredRule] = []
    for rule in family():
        after = move_choices(rules, rule)
        if after.tobytes() in seen:
            continue
        seen.add(after.tobytes())
        own = canonical_limit(rules, rule.one_die_up_to)
        tried = (own, *(limit for limit in limits if limit != own))
        found = values(rules, after, worth, tried).tolist()
        scored += [
            ScoredRule(dataclasses.replace(rule, one_die_up_to=limit), value)
            for limit, value in zip(tried, found, strict=True)
        ]
    return sorted(scored, key=lambda item: (-round(item.value / SAME), len(item.rule.criteria)))


def canonical_limit(rules: Rules, limit: int | None) -> int | None:
    """The dice limit of `dice_limits` that plays as `limit` does under these rules."""
    limits = dice_limits(rules)
    if limit is None or len(limits) == 1:
        return None
    below = [found for found in limits[1:] if found is not None and found <= limit]
    highest = max(below)
    top = _turn(rules.turn_rules)
    return None if limit >= int(top.totals[top.both].max()) else highest
