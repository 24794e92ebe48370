"""One player's turn on a fresh box: roll, shut, repeat until a roll matches nothing."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from .box import dice_table, score, tiles_of
from .moves import move_table
from .rules import Rules
from .terms import Mask


class IllegalDecision(ValueError):
    """A decision that the rules do not allow at this point of the turn."""

    def __init__(self, message: str, open_mask: Mask, dice: tuple[int, ...] | None, answer: object) -> None:
        super().__init__(message)
        self.open_mask = open_mask
        self.dice = dice
        self.answer = answer


@dataclasses.dataclass(frozen=True, slots=True)
class Roll:
    """One throw of a turn and the tiles it shut (mask 0 for the throw that ended the turn)."""

    dice: tuple[int, ...]
    shut: int

    @property
    def total(self) -> int:
        return sum(self.dice)

    @property
    def shut_tiles(self) -> tuple[int, ...]:
        return tiles_of(self.shut)


@dataclasses.dataclass(frozen=True, slots=True)
class TurnRecord:
    """What happened in a turn: every roll, the tiles left open and the score."""

    rolls: tuple[Roll, ...]
    open_mask: Mask
    score: int

    @property
    def shut_box(self) -> bool:
        return self.open_mask == 0

    @property
    def open_tiles(self) -> tuple[int, ...]:
        return tiles_of(self.open_mask)


class Turn:
    """A turn in progress, driven one step at a time (by `play_turn` or by a person)."""

    def __init__(self, rules: Rules, rolls: Iterator[tuple[int, int]]) -> None:
        self.rules = rules
        self._rolls = rolls
        self._table = move_table(rules)
        self._dice_table = dice_table(rules)
        self.open_mask = rules.full_box
        self.history: list[Roll] = []
        self.dice: tuple[int, ...] | None = None
        self.moves: tuple[Mask, ...] = ()
        self.over = False

    @property
    def dice_options(self) -> tuple[int, ...]:
        """How many dice may be rolled next: (2,), (1,) or (1, 2)."""
        return self._dice_table[self.open_mask]

    def roll(self, count: int = 2) -> tuple[int, ...]:
        """Roll one or two dice; if no legal move exists the turn is over."""
        if self.over or self.dice is not None:
            raise RuntimeError("cannot roll now: the turn is over or a move is pending.")
        if count not in self.dice_options:
            raise IllegalDecision(
                f"{count} dice may not be rolled now; allowed: {' or '.join(map(str, self.dice_options))}.",
                self.open_mask,
                None,
                count,
            )
        pair = next(self._rolls)
        dice = pair[:count]
        moves = self._table.moves(self.open_mask, dice)
        if moves:
            self.dice, self.moves = dice, moves
        else:
            self.history.append(Roll(dice, 0))
            self.over = True
        return dice

    def shut(self, move: Mask) -> None:
        """Shut the tiles of a legal move for the pending roll."""
        if self.dice is None:
            raise RuntimeError("cannot shut now: there is no roll to answer.")
        if move not in self.moves:
            raise IllegalDecision(
                f"{move!r} is not a legal move for the roll {self.dice}.", self.open_mask, self.dice, move
            )
        self.history.append(Roll(self.dice, move))
        self.open_mask &= ~move
        self.dice, self.moves = None, ()
        self.over = self.open_mask == 0

    def record(self) -> TurnRecord:
        """The finished turn."""
        if not self.over:
            raise RuntimeError("the turn is not over yet.")
        return TurnRecord(tuple(self.history), self.open_mask, score(self.rules, self.open_mask))


class Chooser(Protocol):
    """Makes a turn's decisions: which move to shut, and one die or two when that is a choice."""

    def choose_dice(self, open_mask: Mask, history: Sequence[Roll]) -> int: ...

    def choose_move(
        self, open_mask: Mask, dice: tuple[int, ...], moves: tuple[Mask, ...], history: Sequence[Roll]
    ) -> Mask: ...


def play_turn(rules: Rules, rolls: Iterator[tuple[int, int]], chooser: Chooser) -> TurnRecord:
    """Play a whole turn, asking the chooser only when there is a real choice: `finish_turn` of a
    fresh `Turn`, written out with the tables at hand (the general engine plays every turn here)."""
    table, options_of = move_table(rules), dice_table(rules)
    open_mask = rules.full_box
    history: list[Roll] = []
    while True:
        options = options_of[open_mask]
        count = chooser.choose_dice(open_mask, history) if len(options) > 1 else options[0]
        if count not in options:
            raise IllegalDecision(
                f"{count} dice may not be rolled now; allowed: {' or '.join(map(str, options))}.",
                open_mask,
                None,
                count,
            )
        dice = next(rolls)[:count]
        moves = table.moves(open_mask, dice)
        if not moves:
            history.append(Roll(dice, 0))
            break
        move = moves[0] if len(moves) == 1 else chooser.choose_move(open_mask, dice, moves, history)
        if move not in moves:
            raise IllegalDecision(f"{move!r} is not a legal move for the roll {dice}.", open_mask, dice, move)
        history.append(Roll(dice, move))
        open_mask &= ~move
        if not open_mask:
            break
    return TurnRecord(tuple(history), open_mask, score(rules, open_mask))


def finish_turn(turn: Turn, chooser: Chooser, watch: Callable[[Turn], None] | None = None) -> TurnRecord:
    """Play a turn to its end with a chooser; `watch` sees the turn after every roll
    (its last roll is `turn.history[-1]`), so a screen can show a computer's play."""
    while not turn.over:
        options = turn.dice_options
        count = chooser.choose_dice(turn.open_mask, turn.history) if len(options) > 1 else options[0]
        turn.roll(count)
        if turn.dice is not None:
            moves = turn.moves
            move = moves[0] if len(moves) == 1 else chooser.choose_move(turn.open_mask, turn.dice, moves, turn.history)
            turn.shut(move)
        if watch is not None:
            watch(turn)
    return turn.record()
