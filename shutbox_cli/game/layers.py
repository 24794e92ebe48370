"""The solver's pass over the boxes a layer at a time (the boxes with as many tiles open), in numpy:
every box of a layer moves only to boxes of lower layers, so a layer's choices are made at once.

It plays for the highest expected worth of the box a turn ends with and, among choices of equal
worth (within `EPSILON`), for the lowest expected score; among those, the first in move order, and
one die before two. A pass costs about a tenth of the solver's plain loop, for policies asked by
the thousand (target's, one per situation it meets).
"""

from __future__ import annotations

import dataclasses
from functools import cache

import numpy as np
import numpy.typing as npt

from .box import dice_options, score
from .moves import THROWS, move_table, throw_probability
from .rules import Rules

EPSILON = 1e-12
"""Worths closer than this are equal (they differ by rounding only), as in the solver's loop."""

ONE_DIE = len([throw for throw in THROWS if len(throw) == 1])
"""The throws of one die come first in `THROWS`, then those of two."""

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@dataclasses.dataclass(frozen=True)
class _Layer:
    """One layer's boxes, whether each may roll one die and two, and, flat, every legal move of
    every (box, throw) with one: `slot` its box's place in the layer, `throw` the throw's index in
    THROWS, `starts` where each one's moves begin in `moves` (fewest tiles first), `segment` which
    (box, throw) each move is of, and `after` the boxes the moves leave."""

    boxes: Ints
    one: npt.NDArray[np.bool_]
    two: npt.NDArray[np.bool_]
    slot: Ints
    throw: Ints
    starts: Ints
    segment: Ints
    moves: Ints
    after: Ints


@dataclasses.dataclass(frozen=True)
class _Box:
    """A rule set's layers, its throws' chances, the score of every box, every score there is
    (lowest first) and each box's score's place among them."""

    layers: tuple[_Layer, ...]
    chances: Floats
    scores: Floats
    points: tuple[int, ...]
    place: Ints


@cache
def _box(rules: Rules) -> _Box:
    table = move_table(rules)
    by_count: dict[int, list[int]] = {}
    for mask in range(1, rules.full_box + 1):
        by_count.setdefault(mask.bit_count(), []).append(mask)
    layers = []
    for boxes in by_count.values():
        slot: list[int] = []
        throw: list[int] = []
        lengths: list[int] = []
        moves: list[int] = []
        for place, mask in enumerate(boxes):
            for index, legal in enumerate(table.row(mask)):
                if legal:
                    slot.append(place)
                    throw.append(index)
                    lengths.append(len(legal))
                    moves.extend(legal)
        flat = np.array(moves, dtype=np.int64)
        counts = np.array(lengths, dtype=np.int64)
        starts = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
        owner = np.array(boxes, dtype=np.int64)[np.array(slot, dtype=np.int64)]
        options = [dice_options(rules, mask) for mask in boxes]
        layers.append(
            _Layer(
                np.array(boxes, dtype=np.int64),
                np.array([1 in found for found in options]),
                np.array([2 in found for found in options]),
                np.array(slot, dtype=np.int64),
                np.array(throw, dtype=np.int64),
                starts,
                np.repeat(np.arange(len(counts), dtype=np.int64), counts),
                flat,
                np.repeat(owner, counts) & ~flat,
            )
        )
    chances = np.array([throw_probability(throw) for throw in THROWS])
    scores = [score(rules, mask) for mask in range(rules.full_box + 1)]
    distinct = sorted(set(scores))
    rank = {points: index for index, points in enumerate(distinct)}
    by_mask = np.array([rank[points] for points in scores], dtype=np.int64)
    return _Box(tuple(layers), chances, np.array(scores, dtype=np.float64), tuple(distinct), by_mask)


@dataclasses.dataclass(frozen=True)
class Pass:
    """What a pass finds: each box's worth before the next throw, the dice rolled there and the
    move (a mask, 0 for none) for each throw of THROWS."""

    values: Floats
    dice: Ints
    moves: Ints

    @property
    def after(self) -> Ints:
        """The box each throw leaves (the same box when the turn ends there)."""
        boxes = np.arange(len(self.dice), dtype=np.int64)[:, None]
        return np.where(self.moves == 0, boxes, boxes & ~self.moves)


def solve_layers(rules: Rules, utility: tuple[float, ...]) -> Pass:
    """The best policy for `utility[mask]`, what a turn ending on each box is worth (higher better)."""
    box = _box(rules)
    size = rules.full_box + 1
    worth = np.array(utility, dtype=np.float64)
    values, seconds = worth.copy(), box.scores.copy()
    dice = np.full(size, 2, dtype=np.int64)
    moves = np.zeros((size, len(THROWS)), dtype=np.int64)
    one, two = box.chances[:ONE_DIE], box.chances[ONE_DIE:]
    for layer in box.layers:
        value = np.repeat(worth[layer.boxes][:, None], len(THROWS), axis=1)
        second = np.repeat(box.scores[layer.boxes][:, None], len(THROWS), axis=1)
        if len(layer.moves):
            chosen = _choices(layer, values[layer.after], seconds[layer.after])
            value[layer.slot, layer.throw] = values[layer.after[chosen]]
            second[layer.slot, layer.throw] = seconds[layer.after[chosen]]
            moves[layer.boxes[layer.slot], layer.throw] = layer.moves[chosen]
        by_one, by_two = value[:, :ONE_DIE] @ one, value[:, ONE_DIE:] @ two
        second_one, second_two = second[:, :ONE_DIE] @ one, second[:, ONE_DIE:] @ two
        gain = by_two - by_one
        rather = (gain > EPSILON) | ((gain >= -EPSILON) & (second_one - second_two > EPSILON))
        use_two = layer.two & (~layer.one | rather)
        values[layer.boxes] = np.where(use_two, by_two, by_one)
        seconds[layer.boxes] = np.where(use_two, second_two, second_one)
        dice[layer.boxes] = np.where(use_two, 2, 1)
    return Pass(values, dice, moves)


def _choices(layer: _Layer, worth: Floats, second: Floats) -> Ints:
    """For each (box, throw) of the layer, where its chosen move is in the flat list: the first of
    the lowest `second` among those within EPSILON of the highest `worth`."""
    best = np.maximum.reduceat(worth, layer.starts)
    near = worth >= best[layer.segment] - EPSILON
    lowered = np.where(near, second, np.inf)
    lowest = np.minimum.reduceat(lowered, layer.starts)
    picked = np.flatnonzero(lowered <= lowest[layer.segment] + EPSILON)
    first = np.concatenate(([True], layer.segment[picked][1:] != layer.segment[picked][:-1]))
    return picked[first]


def walked(rules: Rules, dice: object, after: object) -> tuple[dict[int, float], float]:
    """The chance of each score a turn ends on, lowest first, and of a shut box, from a full box,
    walked down a layer at a time: `dice[mask]` the dice rolled from a box, `after[mask][throw]`
    the box a throw of THROWS leaves (itself when the turn ends; anything where those dice are
    not rolled)."""
    box = _box(rules)
    size = rules.full_box + 1
    rolled = np.asarray(dice, dtype=np.int64)
    leaves = np.asarray(after, dtype=np.int64)
    reach, ended = np.zeros(size), np.zeros(size)
    reach[rules.full_box] = 1.0
    by_one = np.concatenate((box.chances[:ONE_DIE], np.zeros(len(THROWS) - ONE_DIE)))
    by_two = np.concatenate((np.zeros(ONE_DIE), box.chances[ONE_DIE:]))
    for layer in reversed(box.layers):
        going_to = leaves[layer.boxes]
        weight = reach[layer.boxes][:, None] * np.where((rolled[layer.boxes] == 1)[:, None], by_one, by_two)
        stop = going_to == layer.boxes[:, None]
        ended[layer.boxes] += np.where(stop, weight, 0.0).sum(axis=1)
        going = ~stop & (weight > 0)
        reach += np.bincount(going_to[going], weight[going], minlength=size)
    ended[0] = reach[0]
    by_score = np.bincount(box.place, ended, minlength=len(box.points)).tolist()
    found = np.bincount(box.place, ended > 0, minlength=len(box.points))
    return {points: chance for points, chance, any_ in zip(box.points, by_score, found, strict=True) if any_}, float(
        ended[0]
    )
